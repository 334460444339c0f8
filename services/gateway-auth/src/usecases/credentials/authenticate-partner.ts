import type { TenantProfile } from '@marketplace/identity';
import { apiKeyLive, apiSecretMatches } from '../../domain/api-key';
import type { GatewayContext } from '../context';
import type { CachedApiKey } from '../ports';
import { findTenantProfile } from './find-tenant-profile';
import { toCachedApiKey } from './to-cached-api-key';

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
    const tenant = await findTenantProfile(ctx, doc.tenantId);
    if (!tenant) return undefined;
    entry = toCachedApiKey(doc, tenant);
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
