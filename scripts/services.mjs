// The six services, their default ports and how scripts find them. `<NAME>_PORT` (for example
// CATALOG_PORT, GATEWAY_AUTH_PORT) moves a service to another port.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLocalEnv } from './stack/local-env.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const stackDir = join(root, '.stack');
// Where `npm start` records what it launched; tests point it elsewhere.
export const runFile = process.env.SERVICES_RUN_FILE ?? join(stackDir, 'services.json');

const DEFAULT_PORTS = JSON.parse(readFileSync(join(root, 'scripts', 'services.json'), 'utf8')).services;

export function services(env = process.env) {
  return Object.entries(DEFAULT_PORTS).map(([name, defaultPort]) => {
    const port = Number(env[`${name.replace(/-/g, '_').toUpperCase()}_PORT`] ?? defaultPort);
    return { name, port, url: `http://127.0.0.1:${port}` };
  });
}

/** The services `npm start` launched (their urls and pids), else the defaults. */
export function runningServices() {
  if (existsSync(runFile)) return JSON.parse(readFileSync(runFile, 'utf8')).services;
  return services();
}

/** The stack's addresses (.stack/stack.env) and the local settings and secrets (.stack/local.env). */
export function readStackEnv() {
  const file = join(stackDir, 'stack.env');
  if (!existsSync(file)) return ensureLocalEnv();
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line.trim()))
      .filter(Boolean)
      .map((m) => [m[1], m[2]])
      .concat(Object.entries(ensureLocalEnv())),
  );
}

export async function isReady(url, timeoutMs = 2000) {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    return res.status === 200;
  } catch {
    return false;
  }
}
