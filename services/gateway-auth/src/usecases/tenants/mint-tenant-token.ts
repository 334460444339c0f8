import { randomUUID } from 'node:crypto';
import { signBearerToken } from '@marketplace/identity';
import { tenantTokenLifetime, type TenantTokenLifetimeRequest } from '../../domain/tenant-token';
import type { GatewayContext } from '../context';
import { getTenant } from './get-tenant';

export interface TenantToken {
  /** The token id (its `jti`), by which it is listed and revoked. */
  id: string;
  token: string;
  expiresAt: Date;
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
