import type { InstallationOwner } from '@marketplace/store';
import { apiKeyLive, hashApiSecret, mintApiKey, previousKeysEnd } from '../../domain/api-key';
import type { Installation } from '../../domain/entities';
import { ownerOf } from '../../domain/installations';
import type { GatewayContext } from '../context';
import { findTenantProfile } from './find-tenant-profile';
import { revokeApiKeys } from './revoke-api-keys';
import { toCachedApiKey } from './to-cached-api-key';

/**
 * Mints a new API key for the installation. Every other key it had is revoked at once, or, with an
 * overlap, keeps working until `overlapSeconds` from now (or its own earlier expiry): then
 * `previousKeysEnd` says when they stop.
 */
export async function issueApiKey(
  ctx: GatewayContext,
  installation: Installation,
  scopes: string[],
  overlapSeconds = 0,
): Promise<{ apiKey: string; keyId: string; previousKeysEnd: Date | null }> {
  const key = mintApiKey();
  const owner = ownerOf(installation);
  const now = ctx.now();
  await ctx.store.apiKeys.insert(owner, {
    _id: key.keyId,
    appId: installation.appId,
    secretHash: hashApiSecret(key.secret, ctx.apiKeyHashSecret),
    scopes,
    status: 'active',
    createdAt: now,
    revokedAt: null,
    expiresAt: null,
  });
  const end = previousKeysEnd(now, overlapSeconds);
  if (!end) {
    await revokeApiKeys(ctx, owner, key.keyId);
    return { apiKey: key.apiKey, keyId: key.keyId, previousKeysEnd: null };
  }
  return { apiKey: key.apiKey, keyId: key.keyId, previousKeysEnd: await expireApiKeys(ctx, owner, key.keyId, end) };
}

/**
 * The installation's keys but `keep` stop at `end` (or their own earlier expiry): in MongoDB first,
 * then in every gateway's cache (the entries rewritten with their expiry). Returns the latest end
 * of those still live, or null when none is.
 */
async function expireApiKeys(
  ctx: GatewayContext,
  owner: InstallationOwner,
  keep: string,
  end: Date,
): Promise<Date | null> {
  const ids = await ctx.store.apiKeys.listActiveIds(owner, keep);
  if (ids.length === 0) return null;
  await ctx.store.apiKeys.expire(owner, ids, end);
  const previous = (await ctx.store.apiKeys.listActive(owner)).filter((k) => k._id !== keep);
  const tenant = await findTenantProfile(ctx, owner.tenantId);
  if (!tenant) {
    // A key outliving its tenant authenticates nothing anyway: revoke it.
    await revokeApiKeys(ctx, owner, keep);
    return null;
  }
  await ctx.keyCache.expire(previous.map((doc) => ({ keyId: doc._id, entry: toCachedApiKey(doc, tenant) })));
  const now = ctx.now();
  const ends = previous.filter((k) => apiKeyLive(k, now)).map((k) => k.expiresAt?.getTime() ?? end.getTime());
  return ends.length > 0 ? new Date(Math.max(...ends)) : null;
}
