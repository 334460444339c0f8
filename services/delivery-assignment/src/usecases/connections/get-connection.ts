import { notFound } from '@marketplace/errors';
import type { ConnectionReader } from '../../adapters/dispatch/connections-repository';
import type { ConnectionInstallation, ProviderConnection } from '../../domain/dispatch/connection';
import type { DeliveryContext } from '../context';

/** One connection the reader sees, with the tenant's installation of it; another tenant's is the same 404 as none. */
export async function getConnection(
  ctx: DeliveryContext,
  reader: ConnectionReader,
  connectionId: string,
): Promise<{ connection: ProviderConnection; installation: ConnectionInstallation | null }> {
  const connection = await ctx.store.connections.find(reader, connectionId);
  if (!connection) throw notFound();
  const installation =
    'tenantId' in reader
      ? ((await ctx.store.connectionInstallations.findByConnection(reader, connectionId)) ?? null)
      : null;
  return { connection, installation };
}
