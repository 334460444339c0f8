import type Koa from 'koa';
import { AppError } from '@marketplace/errors';
import type { RequestState } from '@marketplace/http';
import { unauthenticated, verifyBearerToken } from '@marketplace/identity';
import { parseBearerApiKey } from '../domain/api-key';
import { parseBearerCourierToken, type Driver } from '../domain/driver';
import type { PlatformAccount } from '../domain/platform-account';
import { authenticatePlatform } from '../usecases/authenticate';
import { authenticateCourier } from '../usecases/courier';
import type { ProviderContext } from '../usecases/context';

export const ADMIN_PREFIX = '/admin/v1/';
export const PLATFORM_PREFIX = '/v1/';
export const COURIER_PREFIX = '/courier/v1/';
/** Served without credentials: the public contract document (it holds nothing of any account). */
export const PUBLIC_PLATFORM_PATHS = new Set(['/v1/openapi.json', '/courier/v1/openapi.json']);

type PlatformState = RequestState & { platformAccount?: PlatformAccount; courier?: Driver };

const rateLimited = (retryAfterSeconds: number) =>
  new AppError(
    'rate_limited',
    'request.rate_limited',
    'Too many requests; retry after the number of seconds in Retry-After.',
    { retryAfterSeconds },
  );

/**
 * Runs before any body is read. `/admin/v1/*`: `Authorization: Bearer <JWT>`, HS256 under
 * PROVIDER_ADMIN_TOKEN_SECRET, role admin. `/v1/*` (but the contract document): `Authorization:
 * Bearer <keyId>.<secret>`, a live key of a platform account, whose account goes on the request
 * state. `/courier/v1/*` (but its document): `Authorization: Bearer <courier token>` of a
 * registered driver, who goes on the request state. Anything else on those paths is 401
 * `auth.unauthenticated` with one generic message, whatever was wrong (missing, malformed,
 * unknown, wrong secret, revoked, expired, another signing key, another role). Answers on all
 * three carry `Cache-Control: no-store`. An authenticated `/v1` request then counts against its
 * account's rate limit (usecases/rate-limits.ts): over it, 429 `request.rate_limited` with
 * Retry-After; counted answers carry `RateLimit-Limit` and `RateLimit-Remaining`.
 */
export function guardRoutes(ctx: ProviderContext, adminTokenSecret: Buffer): Koa.Middleware<RequestState> {
  return async (c, next) => {
    if (c.path.startsWith(ADMIN_PREFIX)) {
      c.set('Cache-Control', 'no-store');
      const match = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(c.get('authorization'));
      const claims = match ? verifyBearerToken(adminTokenSecret, match[1]!, ctx.now()) : undefined;
      if (claims?.role !== 'admin') throw unauthenticated();
    } else if (c.path.startsWith(PLATFORM_PREFIX) && !PUBLIC_PLATFORM_PATHS.has(c.path)) {
      c.set('Cache-Control', 'no-store');
      const presented = parseBearerApiKey(c.get('authorization') || undefined);
      const account = presented && (await authenticatePlatform(ctx, presented));
      if (!account) throw unauthenticated();
      (c.state as PlatformState).platformAccount = account;
      const admission = await ctx.rateLimits.admit(account);
      if (admission.counted) {
        c.set('RateLimit-Limit', String(admission.limit));
        c.set('RateLimit-Remaining', String(admission.remaining));
      }
      if (!admission.allowed) throw rateLimited(admission.retryAfterSeconds);
    } else if (c.path.startsWith(COURIER_PREFIX) && !PUBLIC_PLATFORM_PATHS.has(c.path)) {
      c.set('Cache-Control', 'no-store');
      const presented = parseBearerCourierToken(c.get('authorization') || undefined);
      const driver = presented && (await authenticateCourier(ctx, presented));
      if (!driver) throw unauthenticated();
      (c.state as PlatformState).courier = driver;
    }
    await next();
  };
}

/** The driver of a `/courier/v1` request (after guardRoutes). */
export function courierDriverOf(c: Koa.ParameterizedContext<RequestState>): Driver {
  const driver = (c.state as PlatformState).courier;
  if (!driver) throw unauthenticated();
  return driver;
}

/** The platform account of a `/v1` request (after guardRoutes). */
export function platformAccountOf(c: Koa.ParameterizedContext<RequestState>): PlatformAccount {
  const account = (c.state as PlatformState).platformAccount;
  if (!account) throw unauthenticated();
  return account;
}
