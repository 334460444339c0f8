import type { TenantOwner } from '@marketplace/store';
import { dispatchIneligibility } from '../../domain/dispatch/connection';
import type { Eligibility } from '../../domain/dispatch/dispatch-plan';
import type { DeliveryContext } from '../context';

/**
 * For each installation, why it cannot take a delivery now (undefined: it can): it must be one of
 * the tenant's provider connection installations, its connection still there and enabled.
 */
export async function candidateEligibility(
  ctx: DeliveryContext,
  tenant: TenantOwner,
  installationIds: readonly string[],
): Promise<Eligibility> {
  const entries = await Promise.all(
    installationIds.map(async (installationId): Promise<[string, string | undefined]> => {
      const installation = await ctx.store.connectionInstallations.find(tenant, installationId);
      const connection = installation && (await ctx.store.connections.find(tenant, installation.connectionId));
      if (!connection) return [installationId, 'not a provider connection of the tenant'];
      const refusal = dispatchIneligibility(connection);
      return [installationId, refusal ? `"${connection.name}": ${refusal.message}` : undefined];
    }),
  );
  return new Map(entries);
}
