import { AppError } from '@marketplace/errors';
import type { RequestState, RouteMiddleware } from '@marketplace/http';
import { unauthenticated } from '@marketplace/identity';
import { parseApiKeyHeader } from '../../domain/api-key';
import { PARTNER_PREFIX } from '../../domain/partner-routes';
import type { GatewayContext } from '../../usecases/context';
import type { RequestLimiter } from '@marketplace/redis';
import type { PartnerLimits } from '../../domain/rate-limits';
import { authenticatePartner, type PartnerCaller } from '../../usecases/credentials/authenticate-partner';
import { admitForInstallation } from '../../usecases/rate-limits/admit-for-installation';
import { admitFromIp } from '../../usecases/rate-limits/admit-from-ip';
import { rateLimitPolicy, rateLimitState } from './rate-limit-fields';

export type PartnerState = RequestState & { partner?: PartnerCaller };

export const PARTNER_OPENAPI_PATH = `${PARTNER_PREFIX}/openapi.json`;

/** 429 `rate_limit.exceeded` in problem+json, with Retry-After (set by the shared HTTP layer). */
export const limited = (retryAfterSeconds: number) =>
  new AppError(
    'rate_limited',
    'rate_limit.exceeded',
    'Too many requests; retry after the number of seconds in Retry-After.',
    { retryAfterSeconds },
  );

/**
 * The check of the `partner` audience, before the request's body is read: the per-IP limit (every
 * request, authenticated or not), then the API key, then the per-installation limit (all endpoints
 * share it). Failures answer 429 or 401 without touching the body or any internal service. Every
 * answer after authentication carries the installation's `RateLimit-Policy` and `RateLimit`; a 429
 * of the per-IP limit carries the `"ip"` policy's instead.
 */
export function partnerGuard(ctx: GatewayContext, limiter: RequestLimiter, limits: PartnerLimits): RouteMiddleware {
  return async (c, next) => {
    const parts = parseApiKeyHeader(c.get('authorization'));
    // The per-IP check and the key's cache lookup go to Redis together (one round trip); the
    // database is consulted for a key only once the IP check has passed.
    const cached = parts && ctx.keyCache.get(parts.keyId);
    cached?.catch(() => undefined); // awaited below, unless the IP check fails first
    const byIp = await admitFromIp(limiter, limits, c.ip);
    if (!byIp.allowed) {
      ctx.metrics.rateLimited('ip');
      c.set('RateLimit-Policy', rateLimitPolicy('ip', limits.perIp, limits.windowSeconds));
      c.set('RateLimit', rateLimitState('ip', byIp));
      throw limited(byIp.retryAfterSeconds);
    }
    const caller = parts && (await authenticatePartner(ctx, parts.keyId, parts.secret, cached));
    if (!caller) throw unauthenticated();
    c.state.log = c.state.log.child({ installationId: caller.installationId, tenantId: caller.tenantId });

    const byInstallation = await admitForInstallation(limiter, limits, caller.installationId);
    c.set('RateLimit-Policy', rateLimitPolicy('installation', limits.perInstallation, limits.windowSeconds));
    c.set('RateLimit', rateLimitState('installation', byInstallation));
    if (!byInstallation.allowed) {
      ctx.metrics.rateLimited('installation');
      throw limited(byInstallation.retryAfterSeconds);
    }
    (c.state as PartnerState).partner = caller;
    await next();
  };
}
