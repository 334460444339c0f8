import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '../../..');

/**
 * The addresses of the local stack, written by `npm run stack:up` to `.stack/stack.env`. Values
 * already in the environment win, so CI or a developer can point tests at another stack.
 */
export function stackEnv(): {
  KAFKA_BROKERS: string;
  SCHEMA_REGISTRY_URL: string;
  MONGO_URL: string;
  REDIS_URL: string;
} {
  const file = join(repoRoot, '.stack', 'stack.env');
  const fromFile: Record<string, string> = {};
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
      if (match) fromFile[match[1]!] = match[2]!;
    }
  }
  const pick = (name: string) => {
    const value = process.env[name] ?? fromFile[name];
    if (!value)
      throw new Error(`${name} is not set and .stack/stack.env does not define it: run npm run stack:up first`);
    return value;
  };
  return {
    KAFKA_BROKERS: pick('KAFKA_BROKERS'),
    SCHEMA_REGISTRY_URL: pick('SCHEMA_REGISTRY_URL'),
    MONGO_URL: pick('MONGO_URL'),
    REDIS_URL: pick('REDIS_URL'),
  };
}

/**
 * Local settings and generated secrets (`.stack/local.env`: identity keys, encryption key, token
 * key, loopback HTTP allowed), written once by scripts/stack/local-env.mjs, which runs here if needed.
 */
export function localEnv(): Record<string, string> {
  const file = join(repoRoot, '.stack', 'local.env');
  if (!existsSync(file)) {
    const result = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'stack', 'local-env.mjs')], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (result.status !== 0) throw new Error(`scripts/stack/local-env.mjs failed: ${result.stderr}`);
  }
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}
