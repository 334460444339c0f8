import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Bearer tokens of the administrator and tenant APIs: compact JWS (JWT) with HS256 under a key
 * from configuration, so the platform's own login system can issue them with any JWT library.
 * Claims: `role` ("admin" or "tenant"), `tid` (the tenant, for role tenant), `iat`, `exp`, and
 * optionally `jti`, the token's id (RFC 7519, 4.1.7), by which a minted token can be revoked; a
 * token without one is valid as before (only its expiry ends it).
 * Used by gateway-auth (MARKETPLACE_TOKEN_SECRET: administrators and tenants) and by
 * provider-delivery (PROVIDER_ADMIN_TOKEN_SECRET: its administrators only); each service verifies
 * under its own key, so a token of one is worthless at the other.
 */
export type BearerClaims =
  { role: 'admin'; sub: string; jti?: string } | { role: 'tenant'; sub: string; tid: string; jti?: string };

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function mac(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

export function signBearerToken(key: Buffer, claims: BearerClaims, expiresAt: Date, now = new Date()): string {
  const payload = Buffer.from(
    JSON.stringify({ ...claims, iat: Math.floor(now.getTime() / 1000), exp: Math.floor(expiresAt.getTime() / 1000) }),
  ).toString('base64url');
  return `${HEADER}.${payload}.${mac(key, `${HEADER}.${payload}`)}`;
}

/** The claims of a valid, unexpired token; undefined otherwise (never says why). */
export function verifyBearerToken(key: Buffer, token: string, now = new Date()): BearerClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = Buffer.from(mac(key, `${header}.${payload}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let head: { alg?: unknown };
  let body: { role?: unknown; sub?: unknown; tid?: unknown; exp?: unknown; jti?: unknown };
  try {
    head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as typeof head;
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof body;
  } catch {
    return undefined;
  }
  if (head.alg !== 'HS256') return undefined;
  if (typeof body.exp !== 'number' || body.exp * 1000 <= now.getTime()) return undefined;
  if (typeof body.sub !== 'string') return undefined;
  // A token id is a string or absent: anything else could not be looked up in a revocation list.
  if (body.jti !== undefined && typeof body.jti !== 'string') return undefined;
  const id = typeof body.jti === 'string' ? { jti: body.jti } : {};
  if (body.role === 'admin') return { role: 'admin', sub: body.sub, ...id };
  if (body.role === 'tenant' && typeof body.tid === 'string')
    return { role: 'tenant', sub: body.sub, tid: body.tid, ...id };
  return undefined;
}
