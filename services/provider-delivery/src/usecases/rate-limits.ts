import { PLATFORM_RATE_LIMIT } from '@marketplace/contracts';
import type { Logger } from '@marketplace/logging';
import type { RequestLimiter } from '@marketplace/redis';
import type { PlatformAccount } from '../domain/platform-account';

/** What the platform API does with one authenticated request, by its account's budget. */
export type Admission =
  | { allowed: true; counted: true; limit: number; remaining: number }
  | { allowed: false; counted: true; limit: number; remaining: 0; retryAfterSeconds: number }
  /** The limiter did not answer (Redis away): admitted without counting. */
  | { allowed: true; counted: false };

/** The Redis bucket of an account (under the service's key prefix). */
export const accountBucket = (accountId: string) => `account:${accountId}`;

/**
 * The platform API's per-account rate limit: every authenticated `/v1` request of an account
 * counts against its `rateLimit.requestsPerMinute`, over a sliding window of
 * PLATFORM_RATE_LIMIT.windowSeconds shared by every instance of the service (RateLimiter of
 * @marketplace/redis).
 *
 * When Redis does not answer, the request is admitted uncounted (fail open), unlike the gateway,
 * which answers 503: here the limit only shares capacity fairly between accounts we issued keys
 * to, authentication does not depend on Redis, and a platform's deliveries matter more than the
 * limit for the minutes of an outage. The outage is logged once as a warning when it starts and
 * once when counting resumes, not on every request.
 */
export class AccountRateLimits {
  private unchecked = false;

  constructor(
    private readonly limiter: RequestLimiter,
    private readonly logger: Logger,
    /** Told of every request refused (a metric: never the account). */
    private readonly onRejected: () => void = () => undefined,
  ) {}

  async admit(account: PlatformAccount): Promise<Admission> {
    const limit = account.rateLimit.requestsPerMinute;
    let decision;
    try {
      decision = await this.limiter.take(accountBucket(account.id), limit, PLATFORM_RATE_LIMIT.windowSeconds);
    } catch (error) {
      if (!this.unchecked) {
        this.unchecked = true;
        this.logger.warn(
          { err: error },
          'rate limits unchecked: the limiter does not answer; platform requests are admitted uncounted until it does',
        );
      }
      return { allowed: true, counted: false };
    }
    if (this.unchecked) {
      this.unchecked = false;
      this.logger.info('rate limits counted again: the limiter answers');
    }
    if (!decision.allowed) this.onRejected();
    return decision.allowed
      ? { allowed: true, counted: true, limit, remaining: decision.remaining }
      : { allowed: false, counted: true, limit, remaining: 0, retryAfterSeconds: decision.retryAfterSeconds };
  }
}
