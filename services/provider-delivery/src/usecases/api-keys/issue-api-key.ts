import { hashKeySecret, mintApiKey } from '../../domain/api-key';
import type { ProviderContext } from '../context';

export interface MintedKey {
  keyId: string;
  /** `<keyId>.<secret>`: returned this once, never stored. */
  apiKey: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/** The step of minting and rotating: a new key of the account, stored as its hash (the account is checked by the caller). */
export async function issueApiKey(ctx: ProviderContext, accountId: string): Promise<MintedKey> {
  const { keyId, secret, apiKey } = mintApiKey();
  const createdAt = ctx.now();
  await ctx.store.apiKeys.insert(
    { accountId },
    { keyId, hash: hashKeySecret(secret, ctx.keyHashSecret), createdAt, expiresAt: null, revokedAt: null },
  );
  ctx.logger.info({ accountId, keyId }, 'platform API key minted');
  return { keyId, apiKey, createdAt, expiresAt: null };
}
