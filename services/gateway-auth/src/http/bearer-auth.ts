import type Koa from 'koa';
import type { RequestState } from '@marketplace/http';
import { unauthenticated, verifyBearerToken, type BearerClaims } from '@marketplace/identity';

/** Admin and tenant routes: `Authorization: Bearer <token>` with the right role, else 401. */
export function requireBearer(tokenSecret: Buffer, role: BearerClaims['role']): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    const match = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(ctx.get('authorization')); // schemes are case-insensitive (RFC 9110 11.1)
    const claims = match ? verifyBearerToken(tokenSecret, match[1]!) : undefined;
    if (!claims || claims.role !== role) throw unauthenticated();
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
