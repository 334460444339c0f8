import Redis, { type RedisOptions } from 'ioredis';
import type { Logger } from '@marketplace/logging';
import { describeRedisConnection, ioredisOptions, type RedisConnection } from './connection';

export type { Redis };

export interface RedisSettings {
  connection: RedisConnection;
  logger: Logger;
}

/**
 * Connects to Redis. Commands fail at once while Redis is away (no offline queue, one retry), so
 * rate limits and locks answer "unavailable" quickly instead of piling up.
 */
export async function connectRedis({ connection, logger }: RedisSettings): Promise<Redis> {
  const options: RedisOptions = {
    ...ioredisOptions(connection),
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 3000,
    // Commands issued in the same tick go out in one write: fewer syscalls under concurrency.
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
  const redis = connection.url ? new Redis(connection.url, options) : new Redis(options);
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  await connectOrRefuse(redis);
  logger.info({ redis: describeRedisConnection(connection) }, 'connected to Redis'); // where and as whom, never the password
  return redis;
}

export {
  describeRedisConnection,
  ioredisOptions,
  redisConnectionFromEnv,
  redisConnectionOf,
  redisConnectionProblems,
  redisConnectionSettings,
  type RedisConnection,
} from './connection';
/**
 * `redis.connect()`, except that a refused sign-in (WRONGPASS, NOAUTH) rejects at once: ioredis
 * reports it as an error event and reconnects, so the connect would wait (and retry the wrong
 * password) forever.
 */
function connectOrRefuse(redis: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      if (!/^(WRONGPASS|NOAUTH)\b/.test(error.message)) return;
      redis.off('error', onError);
      redis.disconnect();
      reject(error);
    };
    redis.on('error', onError);
    redis.connect().then(
      () => {
        redis.off('error', onError);
        resolve();
      },
      (error: Error) => {
        redis.off('error', onError);
        reject(error);
      },
    );
  });
}

export { defineScripts, type LuaScript } from './scripts';
export { RedisLock } from './redis-lock';
export { whileRedisAnswers } from './redis-unavailable';
export { RateLimiter, type RateDecision, type RequestLimiter } from './rate-limiter';
