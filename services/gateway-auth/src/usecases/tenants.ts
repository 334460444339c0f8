import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import { signBearerToken } from '@marketplace/identity';
import type { TenantInput } from '@marketplace/contracts';
import { tenantTokenLifetime, type TenantTokenLifetimeRequest } from '../domain/tenant-token';
import type { GatewayContext } from './context';
import type { Tenant, TenantTokenRecord } from './entities';

export interface TenantToken {
  /** The token id (its `jti`), by which it is listed and revoked. */
  id: string;
  token: string;
  expiresAt: Date;
}

/** Most tokens the administrators' list of a tenant's tokens shows (newest first). */
export const TENANT_TOKEN_LIST_LIMIT = 200;

export async function createTenant(ctx: GatewayContext, input: TenantInput): Promise<Tenant> {
  const doc: Tenant = { _id: randomUUID(), ...input, createdAt: ctx.now() };
  try {
    await ctx.store.tenants.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error))
      throw conflict('marketplace.tenant.slug_taken', 'A tenant with this slug already exists.');
    throw error;
  }
  return doc;
}

export async function listTenants(ctx: GatewayContext, slug?: string): Promise<Tenant[]> {
  if (slug) {
    const tenant = await ctx.store.tenants.findBySlug(slug);
    return tenant ? [tenant] : [];
  }
  return ctx.store.tenants.listAllAcrossTenants(1000);
}

export async function getTenant(ctx: GatewayContext, tenantId: string): Promise<Tenant> {
  const doc = await ctx.store.tenants.findTenant({ tenantId });
  if (!doc) throw notFound();
  return doc;
}

/**
 * A bearer token for the tenant API, bound to one tenant, with an id (`jti`). Its record (id,
 * tenant, issuer, expiry; never the token) is stored first, so that every token that exists can be
 * listed and revoked. Lifetime: see tenantTokenLifetime (30 days at most unless asked for).
 */
export async function mintTenantToken(
  ctx: GatewayContext,
  tenantId: string,
  request: TenantTokenLifetimeRequest,
  issuedBy: string,
): Promise<TenantToken> {
  const tenant = await getTenant(ctx, tenantId);
  const lifetime = tenantTokenLifetime(request);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + lifetime * 1000);
  const id = randomUUID();
  await ctx.store.tenantTokens.insert(
    { tenantId: tenant._id },
    { _id: id, issuedBy, createdAt: now, expiresAt, revokedAt: null, revokedBy: null },
  );
  const token = signBearerToken(
    ctx.tokenSecret,
    { role: 'tenant', sub: `tenant:${tenant._id}`, tid: tenant._id, jti: id },
    expiresAt,
    now,
  );
  ctx.logger.info({ tenantId: tenant._id, tokenId: id, expiresAt, issuedBy }, 'tenant token minted');
  return { id, token, expiresAt };
}

/** The tenant's minted tokens, newest first (ids and dates; the tokens themselves are never stored). */
export async function listTenantTokens(ctx: GatewayContext, tenantId: string): Promise<TenantTokenRecord[]> {
  const tenant = await getTenant(ctx, tenantId);
  return ctx.store.tenantTokens.listForTenant({ tenantId: tenant._id }, TENANT_TOKEN_LIST_LIMIT);
}

/**
 * Revokes one of the tenant's tokens: refused (401) on this instance at once, on every other
 * within the revocation list's refresh (see RevokedTokenIds). Revoking it again changes nothing.
 * 404 for an unknown tenant, or a token that is not this tenant's.
 */
export async function revokeTenantToken(
  ctx: GatewayContext,
  tenantId: string,
  tokenId: string,
  revokedBy: string,
): Promise<TenantTokenRecord> {
  const owner = { tenantId: (await getTenant(ctx, tenantId))._id };
  const revoked = await ctx.store.tenantTokens.revoke(owner, tokenId, ctx.now(), revokedBy);
  const record = await ctx.store.tenantTokens.find(owner, tokenId);
  if (!record) throw notFound();
  if (record.revokedAt !== null) ctx.revokedTokens.add(record._id);
  if (revoked) ctx.logger.info({ tenantId: owner.tenantId, tokenId, revokedBy }, 'tenant token revoked');
  return record;
}
