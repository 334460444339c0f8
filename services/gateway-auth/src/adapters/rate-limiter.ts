import { randomBytes } from 'node:crypto';
import { defineScripts, type Redis } from '@marketplace/redis';
import { whileRedisAnswers } from '@marketplace/redis';
import type { RateDecision, RequestLimiter } from '../usecases/rate-limits';

/**
 * Sliding-window rate limit, exact and atomic: at most `limit` requests in any `window` seconds.
 * One sorted set per bucket holds the admission times of the requests counted in the last window.
 * A Lua script (atomic in Redis) drops entries older than the window, admits the request when
 * fewer than `limit` remain and records it; otherwise it answers how long until the oldest entry
 * leaves the window. Refused requests are not recorded, so a client that keeps hammering is
 * admitted again as soon as its earlier requests age out. Time is Redis's own clock (TIME), so
 * several gateway instances agree. Memory: at most `limit` entries per active bucket, expiring
 * with the window.
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

export class RateLimiter implements RequestLimiter {
  private readonly scripts;
  private readonly instance = `${randomBytes(6).toString('base64url')}:`;
  private sequence = 0;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.scripts = defineScripts(redis, { gatewaySlidingWindow: SLIDING_WINDOW });
  }

  async take(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    // A unique member per request (two admissions in the same microsecond must both count): this
    // instance's random id and a counter, cheaper than fresh random bytes on every request.
    const member = `${this.instance}${(this.sequence++).toString(36)}`;
    const [allowed, remaining, retryAfter] = (await whileRedisAnswers(
      this.scripts.gatewaySlidingWindow([`${this.prefix}rl:${bucket}`], [limit, windowSeconds, member]),
    )) as [number, number, number];
    return { allowed: allowed === 1, remaining, retryAfterSeconds: retryAfter };
  }
}
