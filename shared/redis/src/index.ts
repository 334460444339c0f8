import Redis from 'ioredis';
import type { Logger } from '@marketplace/logging';

export type { Redis };

export interface RedisSettings {
  url: string;
  logger: Logger;
}

/** A Lua script: its source and how many of its arguments are keys. */
export interface LuaScript {
  lua: string;
  keys: number;
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

/**
 * Registers scripts as commands once per connection: ioredis sends EVALSHA and loads the script
 * itself only when Redis does not know the hash (after a restart, say).
 */
export function defineScripts<const N extends string>(redis: Redis, scripts: Record<N, LuaScript>): Record<N, (keys: string[], args: (string | number)[]) => Promise<unknown>> {
  const commands = {} as Record<N, (keys: string[], args: (string | number)[]) => Promise<unknown>>;
  for (const [name, script] of Object.entries(scripts) as [N, LuaScript][]) {
    redis.defineCommand(name, { lua: script.lua, numberOfKeys: script.keys });
    const command = (redis as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!.bind(redis);
    commands[name] = (keys, args) => {
      if (keys.length !== script.keys) throw new Error(`script ${name} takes ${script.keys} keys, got ${keys.length}`);
      return command(...keys, ...args);
    };
  }
  return commands;
}
