import { AppError } from '@marketplace/errors';
import type { RequestState, RouteMiddleware } from '@marketplace/http';
import { unauthenticated, verifyBearerToken } from '@marketplace/identity';
import type { RequestLimiter } from '@marketplace/redis';

/**
 * The check of the `admin` audience (the route table runs it first on every administrator route):
 * `Authorization: Bearer <JWT>`, HS256 under PROVIDER_ADMIN_TOKEN_SECRET (the key of
 * provider-delivery's administrator API: the same operators), role admin; anything else is 401
 * `auth.unauthenticated` with one generic message, whatever was wrong (missing, malformed,
 * expired, another key, another role). The answers carry `Cache-Control: no-store`: they hold
 * personal data of the events (a driver's name and phone).
 */
export function adminGuard(adminTokenSecret: Buffer, now: () => Date): RouteMiddleware {
  return async (c, next) => {
    c.set('Cache-Control', 'no-store');
    const match = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(c.get('authorization'));
    const claims = match ? verifyBearerToken(adminTokenSecret, match[1]!, now()) : undefined;
    if (claims?.role !== 'admin') throw unauthenticated();
    (c.state as RequestState & { admin?: string }).admin = claims.sub;
    await next();
  };
}

/** The administrator API's limits, per minute: per client IP (before the token) and per administrator (`sub`). */
export interface AdminLimits {
  perIp: number;
  perAdmin: number;
}

/** The window of the administrator API's limits: their numbers are per minute. */
export const ADMIN_LIMIT_WINDOW_SECONDS = 60;

/** The limit that refused a request (the metric's `scope`). */
export type AdminLimitScope = 'admin_ip' | 'admin';

/** 429 `rate_limit.exceeded` in problem+json, with Retry-After (set by the shared HTTP layer), as at the gateway. */
const limited = (retryAfterSeconds: number) =>
  new AppError(
    'rate_limited',
    'rate_limit.exceeded',
    'Too many requests; retry after the number of seconds in Retry-After.',
    { retryAfterSeconds },
  );

/**
 * The first step of the `admin` guard: every request counts against its client IP, before the
 * token is looked at (so refused tokens count too). While Redis does not answer, the limiter
 * throws 503 `service.unavailable` (fail closed).
 */
export function adminIpLimit(
  limiter: RequestLimiter,
  limits: AdminLimits,
  onRejected: (scope: AdminLimitScope) => void = () => undefined,
): RouteMiddleware {
  return async (c, next) => {
    const decision = await limiter.take(`admin-ip:${c.ip}`, limits.perIp, ADMIN_LIMIT_WINDOW_SECONDS);
    if (!decision.allowed) {
      onRejected('admin_ip');
      throw limited(decision.retryAfterSeconds);
    }
    await next();
  };
}

/**
 * The last step of the `admin` guard, after `adminGuard` put the administrator on the request
 * state: counts the request against its administrator (the token's `sub`); counted answers carry
 * `RateLimit-Limit` and `RateLimit-Remaining`.
 */
export function perAdminLimit(
  limiter: RequestLimiter,
  limits: AdminLimits,
  onRejected: (scope: AdminLimitScope) => void = () => undefined,
): RouteMiddleware {
  return async (c, next) => {
    const admin = (c.state as RequestState & { admin?: string }).admin;
    if (admin === undefined) throw unauthenticated();
    const decision = await limiter.take(`admin:${admin}`, limits.perAdmin, ADMIN_LIMIT_WINDOW_SECONDS);
    c.set('RateLimit-Limit', String(limits.perAdmin));
    c.set('RateLimit-Remaining', String(decision.remaining));
    if (!decision.allowed) {
      onRejected('admin');
      throw limited(decision.retryAfterSeconds);
    }
    await next();
  };
}
