import type { ProcessorIdentity } from '@marketplace/identity';
import { signatureMatches, timestampAcceptable } from '../../domain/processor-signature';
import { liveProcessorSecrets, processorSecretContext } from '../../domain/processor-secrets';
import type { GatewayContext } from '../context';
import { findTenantProfile } from '../credentials/find-tenant-profile';

/**
 * The processor identity of a notification to `tenantId`, when its timestamp is fresh and its
 * signature over the raw body matches a live secret of that tenant; undefined otherwise (an
 * unknown tenant, one without a processor secret, a stale or wrong signature: all the same 401).
 */
export async function authenticateProcessor(
  ctx: GatewayContext,
  tenantId: string,
  request: { timestamp: string | undefined; signature: string | undefined; rawBody: string },
): Promise<ProcessorIdentity | undefined> {
  if (!timestampAcceptable(request.timestamp, ctx.now().getTime())) return undefined;
  const secrets = await ctx.store.tenants.processorSecretsOf({ tenantId });
  if (!secrets) return undefined;
  const live = liveProcessorSecrets(secrets, ctx.now()).map((sealed) =>
    ctx.box.open(sealed, processorSecretContext(tenantId)),
  );
  if (!signatureMatches(live, request.timestamp!, request.signature, request.rawBody)) return undefined;
  const tenant = await findTenantProfile(ctx, tenantId);
  return tenant && { kind: 'processor', tenantId, tenant };
}
