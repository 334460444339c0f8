import { CONNECTION_LIMITS, type ProviderConnectionInput } from '@marketplace/contracts';
import { validationError } from '@marketplace/errors';
import { outboundUrlProblem } from '@marketplace/http';
import type { ConnectionReader } from '../../adapters/dispatch/connections-repository';
import { normalBaseUrl, type ConnectionInstallation, type ProviderConnection } from '../../domain/dispatch/connection';
import type { DeliveryContext } from '../context';

/**
 * A tenant connects a provider that implements the Standard Delivery Provider Contract (or the
 * administrator offers one to every tenant, `{ platform: true }`). The base URL must be one the
 * platform may call (https, not an internal address; plain http to loopback only where the
 * deployment allows it), without a query or fragment; the API key and signing secret are sealed
 * at once and never shown again. A tenant's connection comes with its installation, which
 * deliveries are assigned to. No capability is enabled yet: a certificate or an administrator does that.
 */
export async function registerConnection(
  ctx: DeliveryContext,
  owner: ConnectionReader,
  input: ProviderConnectionInput,
): Promise<{ connection: ProviderConnection; installation: ConnectionInstallation | null }> {
  const problem =
    outboundUrlProblem(input.baseUrl, {
      allowLoopbackHttp: ctx.dispatch.allowLoopbackHttp,
      maxLength: CONNECTION_LIMITS.baseUrlMaxLength,
    }) ?? (new URL(input.baseUrl).search ? 'must not have a query' : undefined);
  if (problem) throw validationError('request.invalid', 'The request is invalid.', { baseUrl: [problem] });

  const now = ctx.now();
  const connectionId = ctx.newId();
  const connection: ProviderConnection = {
    _id: connectionId,
    tenantId: 'tenantId' in owner ? owner.tenantId : null,
    name: input.name.trim(),
    baseUrl: normalBaseUrl(input.baseUrl),
    ...ctx.dispatch.secrets.sealCredentials(connectionId, { apiKey: input.apiKey, signingSecret: input.signingSecret }),
    contract: { version: input.contract.version, revision: input.contract.revision },
    preparationTimeMinutes: input.preparationTimeMinutes ?? CONNECTION_LIMITS.defaultPreparationMinutes,
    capabilities: {},
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await ctx.store.connections.insert(owner, connection);
  await ctx.dispatch.events.connection(connectionId);
  if (!('tenantId' in owner)) return { connection, installation: null };
  const installation = await ctx.store.connectionInstallations.insert(owner, {
    _id: ctx.newId(),
    tenantId: owner.tenantId,
    connectionId,
    createdAt: now,
  });
  return { connection, installation };
}
