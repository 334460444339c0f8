import { isLiveKey, keySecretMatches, type ApiKeyParts } from '../../domain/api-key';
import type { PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';

/**
 * The account of a presented key, or undefined: unknown key id, wrong secret (compared in constant
 * time), revoked or expired key, or an account that no longer exists. The caller answers every
 * case with the same 401.
 */
export async function authenticatePlatform(
  ctx: ProviderContext,
  presented: ApiKeyParts,
): Promise<PlatformAccount | undefined> {
  const now = ctx.now();
  let found = ctx.keyCache.get(presented.keyId, now.getTime());
  if (!found) {
    const key = await ctx.store.apiKeys.findByIdAcrossAccounts(presented.keyId);
    const account = key && (await ctx.store.accounts.find({ accountId: key.accountId }));
    if (!key || !account) return undefined;
    found = { key, account };
    ctx.keyCache.set(key, account, now.getTime());
  }
  if (!keySecretMatches(presented.secret, found.key.hash, ctx.keyHashSecret)) return undefined;
  return isLiveKey(found.key, now) ? found.account : undefined;
}
