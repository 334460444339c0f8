import { busy, notFound } from '@marketplace/errors';
import type { ProviderConnectionCredentials } from '@marketplace/contracts';
import type { ConnectionReader } from '../../adapters/dispatch/connections-repository';
import type { ProviderConnection } from '../../domain/dispatch/connection';
import type { DeliveryContext } from '../context';

/**
 * The connection's owner replaces its API key and signing secret at once (a rotation at the
 * provider issues both): sealed at once, used from the next call and the next callback on. The
 * capabilities stay: the provider is the same, its credentials new.
 */
export async function replaceConnectionCredentials(
  ctx: DeliveryContext,
  owner: ConnectionReader,
  connectionId: string,
  credentials: ProviderConnectionCredentials,
): Promise<ProviderConnection> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const connection = await ctx.store.connections.find(owner, connectionId);
    const mine =
      connection && ('tenantId' in owner ? connection.tenantId === owner.tenantId : connection.tenantId === null);
    if (!connection || !mine) throw notFound();
    const next: ProviderConnection = {
      ...connection,
      ...ctx.dispatch.secrets.sealCredentials(connectionId, credentials),
      updatedAt: ctx.now(),
      version: connection.version + 1,
    };
    if (await ctx.store.connections.replaceIfUnchanged(owner, next)) {
      await ctx.dispatch.events.connection(next._id);
      return next;
    }
  }
  throw busy('The connection is being changed by other requests; try again.');
}
