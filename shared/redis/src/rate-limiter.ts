import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineScripts } from './scripts';
import { whileRedisAnswers } from './redis-unavailable';

/** What a rate-limit bucket answers for one request. */
export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Whole seconds until a request would be admitted (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Counts requests per bucket, at most `limit` in any `windowSeconds` (RateLimiter: a sliding
 * window in Redis, shared by every instance of the service).
 */
export interface RequestLimiter {
  take(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision>;
}

/**
 * Sliding-window rate limit, exact and atomic: at most `limit` requests in any `window` seconds.
 * One sorted set per bucket holds the admission times of the requests counted in the last window.
 * A Lua script (atomic in Redis) drops entries older than the window, admits the request when
 * fewer than `limit` remain and records it; otherwise it answers how long until the oldest entry
 * leaves the window. Refused requests are not recorded, so a client that keeps hammering is
 * admitted again as soon as its earlier requests age out. Time is Redis's own clock (TIME), so
 * several instances of a service agree. Memory: at most `limit` entries per active bucket,
 * expiring with the window.
 */
const SLIDING_WINDOW = {
  keys: 1,
  lua: `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window_us = tonumber(ARGV[2]) * 1000000
local member = ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window_us)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, math.ceil(window_us / 1000))
  return {1, limit - count - 1, 0}
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local wait_us = tonumber(oldest[2]) + window_us - now
return {0, 0, math.max(1, math.ceil(wait_us / 1000000))}
`,
};

/**
 * The sliding window above, with keys `<prefix>rl:<bucket>` (the prefix is the service's own, so
 * services sharing a Redis never count into each other's buckets). While Redis does not answer,
 * `take` throws the 503 of `whileRedisAnswers` (fail closed); a caller that prefers to admit
 * unchecked catches it.
 */
export class RateLimiter implements RequestLimiter {
  private readonly scripts;
  private readonly instance = `${randomBytes(6).toString('base64url')}:`;
  private sequence = 0;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.scripts = defineScripts(redis, { slidingWindowRateLimit: SLIDING_WINDOW });
  }

  async take(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    // A unique member per request (two admissions in the same microsecond must both count): this
    // instance's random id and a counter, cheaper than fresh random bytes on every request.
    const member = `${this.instance}${(this.sequence++).toString(36)}`;
    const [allowed, remaining, retryAfter] = (await whileRedisAnswers(
      this.scripts.slidingWindowRateLimit([`${this.prefix}rl:${bucket}`], [limit, windowSeconds, member]),
    )) as [number, number, number];
    return { allowed: allowed === 1, remaining, retryAfterSeconds: retryAfter };
  }
}
