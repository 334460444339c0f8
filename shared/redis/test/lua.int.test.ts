import type { Redis } from 'ioredis';
import { connectRedis, defineScripts, redisConnectionFromEnv } from '@marketplace/redis';
import { quietLogger, stackEnv, uniqueName } from '@marketplace/testing';

// A fixed-window counter: increments and sets the expiry in one atomic step.
const hit = {
  keys: 1,
  lua: `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`,
};

let redis: Redis;
beforeAll(async () => {
  redis = await connectRedis({ connection: redisConnectionFromEnv(stackEnv()), logger: quietLogger() });
});
afterAll(() => redis.quit());

describe('Redis Lua scripts', () => {
  it('runs a script atomically under concurrency', async () => {
    const { hit: run } = defineScripts(redis, { hit });
    const key = uniqueName('it:hits');
    const results = (await Promise.all(Array.from({ length: 200 }, () => run([key], [60_000])))) as number[];
    expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('reloads the script by itself when Redis has forgotten it', async () => {
    const { hit: run } = defineScripts(redis, { hit });
    const key = uniqueName('it:hits');
    expect(await run([key], [1000])).toBe(1);
    await redis.script('FLUSH');
    expect(await run([key], [1000])).toBe(2);
  });

  it('refuses a call with the wrong number of keys', () => {
    const { hit: run } = defineScripts(redis, { hit });
    expect(() => run([], [1])).toThrow('script hit takes 1 keys, got 0');
  });
});
