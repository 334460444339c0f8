import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineScripts } from './scripts';
import { whileRedisAnswers } from './redis-unavailable';

const RELEASE = {
  keys: 1,
  // Delete only our own lock: after an expiry another holder may own the key.
  lua: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
};

/** A lease in Redis (SET NX PX): held until released or until its time runs out after a crash. */
export class RedisLock {
  private readonly scripts;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.scripts = defineScripts(redis, { releaseLock: RELEASE });
  }

  /** The lease token, or undefined when someone else holds the lock. */
  async acquire(name: string, ttlMs: number): Promise<string | undefined> {
    const token = randomBytes(12).toString('base64url');
    const result = await whileRedisAnswers(this.redis.set(`${this.prefix}lock:${name}`, token, 'PX', ttlMs, 'NX'));
    return result === 'OK' ? token : undefined;
  }

  async release(name: string, token: string): Promise<void> {
    await this.scripts.releaseLock([`${this.prefix}lock:${name}`], [token]);
  }

  /** Runs `work` under the lock, waiting for it up to `waitMs`; undefined if it never came free. */
  async withLock<T>(
    name: string,
    options: { ttlMs: number; waitMs: number },
    work: () => Promise<T>,
  ): Promise<{ value: T } | undefined> {
    const deadline = Date.now() + options.waitMs;
    let token = await this.acquire(name, options.ttlMs);
    while (!token && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 25));
      token = await this.acquire(name, options.ttlMs);
    }
    if (!token) return undefined;
    try {
      return { value: await work() };
    } finally {
      await this.release(name, token).catch(() => undefined); // it expires on its own anyway
    }
  }
}
