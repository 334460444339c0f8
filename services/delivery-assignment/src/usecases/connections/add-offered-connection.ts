import { notFound } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import type { ConnectionInstallation, ProviderConnection } from '../../domain/dispatch/connection';
import type { DeliveryContext } from '../context';

/**
 * A tenant adds a connection the platform offers: it gets its own installation of it (the same one
 * on a repeat: one per tenant and connection), which its deliveries are assigned to. The tenant's
 * own connections have theirs already; another tenant's is not found.
 */
export async function addOfferedConnection(
  ctx: DeliveryContext,
  tenant: TenantOwner,
  connectionId: string,
): Promise<{ connection: ProviderConnection; installation: ConnectionInstallation; created: boolean }> {
  const connection = await ctx.store.connections.find(tenant, connectionId);
  if (!connection) throw notFound();
  const candidate: ConnectionInstallation = {
    _id: ctx.newId(),
    tenantId: tenant.tenantId,
    connectionId,
    createdAt: ctx.now(),
  };
  const installation = await ctx.store.connectionInstallations.insert(tenant, candidate);
  return { connection, installation, created: installation._id === candidate._id };
}
