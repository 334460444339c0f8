import type { ApiKeyRotateRequest } from '@marketplace/contracts';
import { expiryAfterRotation, ROTATION_OVERLAP } from '../../domain/api-key';
import { getAccount } from '../accounts/get-account';
import type { ProviderContext } from '../context';
import { issueApiKey, type MintedKey } from './issue-api-key';

/**
 * A new key; every other live key of the account stops working `overlapSeconds` later (or at its
 * own earlier expiry), so a platform can switch without a gap.
 */
export async function rotateKeys(
  ctx: ProviderContext,
  accountId: string,
  input: ApiKeyRotateRequest,
): Promise<MintedKey> {
  await getAccount(ctx, accountId);
  const overlapSeconds = input.overlapSeconds ?? ROTATION_OVERLAP.defaultSeconds;
  const minted = await issueApiKey(ctx, accountId);
  const end = expiryAfterRotation({ expiresAt: null, revokedAt: null }, minted.createdAt, overlapSeconds);
  await ctx.store.apiKeys.expireOthers({ accountId }, minted.keyId, end);
  ctx.keyCache.forgetAccount(accountId);
  ctx.logger.info({ accountId, keyId: minted.keyId, overlapSeconds }, 'platform API keys rotated');
  return minted;
}
