// What the full-stack benchmarks share: starting built services as their own processes (with the
// local stack's settings), a JSON client with a bearer token, and cleaning up (processes, databases).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { readStackEnv, root } from '../../services.mjs';

export const require = createRequire(join(root, 'package.json'));
const children = [];
/** The child process of each started service, by name. */
export const processes = {};

export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** CPU time (user + system, ms) a child has used so far; undefined where /proc is missing. */
export function cpuMs(child) {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in ticks of 1/100 s
  } catch {
    return undefined;
  }
}

/** Starts a built service as its own process and waits (60 s at most) until it is ready; its URL. */
export async function startService(name, env) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const childEnv = {
    ...process.env,
    ...readStackEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...env,
  };
  delete childEnv.OTEL_EXPORTER_OTLP_ENDPOINT;
  // BENCH_CPU_PROFILE=<dir>: each service writes a V8 CPU profile there when it stops (open it
  // in Chrome's DevTools, or sum its self times by function).
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, join(root, 'services', name, 'dist', 'main.js')], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // The last lines are kept for the error message; BENCH_DEBUG=1 shows everything as it comes.
  child.stdout.on('data', (chunk) => {
    output = (output + chunk).slice(-5000);
    if (process.env.BENCH_DEBUG) process.stderr.write(chunk);
  });
  child.stderr.on('data', (chunk) => {
    output = (output + chunk).slice(-5000);
    if (process.env.BENCH_DEBUG) process.stderr.write(chunk);
  });
  children.push(child);
  processes[name] = child;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    if (
      await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
        (res) => res.status === 200,
        () => false,
      )
    )
      return url;
    if (Date.now() > deadline)
      throw new Error(
        `${name} did not answer /readyz with 200 within 60 s (is the stack up? npm run stack:status):\n${output}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Stops every started service (SIGTERM, then SIGKILL after 10 s). */
export function stopServices() {
  return Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      return exited.then(() => clearTimeout(timer));
    }),
  );
}

/** `(method, path, body?, expected?)` → parsed JSON body; throws on an unexpected status. */
export function client(baseUrl, token) {
  return async (method, path, body, expected = [200, 201, 204]) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** An administrator client for the gateway, with a token minted from the local secret. */
export function adminClient(gatewayUrl) {
  const { signBearerToken } = require('./shared/identity/dist/bearer-token.js');
  const secret = Buffer.from(readStackEnv().MARKETPLACE_TOKEN_SECRET, 'base64');
  return client(gatewayUrl, signBearerToken(secret, { role: 'admin', sub: 'bench' }, new Date(Date.now() + 3_600_000)));
}

/**
 * Drops the benchmark's databases, a few seconds after its services stopped: FerretDB 1.24 on
 * SQLite dies (SIGBUS in the WAL) when a database file goes away under a query still running in
 * it, and a stopped service's last queries may still be running there.
 */
export async function dropDatabases(names) {
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(readStackEnv().MONGO_URL).connect();
  try {
    for (const name of names) await mongo.db(name).dropDatabase();
  } finally {
    await mongo.close();
  }
}

/** The p-th percentile (0–100) of sorted numbers. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
