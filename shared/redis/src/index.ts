import Redis from 'ioredis';
import type { Logger } from '@marketplace/logging';

export type { Redis };

export interface RedisSettings {
  url: string;
  logger: Logger;
}

/**
 * Connects to Redis. Commands fail at once while Redis is away (no offline queue, one retry), so
 * rate limits and locks answer "unavailable" quickly instead of piling up.
 */
export async function connectRedis({ url, logger }: RedisSettings): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 3000,
    // Commands issued in the same tick go out in one write: fewer syscalls under concurrency.
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  await redis.connect();
  logger.info('connected to Redis');
  return redis;
}

export { defineScripts, type LuaScript } from './scripts';
export { RedisLock } from './redis-lock';
export { whileRedisAnswers } from './redis-unavailable';
export { RateLimiter, type RateDecision, type RequestLimiter } from './rate-limiter';
