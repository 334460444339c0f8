import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { STACK_SECURITY_SETTINGS, testInfra, type StackAddresses } from './infra';

export const repoRoot = resolve(__dirname, '../../..');

/**
 * The addresses of the stack the tests run against. Values already in the environment win, so CI
 * or a developer can point tests at another stack. On the native stack (the default) the rest come
 * from `.stack/stack.env`, written by `npm run stack:up`; with TEST_INFRA=testcontainers all four
 * come from the environment, where `npm test` puts the addresses of the containers it started
 * (infra.ts), never from the native stack's file.
 */
export function stackEnv(env: NodeJS.ProcessEnv = process.env): StackAddresses {
  const infra = testInfra(env);
  const file = join(repoRoot, '.stack', 'stack.env');
  const fromFile: Record<string, string> = {};
  if (infra === 'native' && existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
      if (match) fromFile[match[1]!] = match[2]!;
    }
  }
  const pick = (name: keyof StackAddresses) => {
    const value = env[name] ?? fromFile[name];
    if (!value)
      throw new Error(
        infra === 'native'
          ? `${name} is not set and .stack/stack.env does not define it: run npm run stack:up first`
          : `${name} is not set: with TEST_INFRA=testcontainers, npm test starts the containers and sets it`,
      );
    return value;
  };
  const addresses: StackAddresses = {
    KAFKA_BROKERS: pick('KAFKA_BROKERS'),
    SCHEMA_REGISTRY_URL: pick('SCHEMA_REGISTRY_URL'),
    MONGO_URL: pick('MONGO_URL'),
    REDIS_URL: pick('REDIS_URL'),
  };
  // A secured stack's credentials, when it has them, from where its component's address came: the
  // file's passwords never go with an address of another stack given in the environment.
  const addressOf = (name: string) =>
    name.startsWith('KAFKA_')
      ? 'KAFKA_BROKERS'
      : name.startsWith('SCHEMA_REGISTRY_')
        ? 'SCHEMA_REGISTRY_URL'
        : 'REDIS_URL';
  for (const name of STACK_SECURITY_SETTINGS) {
    const value = env[addressOf(name)] !== undefined ? env[name] : fromFile[name];
    if (value) addresses[name] = name.endsWith('_FILE') && !isAbsolute(value) ? join(repoRoot, value) : value;
  }
  return addresses;
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
