import type Koa from 'koa';
import { AppError } from '@marketplace/errors';
import type { RequestState, RouteMiddleware } from '@marketplace/http';
import { unauthenticated, verifyBearerToken } from '@marketplace/identity';
import { parseBearerApiKey } from '../domain/api-key';
import { parseBearerCourierToken, type Driver } from '../domain/driver';
import type { PlatformAccount } from '../domain/platform-account';
import type { Admission, Surface } from '../domain/rate-limit';
import { authenticatePlatform } from '../usecases/accounts/authenticate-platform';
import type { ProviderContext } from '../usecases/context';
import type { RequestLimits } from '../usecases/ports';
import { authenticateCourier } from '../usecases/courier/authenticate-courier';
import { SIMULATOR_PASS_HEADER } from './rate-limits';
import { answerTooManyTrackingRequests } from './tracking-routes';

type PlatformState = RequestState & {
  platformAccount?: PlatformAccount;
  courier?: Driver;
  admin?: string;
  /** A call of this process's courier simulator: no limit counts it. */
  unlimited?: boolean;
};

const rateLimited = (retryAfterSeconds: number) =>
  new AppError(
    'rate_limited',
    'request.rate_limited',
    'Too many requests; retry after the number of seconds in Retry-After.',
    { retryAfterSeconds },
  );

/**
 * The checks of this service's audiences, each run by the route table as the first middleware of
 * the routes that declare it, before any body is read. Any failure of credentials is 401
 * `auth.unauthenticated` with one generic message, whatever was wrong (missing, malformed, unknown,
 * wrong secret, revoked, expired, another signing key, another role). Answers of the credentialed
 * audiences carry `Cache-Control: no-store`.
 *
 * Every audience first counts the request against its client IP (http/rate-limits.ts), before
 * any credential is looked at, then checks the credentials, then counts the caller:
 *
 * - `admin`: `Authorization: Bearer <JWT>`, HS256 under PROVIDER_ADMIN_TOKEN_SECRET, role admin;
 *   counted per administrator (`sub`).
 * - `platform`: `Authorization: Bearer <keyId>.<secret>`, a live key of a platform account, whose
 *   account goes on the request state; counted per account (its own `rateLimit`).
 * - `courier`: `Authorization: Bearer <courier token>` of a registered driver, who goes on the
 *   request state; counted per driver.
 * - `public` (no credentials: the tracking pages, the two documents): counted per tracking link
 *   (its token's hash) on the tracking routes.
 *
 * Over a limit: 429 `request.rate_limited` in the envelope with Retry-After (the tracking page: a
 * page of its own, tracking-routes.ts). Answers counted per caller carry `RateLimit-Limit` and
 * `RateLimit-Remaining`. The courier simulator's calls (its pass) are not counted.
 */
export function audienceGuards(ctx: ProviderContext, adminTokenSecret: Buffer) {
  const limits = ctx.rateLimits;
  const counted = rateLimitSteps(limits);
  const credentials = credentialSteps(ctx, adminTokenSecret);
  const admin = chain(
    noStore,
    counted.perIp('admin'),
    credentials.adminToken,
    counted.perCaller((c) => limits.forAdmin((c.state as PlatformState).admin!)),
  );
  const platform = chain(
    noStore,
    counted.perIp('platform'),
    credentials.platformKey,
    counted.perCaller((c) => limits.admit((c.state as PlatformState).platformAccount!)),
  );
  const courier = chain(
    noStore,
    counted.perIp('courier'),
    credentials.courierToken,
    counted.perCaller((c) => limits.forDriver((c.state as PlatformState).courier!.id)),
  );
  return { admin, platform, courier, public: chain(counted.perIp('public'), counted.trackingLink) };
}

/** Answers of the credentialed audiences are never stored by a cache. */
const noStore: RouteMiddleware = async (c, next) => {
  c.set('Cache-Control', 'no-store');
  await next();
};

