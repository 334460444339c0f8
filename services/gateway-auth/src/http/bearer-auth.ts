import type Koa from 'koa';
import type { RequestState, RouteMiddleware } from '@marketplace/http';
import { unauthenticated, verifyBearerToken, type BearerClaims } from '@marketplace/identity';
import type { TokenRevocations } from '../usecases/ports';

/**
 * Admin and tenant routes: `Authorization: Bearer <token>` with the right role, else 401. With
 * `revocations` (the tenant guard: the tokens administrators mint), a token whose id (`jti`) was
 * revoked is 401 too, the same generic answer. A token without an id (minted before tokens had
 * one, or by a login system that sets none) cannot be revoked: it is valid until it expires.
 */
export function requireBearer(
  tokenSecret: Buffer,
  role: BearerClaims['role'],
  revocations?: TokenRevocations,
): RouteMiddleware {
  return async (ctx, next) => {
    const match = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(ctx.get('authorization')); // schemes are case-insensitive (RFC 9110 11.1)
    const claims = match ? verifyBearerToken(tokenSecret, match[1]!) : undefined;
    if (!claims || claims.role !== role) throw unauthenticated();
    if (claims.jti !== undefined && revocations && (await revocations.isRevoked(claims.jti))) throw unauthenticated();
    (ctx.state as RequestState & { bearer?: BearerClaims }).bearer = claims;
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}

/** The tenant of a tenant-API request (after requireBearer(…, 'tenant')). */
export function tenantIdOf(ctx: Koa.ParameterizedContext<RequestState>): string {
  const claims = (ctx.state as RequestState & { bearer?: BearerClaims }).bearer;
  if (claims?.role !== 'tenant') throw unauthenticated();
  return claims.tid;
}

/** The bearer claims of an admin or tenant request (after requireBearer); undefined elsewhere. */
export function bearerOf(ctx: Koa.ParameterizedContext<RequestState>): BearerClaims | undefined {
  return (ctx.state as RequestState & { bearer?: BearerClaims }).bearer;
}

/** The administrator of an admin-API request (after requireBearer(…, 'admin')): their `sub`. */
export function adminSubOf(ctx: Koa.ParameterizedContext<RequestState>): string {
  const claims = bearerOf(ctx);
  if (claims?.role !== 'admin') throw unauthenticated();
  return claims.sub;
}
