import { notFound } from '@marketplace/errors';
import type { ProviderContext } from '../context';

/** Revokes the key at once; revoking it again is fine. 404 when it is not the account's. */
export async function revokeKey(ctx: ProviderContext, accountId: string, keyId: string): Promise<void> {
  const revoked = await ctx.store.apiKeys.revoke({ accountId }, keyId, ctx.now());
  if (!revoked && !(await ctx.store.apiKeys.find({ accountId }, keyId))) throw notFound();
  ctx.keyCache.forgetAccount(accountId);
  if (revoked) ctx.logger.info({ accountId, keyId }, 'platform API key revoked');
}
