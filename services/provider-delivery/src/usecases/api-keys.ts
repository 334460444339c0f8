import type { ApiKeyRotateRequest } from '@marketplace/contracts';
import { notFound } from '@marketplace/errors';
import type { StoredApiKey } from '../adapters/api-keys-repository';
import { expiryAfterRotation, hashKeySecret, mintApiKey, ROTATION_OVERLAP } from '../domain/api-key';
import type { ProviderContext } from './context';

export interface MintedKey {
  keyId: string;
  /** `<keyId>.<secret>`: returned this once, never stored. */
  apiKey: string;
  createdAt: Date;
  expiresAt: Date | null;
}

async function requireAccount(ctx: ProviderContext, accountId: string): Promise<void> {
  if (!(await ctx.store.accounts.find({ accountId }))) throw notFound();
}

async function mint(ctx: ProviderContext, accountId: string): Promise<MintedKey> {
  const { keyId, secret, apiKey } = mintApiKey();
  const createdAt = ctx.now();
  await ctx.store.apiKeys.insert(
    { accountId },
    { keyId, hash: hashKeySecret(secret, ctx.keyHashSecret), createdAt, expiresAt: null, revokedAt: null },
  );
  ctx.logger.info({ accountId, keyId }, 'platform API key minted');
  return { keyId, apiKey, createdAt, expiresAt: null };
}

/** A new key beside the others. */
export async function mintKey(ctx: ProviderContext, accountId: string): Promise<MintedKey> {
  await requireAccount(ctx, accountId);
  return mint(ctx, accountId);
}

/**
 * A new key; every other live key of the account stops working `overlapSeconds` later (or at its
 * own earlier expiry), so a platform can switch without a gap.
 */
export async function rotateKeys(
  ctx: ProviderContext,
  accountId: string,
  input: ApiKeyRotateRequest,
): Promise<MintedKey> {
  await requireAccount(ctx, accountId);
  const overlapSeconds = input.overlapSeconds ?? ROTATION_OVERLAP.defaultSeconds;
  const minted = await mint(ctx, accountId);
  const end = expiryAfterRotation({ expiresAt: null, revokedAt: null }, minted.createdAt, overlapSeconds);
  await ctx.store.apiKeys.expireOthers({ accountId }, minted.keyId, end);
  ctx.keyCache.forgetAccount(accountId);
  ctx.logger.info({ accountId, keyId: minted.keyId, overlapSeconds }, 'platform API keys rotated');
  return minted;
}

export async function listKeys(ctx: ProviderContext, accountId: string): Promise<StoredApiKey[]> {
  await requireAccount(ctx, accountId);
  return ctx.store.apiKeys.listForAccount({ accountId });
}

/** Revokes the key at once; revoking it again is fine. 404 when it is not the account's. */
export async function revokeKey(ctx: ProviderContext, accountId: string, keyId: string): Promise<void> {
  const revoked = await ctx.store.apiKeys.revoke({ accountId }, keyId, ctx.now());
  if (!revoked && !(await ctx.store.apiKeys.find({ accountId }, keyId))) throw notFound();
  ctx.keyCache.forgetAccount(accountId);
  if (revoked) ctx.logger.info({ accountId, keyId }, 'platform API key revoked');
}
