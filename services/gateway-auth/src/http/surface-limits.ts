import type { RequestState, RouteMiddleware } from '@marketplace/http';
import { unauthenticated, type BearerClaims } from '@marketplace/identity';
import type { GatewayContext } from '../usecases/context';
import type { RequestLimiter } from '@marketplace/redis';
import type { BearerSurface, LimitedSurface, SurfaceLimits } from '../domain/rate-limits';
import { admitSurfaceCaller } from '../usecases/rate-limits/admit-surface-caller';
import { admitSurfaceFromIp } from '../usecases/rate-limits/admit-surface-from-ip';
import { limited } from './partner/edge';
import { rateLimitPolicy, rateLimitState } from './partner/rate-limit-fields';

/*
 * The rate limits of the tenant API and the administrator API, as separate steps of their guards
 * (service.ts): `ipLimitFor` first, counting every request before its token is checked, then
 * `requireBearer`, then `perCallerLimit`, counting the caller the token names. Over either, 429
 * `rate_limit.exceeded` in problem+json with Retry-After, as on the Partner API. While Redis does
 * not answer the limiter throws 503 (fail closed, as the Partner API does).
 */

/** Counts every request of a surface (a bearer-token API, the public pages) against its client IP. */
export function ipLimitFor(
  surface: LimitedSurface,
  ctx: Pick<GatewayContext, 'metrics'>,
  limiter: RequestLimiter,
  limits: Pick<SurfaceLimits, 'perIp' | 'windowSeconds'>,
): RouteMiddleware {
  return async (c, next) => {
    const byIp = await admitSurfaceFromIp(limiter, surface, limits, c.ip);
    if (!byIp.allowed) {
      ctx.metrics.rateLimited(`${surface}_ip`);
      throw limited(byIp.retryAfterSeconds);
    }
    await next();
  };
}

/** Who a verified token names, for its API's per-caller limit: the tenant (`tid`) or the administrator (`sub`). */
function callerOf(surface: BearerSurface, claims: BearerClaims | undefined): string | undefined {
  if (claims?.role !== surface) return undefined;
  return claims.role === 'tenant' ? claims.tid : claims.sub;
}

/**
 * Counts an authenticated request against its caller: after `requireBearer(…, surface)`, which put
 * the verified claims on the request state (without them: 401, never an uncounted request).
 * Counted answers carry `RateLimit-Policy` and `RateLimit` (policy `"tenant"` or `"admin"`, as on the
 * Partner API: partner/rate-limit-fields.ts).
 */
export function perCallerLimit(
  surface: BearerSurface,
  ctx: Pick<GatewayContext, 'metrics'>,
  limiter: RequestLimiter,
  limits: SurfaceLimits,
): RouteMiddleware {
  return async (c, next) => {
    const caller = callerOf(surface, (c.state as RequestState & { bearer?: BearerClaims }).bearer);
    if (!caller) throw unauthenticated();
    const decision = await admitSurfaceCaller(limiter, surface, limits, caller);
    c.set('RateLimit-Policy', rateLimitPolicy(surface, limits.perCaller, limits.windowSeconds));
    c.set('RateLimit', rateLimitState(surface, decision));
    if (!decision.allowed) {
      ctx.metrics.rateLimited(surface);
      throw limited(decision.retryAfterSeconds);
    }
    await next();
  };
}
