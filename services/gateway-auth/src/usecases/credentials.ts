import {
  apiKeyLive,
  apiSecretMatches,
  hashApiSecret,
  mintApiKey,
  mintSigningSecret,
  previousKeysEnd,
} from '../domain/api-key';
import type { TenantProfile } from '@marketplace/identity';
import type { CachedApiKey } from '../adapters/api-key-cache';
import type { InstallationOwner } from '@marketplace/store';
import type { GatewayContext } from './context';
import type { Installation } from './entities';
import { ownerOf } from './installations';

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
  const tenant = await tenantProfile(ctx, owner.tenantId);
  if (!tenant) {
    // A key outliving its tenant authenticates nothing anyway: revoke it.
    await revokeApiKeys(ctx, owner, keep);
    return null;
  }
  await ctx.keyCache.expire(previous.map((doc) => ({ keyId: doc._id, entry: cacheEntryOf(doc, tenant) })));
  const now = ctx.now();
  const ends = previous.filter((k) => apiKeyLive(k, now)).map((k) => k.expiresAt?.getTime() ?? end.getTime());
  return ends.length > 0 ? new Date(Math.max(...ends)) : null;
}

/** A stored key as the key cache holds it (with its tenant's profile, which owners need). */
function cacheEntryOf(
  doc: Omit<CachedApiKey, 'tenant' | 'expiresAt'> & { expiresAt?: Date | null },
  tenant: TenantProfile,
): CachedApiKey {
  return {
    secretHash: doc.secretHash,
    tenantId: doc.tenantId,
    installationId: doc.installationId,
    appId: doc.appId,
    scopes: doc.scopes,
    tenant,
    expiresAt: doc.expiresAt?.getTime() ?? null,
  };
}

/** Revokes the installation's keys (all, or all but one): in every gateway's cache first, then in MongoDB. */
export async function revokeApiKeys(ctx: GatewayContext, owner: InstallationOwner, keep?: string): Promise<void> {
  const ids = await ctx.store.apiKeys.listActiveIds(owner, keep);
  if (ids.length === 0) return;
  // Tombstones first: the key stops working now even if the database write is slow.
  await ctx.keyCache.revoke(ids);
  await ctx.store.apiKeys.revoke(owner, ids, ctx.now());
}

export function newWebhookSecret(ctx: GatewayContext, installationId: string): { secret: string; sealed: string } {
  const secret = mintSigningSecret();
  return { secret, sealed: ctx.box.seal(secret, webhookSecretContext(installationId)) };
}

export const webhookSecretContext = (installationId: string) => `installation:${installationId}:webhook-secret`;

/** A key read from MongoDB is cached only if the reads took less than this (see ApiKeyCache). */
const FILL_WITHIN_MS = 1_000;

export interface PartnerCaller {
  tenantId: string;
  tenant: TenantProfile;
  installationId: string;
  appId: string;
  scopes: string[];
}

/**
 * Resolves `KEY_ID.SECRET` to the installation it belongs to, or undefined for anything unknown,
 * revoked or wrong. Keys are cached in Redis; the secret is still compared (constant time) against
 * its keyed hash on every request.
 */
export async function authenticatePartner(
  ctx: GatewayContext,
  keyId: string,
  secret: string,
  /** The cache lookup, when the caller already started it (side by side with the per-IP limit). */
  cached: Promise<CachedApiKey | 'revoked' | undefined> = ctx.keyCache.get(keyId),
): Promise<PartnerCaller | undefined> {
  let entry = await cached;
  if (entry === 'revoked') return undefined;
  if (!entry) {
    const started = performance.now();
    const doc = await ctx.store.apiKeys.findByIdAcrossTenants(keyId);
    if (!doc || !apiKeyLive(doc, ctx.now())) return undefined;
    const tenant = await tenantProfile(ctx, doc.tenantId);
    if (!tenant) return undefined;
    entry = cacheEntryOf(doc, tenant);
    // What was read more than a second ago may predate a rotation's new expiry, whose cache entry
    // lives at least a second: such a fill could outlast it, so it is left out (this request still
    // answers from what it read).
    if (performance.now() - started < FILL_WITHIN_MS) await ctx.keyCache.fill(keyId, entry);
  }
  // The expiry of a previous key after a rotation with an overlap, to the millisecond.
  if (entry.expiresAt != null && entry.expiresAt <= ctx.now().getTime()) return undefined;
  if (!apiSecretMatches(secret, entry.secretHash, ctx.apiKeyHashSecret)) return undefined;
  return {
    tenantId: entry.tenantId,
    tenant: entry.tenant,
    installationId: entry.installationId,
    appId: entry.appId,
    scopes: entry.scopes,
  };
}

/** The tenant's currency and default language, passed to owner services in the signed identity. */
export async function tenantProfile(ctx: GatewayContext, tenantId: string): Promise<TenantProfile | undefined> {
  return ctx.store.tenants.profileOf({ tenantId });
}
