import type { Redis } from 'ioredis';

/** A Lua script: its source and how many of its arguments are keys. */
export interface LuaScript {
  lua: string;
  keys: number;
}

/**
 * Registers scripts as commands once per connection: ioredis sends EVALSHA and loads the script
 * itself only when Redis does not know the hash (after a restart, say).
 */
export function defineScripts<const N extends string>(
  redis: Redis,
  scripts: Record<N, LuaScript>,
): Record<N, (keys: string[], args: (string | number)[]) => Promise<unknown>> {
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