/** The guards' counting steps: per client IP, per caller, per tracking link. */
function rateLimitSteps(limits: RequestLimits) {
  const exempt = (c: GuardContext) => (c.state as PlatformState).unlimited === true;
  /** A surface's per-IP limit: every request, before its credentials (the simulator's pass skips every limit). */
  const perIp =
    (surface: Surface): RouteMiddleware =>
    async (c, next) => {
      if (limits.exempt(c.get(SIMULATOR_PASS_HEADER) || undefined)) (c.state as PlatformState).unlimited = true;
      else {
        const admission = await limits.fromIp(surface, c.ip);
        if (!admission.allowed) return tooManyRequests(c, admission.retryAfterSeconds);
      }
      await next();
    };
  /** A caller's limit, after its credentials were checked. */
  const perCaller =
    (admit: (c: GuardContext) => Promise<Admission>): RouteMiddleware =>
    async (c, next) => {
      if (!exempt(c)) {
        const admission = await admit(c);
        if (admission.counted) {
          c.set('RateLimit-Limit', String(admission.limit));
          c.set('RateLimit-Remaining', String(admission.remaining));
        }
        if (!admission.allowed) return tooManyRequests(c, admission.retryAfterSeconds);
      }
      await next();
    };
  const trackingLink: RouteMiddleware = async (c, next) => {
    const token = c.params.token;
    const admission = token === undefined || exempt(c) ? undefined : await limits.forTrackingToken(token);
    if (admission && !admission.allowed) return tooManyRequests(c, admission.retryAfterSeconds);
    await next();
  };
  return { perIp, perCaller, trackingLink };
}

/** The guards' credential checks: each puts its caller on the request state, or answers 401. */
function credentialSteps(ctx: ProviderContext, adminTokenSecret: Buffer) {
  const adminToken: RouteMiddleware = async (c, next) => {
    const match = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(c.get('authorization'));
    const claims = match ? verifyBearerToken(adminTokenSecret, match[1]!, ctx.now()) : undefined;
    if (claims?.role !== 'admin') throw unauthenticated();
    (c.state as PlatformState).admin = claims.sub;
    await next();
  };
  const platformKey: RouteMiddleware = async (c, next) => {
    const presented = parseBearerApiKey(c.get('authorization') || undefined);
    const account = presented && (await authenticatePlatform(ctx, presented));
    if (!account) throw unauthenticated();
    (c.state as PlatformState).platformAccount = account;
    await next();
  };
  const courierToken: RouteMiddleware = async (c, next) => {
    const presented = parseBearerCourierToken(c.get('authorization') || undefined);
    const driver = presented && (await authenticateCourier(ctx, presented));
    if (!driver) throw unauthenticated();
    (c.state as PlatformState).courier = driver;
    await next();
  };
  return { adminToken, platformKey, courierToken };
}

type GuardContext = Parameters<RouteMiddleware>[0];

/**
 * Over a limit: 429 `request.rate_limited` in the envelope, with Retry-After; the tracking page
 * answers in its own format (HTML), its state with its own headers.
 */
function tooManyRequests(c: GuardContext, retryAfterSeconds: number): void {
  if (!answerTooManyTrackingRequests(c, retryAfterSeconds)) throw rateLimited(retryAfterSeconds);
}

/** Several middlewares run as one, in order (each one's `next` is the following; the last's, the route's). */
function chain(...steps: RouteMiddleware[]): RouteMiddleware {
  return (c, next) => {
    const run = async (i: number): Promise<void> => {
      if (i === steps.length) await next();
      else await steps[i]!(c, () => run(i + 1));
    };
    return run(0);
  };
}

/** The driver of a `/courier/v1` request (after its audience guard). */
export function courierDriverOf(c: Koa.ParameterizedContext<RequestState>): Driver {
  const driver = (c.state as PlatformState).courier;
  if (!driver) throw unauthenticated();
  return driver;
}

/** The platform account of a `/v1` request (after its audience guard). */
export function platformAccountOf(c: Koa.ParameterizedContext<RequestState>): PlatformAccount {
  const account = (c.state as PlatformState).platformAccount;
  if (!account) throw unauthenticated();
  return account;
}
