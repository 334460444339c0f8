import { createHash, timingSafeEqual } from 'node:crypto';
import { PLATFORM_RATE_LIMIT } from '@marketplace/contracts';
import type { Logger } from '@marketplace/logging';
import type { RequestLimiter } from '@marketplace/redis';
import { TRACKING_TOKEN_PATTERN } from '../domain/delivery';
import type { PlatformAccount } from '../domain/platform-account';
import { accountBucket, type Admission, type RateLimitScope, type Surface } from '../domain/rate-limit';
import type { RequestLimits } from '../usecases/ports';

/** Requests per minute of each limit but the accounts' own (this service's settings). */
export interface SurfaceLimits {
  perIp: Record<Surface, number>;
  perAdmin: number;
  perDriver: number;
  perTrackingToken: number;
}

/** The header of the courier simulator's pass (`RateLimits.exempt`). */
export const SIMULATOR_PASS_HEADER = 'x-courier-simulator-pass';

/** The window of the surfaces' limits: their numbers are per minute, as the accounts'. */
export const SURFACE_WINDOW_SECONDS = 60;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * The tracking bucket of a link: the token's SHA-256, never the token (it is the capability to see
 * a delivery; whoever reads Redis must not be able to open the page).
 */
export const trackingBucket = (token: string) => `tracking:${sha256(token).toString('base64url')}`;

/**
 * This service's rate limits, all counted in Redis over a sliding window shared by every instance
 * (RateLimiter of @marketplace/redis):
 *
 * - per account: every authenticated `/v1` request of an account counts against its
 *   `rateLimit.requestsPerMinute`, over PLATFORM_RATE_LIMIT.windowSeconds;
 * - per client IP, for each surface (administrator, platform, courier and public routes), every
 *   request, counted before its credentials are looked at;
 * - per caller: an administrator (the token's `sub`), a driver, a tracking link (its token's hash;
 *   a malformed token, answered 404 without a lookup, is counted per IP only).
 *
 * When Redis does not answer, the request is admitted uncounted (fail open), unlike the gateway,
 * which answers 503: here the limits only share capacity fairly between callers, authentication
 * does not depend on Redis, and a platform's deliveries and its drivers' work matter more than the
 * limits for the minutes of an outage. The outage is logged once as a warning when it starts and
 * once when counting resumes, not on every request (one state for every limit of the process).
 *
 * The courier simulator (SIMULATOR_ENABLED) is this process's own client: its calls carry the
 * process's random pass (`exempt`) and are not counted, so 500 simulated drivers on one address do
 * not spend the budget of that address.
 */
export class RateLimits implements RequestLimits {
  private unchecked = false;
  private readonly pass: Buffer | undefined;

  constructor(
    private readonly limiter: RequestLimiter,
    private readonly logger: Logger,
    private readonly limits: SurfaceLimits,
    /** Told of every request refused, by scope (a metric: never the caller). */
    private readonly onRejected: (scope: RateLimitScope) => void = () => undefined,
    /** The courier simulator's pass (random, of this process); none: nothing is exempt. */
    simulatorPass?: string,
  ) {
    this.pass = simulatorPass ? sha256(simulatorPass) : undefined;
  }

  /** The platform API's per-account limit (after the account is authenticated). */
  admit(account: PlatformAccount): Promise<Admission> {
    const limit = account.rateLimit.requestsPerMinute;
    return this.count(accountBucket(account.id), limit, PLATFORM_RATE_LIMIT.windowSeconds, 'account');
  }

  /** A surface's per-IP limit: every request, before its credentials are looked at. */
  fromIp(surface: Surface, ip: string): Promise<Admission> {
    return this.count(`${surface}-ip:${ip}`, this.limits.perIp[surface], SURFACE_WINDOW_SECONDS, `${surface}_ip`);
  }

  /** An administrator's limit (the token's `sub`). */
  forAdmin(sub: string): Promise<Admission> {
    return this.count(`admin:${sub}`, this.limits.perAdmin, SURFACE_WINDOW_SECONDS, 'admin');
  }

  /** A driver's limit on the courier API. */
  forDriver(driverId: string): Promise<Admission> {
    return this.count(`courier:${driverId}`, this.limits.perDriver, SURFACE_WINDOW_SECONDS, 'courier');
  }

  /** A tracking link's limit (the page and its state together), by its token's hash; undefined for a malformed token. */
  forTrackingToken(token: string): Promise<Admission> | undefined {
    if (!TRACKING_TOKEN_PATTERN.test(token)) return undefined;
    return this.count(trackingBucket(token), this.limits.perTrackingToken, SURFACE_WINDOW_SECONDS, 'tracking');
  }

  /** A call of the courier simulator of this process (its pass, compared in constant time). */
  exempt(presented: string | undefined): boolean {
    return this.pass !== undefined && !!presented && timingSafeEqual(sha256(presented), this.pass);
  }

  private async count(bucket: string, limit: number, windowSeconds: number, scope: RateLimitScope): Promise<Admission> {
    let decision;
    try {
      decision = await this.limiter.take(bucket, limit, windowSeconds);
    } catch (error) {
      if (!this.unchecked) {
        this.unchecked = true;
        this.logger.warn(
          { err: error },
          'rate limits unchecked: the limiter does not answer; requests are admitted uncounted until it does',
        );
      }
      return { allowed: true, counted: false };
    }
    if (this.unchecked) {
      this.unchecked = false;
      this.logger.info('rate limits counted again: the limiter answers');
    }
    if (!decision.allowed) this.onRejected(scope);
    return decision.allowed
      ? { allowed: true, counted: true, limit, remaining: decision.remaining }
      : { allowed: false, counted: true, limit, remaining: 0, retryAfterSeconds: decision.retryAfterSeconds };
  }
}
