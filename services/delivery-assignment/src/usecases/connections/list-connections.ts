import type { ConnectionReader } from '../../adapters/dispatch/connections-repository';
import type { ConnectionInstallation, ProviderConnection } from '../../domain/dispatch/connection';
import type { DeliveryContext } from '../context';

/**
 * The connections the reader sees, oldest first: a tenant its own and the offered ones (each with
 * the tenant's installation of it, if it has one), the administrator the offered ones.
 */
export async function listConnections(
  ctx: DeliveryContext,
  reader: ConnectionReader,
): Promise<Array<{ connection: ProviderConnection; installation: ConnectionInstallation | null }>> {
  const connections = await ctx.store.connections.list(reader);
  const installations = 'tenantId' in reader ? await ctx.store.connectionInstallations.list(reader) : [];
  const byConnection = new Map(installations.map((i) => [i.connectionId, i]));
  return connections.map((connection) => ({ connection, installation: byConnection.get(connection._id) ?? null }));
}
