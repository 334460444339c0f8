import { apiSecretMatches, hashApiSecret, mintApiKey, mintSigningSecret } from '../domain/api-key';
import type { TenantProfile } from '@marketplace/identity';
import type { CachedApiKey } from '../adapters/api-key-cache';
import type { InstallationOwner } from '@marketplace/store';
import type { GatewayContext } from './context';
import type { Installation } from './entities';
import { ownerOf } from './installations';

/** Mints a new API key for the installation and revokes every other key it had. */
export async function issueApiKey(
  ctx: GatewayContext,
  installation: Installation,
  scopes: string[],
): Promise<{ apiKey: string; keyId: string }> {
  const key = mintApiKey();
  const owner = ownerOf(installation);
  await ctx.store.apiKeys.insert(owner, {
    _id: key.keyId,
    appId: installation.appId,
    secretHash: hashApiSecret(key.secret, ctx.apiKeyHashSecret),
    scopes,
    status: 'active',
    createdAt: ctx.now(),
    revokedAt: null,
  });
  await revokeApiKeys(ctx, owner, key.keyId);
  return { apiKey: key.apiKey, keyId: key.keyId };
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
    const doc = await ctx.store.apiKeys.findByIdAcrossTenants(keyId);
    if (!doc || doc.status !== 'active') return undefined;
    const tenant = await tenantProfile(ctx, doc.tenantId);
    if (!tenant) return undefined;
    entry = {
      secretHash: doc.secretHash,
      tenantId: doc.tenantId,
      installationId: doc.installationId,
      appId: doc.appId,
      scopes: doc.scopes,
      tenant,
    };
    await ctx.keyCache.fill(keyId, entry);
  }
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
