import type { InstallationOwner } from '@marketplace/store';
import type { GatewayContext } from '../context';

/** Revokes the installation's keys (all, or all but one): in every gateway's cache first, then in MongoDB. */
export async function revokeApiKeys(ctx: GatewayContext, owner: InstallationOwner, keep?: string): Promise<void> {
  const ids = await ctx.store.apiKeys.listActiveIds(owner, keep);
  if (ids.length === 0) return;
  // Tombstones first: the key stops working now even if the database write is slow.
  await ctx.keyCache.revoke(ids);
  await ctx.store.apiKeys.revoke(owner, ids, ctx.now());
}
