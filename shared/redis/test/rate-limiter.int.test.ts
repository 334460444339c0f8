import type { Redis } from 'ioredis';
import { connectRedis, RateLimiter, redisConnectionFromEnv } from '@marketplace/redis';
import { quietLogger, stackEnv, uniqueName } from '@marketplace/testing';

// The sliding-window limiter on the real Redis: exact under concurrency, a bucket per name and a
// key prefix per service, Retry-After in whole seconds, admitted again once the window has passed.

let redis: Redis;
beforeAll(async () => {
  redis = await connectRedis({ connection: redisConnectionFromEnv(stackEnv()), logger: quietLogger() });
});
afterAll(() => redis.quit());

describe('RateLimiter', () => {
  it('admits exactly the limit of concurrent requests, counting down what remains', async () => {
    const limiter = new RateLimiter(redis, `${uniqueName('it-rl')}:`);
    const decisions = await Promise.all(Array.from({ length: 200 }, () => limiter.take('bucket', 50, 60)));
    const admitted = decisions.filter((d) => d.allowed);
    expect(admitted).toHaveLength(50);
    expect(admitted.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (const refused of decisions.filter((d) => !d.allowed)) {
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it('keeps buckets and prefixes apart, under <prefix>rl:<bucket> expiring with the window', async () => {
    const prefix = `${uniqueName('it-rl')}:`;
    const one = new RateLimiter(redis, prefix);
    const other = new RateLimiter(redis, `${uniqueName('it-rl')}:`);
    expect((await one.take('a', 1, 60)).allowed).toBe(true);
    expect((await one.take('a', 1, 60)).allowed).toBe(false);
    expect((await one.take('b', 1, 60)).allowed).toBe(true);
    expect((await other.take('a', 1, 60)).allowed).toBe(true);
    expect(await redis.zcard(`${prefix}rl:a`)).toBe(1);
    const ttl = await redis.pttl(`${prefix}rl:a`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('admits again once the oldest request has left the window, refusals not counted', async () => {
    const limiter = new RateLimiter(redis, `${uniqueName('it-rl')}:`);
    expect((await limiter.take('a', 2, 1)).allowed).toBe(true);
    expect((await limiter.take('a', 2, 1)).allowed).toBe(true);
    const refused = await limiter.take('a', 2, 1);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await limiter.take('a', 2, 1)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
  });

  it('answers 503 service.unavailable with Retry-After while Redis does not answer (fail closed)', async () => {
    const gone = await connectRedis({ connection: redisConnectionFromEnv(stackEnv()), logger: quietLogger() });
    const limiter = new RateLimiter(gone, `${uniqueName('it-rl')}:`);
    gone.disconnect();
    await expect(limiter.take('a', 1, 60)).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'service.unavailable',
      retryAfterSeconds: 1,
    });
  });
});
