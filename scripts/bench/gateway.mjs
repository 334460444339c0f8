#!/usr/bin/env node
// What the gateway costs per request, next to what Koa alone costs, on one machine in one run:
//   bare     new Koa() + one middleware answering {"ok":true} (scripts/bench/bare-koa.mjs)
//   proxy    new Koa() + one middleware forwarding the same request to the same upstream over a
//            keep-alive agent (scripts/bench/bare-koa-proxy.mjs): a proxied request and nothing more
//   gateway  GET /api/partner/v1/catalog/branches with an API key through a real gateway-auth
//            process (per-IP limit, key lookup in the Redis cache + HMAC check, per-installation
//            limit, scope check, signed identity, proxying) to a trivial upstream answering []
//            (scripts/bench/trivial-upstream.mjs) set as its CATALOG_URL.
// Prints requests/s, p50/p99 latency and the CPU ms each server process spent per request (read
// from /proc over the measured run; the upstream's and Redis' too), and what the gateway adds to a
// proxied request: its CPU per request minus the bare proxy's, and their ratio. A benchmark, not a
// test: it fails only when a request was not answered 2xx.
//
//   npm run stack:up && npm run build && npm run bench:gateway [-- --duration 10 --connections 50]
//
// Every server runs in its own process, so none shares an event loop with autocannon; they do
// share the machine's CPUs (printed), as do Redis and the rest of the local stack.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { readStackEnv, root } from '../services.mjs';
import { cpuMeter, stackPids } from './lib/cpu-meter.mjs';

const require = createRequire(join(root, 'package.json'));

const options = { duration: 10, connections: 50 };
// --cpu-prof: the gateway writes a V8 CPU profile into .test-results/profiles/ (open it in Chrome
// DevTools, Performance tab) to see where its time goes.
const profile = process.argv.includes('--cpu-prof');
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--cpu-prof') continue;
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const value = Number(inline ?? process.argv[++i]);
  if (!(name in options) || !flag.startsWith('--') || !(Number.isInteger(value) && value > 0)) {
    console.error('usage: node scripts/bench/gateway.mjs [--duration seconds] [--connections n] [--cpu-prof]');
    process.exit(2);
  }
  options[name] = value;
}
const WARMUP_SECONDS = 2;
// High enough never to refuse, so the limiter still runs its full Redis script on every request.
const RATE_LIMIT = 100_000_000;
const DATABASE = 'bench_gateway';

const children = [];
let cleaning;
/** SIGTERM every child (the gateway stops gracefully), SIGKILL what is still there after 10 s. */
function cleanup() {
  return (cleaning ??= Promise.all(
    children.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      return exited.then(() => clearTimeout(timer));
    }),
  ));
}

/** A child node process; keeps its output for error messages. */
function start(name, args, env = process.env) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const entry = { name, child, output: '' };
  child.stderr.on('data', (chunk) => (entry.output += chunk));
  children.push(entry);
  return entry;
}

/** Starts one of the small servers next to this script and waits for the port it announces. */
async function startSmallServer(name, file, env = process.env) {
  const entry = start(name, [join(root, 'scripts', 'bench', file)], env);
  const lines = createInterface({ input: entry.child.stdout });
  const port = await Promise.race([
    new Promise((resolve) => lines.once('line', (line) => resolve(JSON.parse(line).port))),
    new Promise((_, reject) =>
      entry.child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${entry.output}`))),
    ),
  ]);
  return { url: `http://127.0.0.1:${port}`, pid: entry.child.pid };
}

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startGateway(upstreamUrl) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    ...readStackEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: url,
    LOG_LEVEL: 'warn', // no access log line per request
    MONGO_DATABASE: DATABASE,
    REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    CATALOG_URL: upstreamUrl,
    RATE_LIMIT_PER_IP: String(RATE_LIMIT),
    RATE_LIMIT_PER_INSTALLATION: String(RATE_LIMIT),
    TENANT_RATE_LIMIT_PER_IP: String(RATE_LIMIT),
    TENANT_RATE_LIMIT_PER_TENANT: String(RATE_LIMIT),
    ADMIN_RATE_LIMIT_PER_IP: String(RATE_LIMIT),
    ADMIN_RATE_LIMIT_PER_ADMIN: String(RATE_LIMIT),
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT; // measure the gateway, not span export to a collector
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(root, '.test-results', 'profiles')}`] : [];
  const entry = start('gateway-auth', [...profiling, join(root, 'services', 'gateway-auth', 'dist', 'main.js')], env);
  entry.child.stdout.on('data', (chunk) => (entry.output += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (entry.child.exitCode !== null)
      throw new Error(`gateway-auth exited with ${entry.child.exitCode}:\n${entry.output.slice(-3000)}`);
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return { url, entry };
    if (Date.now() > deadline)
      throw new Error(
        `gateway-auth did not answer /readyz with 200 within 60 s (is the stack up? npm run stack:status):\n${entry.output.slice(-3000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The test setup's flow (services/gateway-auth/test/support/gateway.ts): tenant, app, published
 * ApiKey version with Catalog.Read, installation, connect; returns the partner's API key. */
async function partnerApiKey(gatewayUrl) {
  const { signBearerToken } = require('./shared/identity/dist/bearer-token.js');
  const secret = Buffer.from(readStackEnv().MARKETPLACE_TOKEN_SECRET, 'base64');
  const adminToken = signBearerToken(secret, { role: 'admin', sub: 'bench' }, new Date(Date.now() + 3_600_000));
  const call = async (token, method, path, body, expected) => {
    const res = await fetch(gatewayUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const tag = randomBytes(4).toString('hex');
  const tenant = await call(
    adminToken,
    'POST',
    '/api/admin/v1/tenants',
    { slug: `bench-${tag}`, name: 'Bench Bistro', currencyCode: 'EUR', defaultLanguage: 'en' },
    201,
  );
  const { token: tenantToken } = await call(adminToken, 'POST', `/api/admin/v1/tenants/${tenant.id}/tokens`, {}, 201);
  const app = await call(
    adminToken,
    'POST',
    '/api/admin/v1/apps',
    { slug: `bench-app-${tag}`, name: 'Bench App' },
    201,
  );
  const version = await call(
    adminToken,
    'POST',
    `/api/admin/v1/apps/${app.id}/versions`,
    { authType: 'ApiKey', scopes: ['Catalog.Read'], subscribedEvents: [], webhookUrl: null },
    201,
  );
  await call(adminToken, 'POST', `/api/admin/v1/apps/${app.id}/versions/${version.version}/publish`, undefined, 200);
  const installation = await call(
    tenantToken,
    'POST',
    '/api/tenant/v1/installations',
    { appId: app.id, contractVersion: version.version },
    201,
  );
  const connected = await call(
    tenantToken,
    'POST',
    `/api/tenant/v1/installations/${installation.id}/connect`,
    undefined,
    200,
  );
  return connected.credentials.apiKey;
}

/** One request before measuring: the key works end to end, and without it the gateway refuses. */
async function verify(url, headers) {
  const ok = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const body = await ok.text();
  if (ok.status !== 200 || body !== '[]')
    throw new Error(`gateway request with the key: ${ok.status} ${body} (expected 200 [])`);
  const refused = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  await refused.text();
  if (refused.status !== 401) throw new Error(`gateway request without the key: ${refused.status} (expected 401)`);
}

let running; // the autocannon run in progress, stopped on Ctrl-C
let interrupted = false;
async function load(url, headers, duration, latencies) {
  running = autocannon({ url, headers, connections: options.connections, duration });
  // autocannon's own latency histogram keeps whole milliseconds, too coarse for bare Koa (~1 ms):
  // keep each 2xx response's time (hrtime, fractional ms) instead.
  if (latencies)
    running.on('response', (client, status, bytes, ms) => status < 300 && status >= 200 && latencies.push(ms));
  const result = await running;
  if (interrupted) await new Promise(() => undefined); // the signal handler cleans up and exits
  return result;
}

const round = (x) => Math.round(x * 100) / 100;
/** How many times `a` is `b`, or null when `b` is 0. */
const times = (a, b) => (b > 0 ? round(a / b) : null);

/**
 * `pids`: the processes whose CPU the request costs, by name (the server first); each one's CPU ms
 * per request over the measured run (lib/cpu-meter.mjs).
 */
async function measure(title, url, headers, pids) {
  process.stdout.write(`${title}: ${WARMUP_SECONDS} s warm-up, ${options.duration} s measured ... `);
  // A separate warm-up run (JIT, key cache, connection pools), not counted, rather than autocannon's
  // `warmup` option, whose run cannot be stopped.
  const warmup = await load(url, headers, WARMUP_SECONDS);
  const latencies = [];
  const meter = cpuMeter(Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, { pid }])), {
    stack: false,
  });
  const result = await load(url, headers, options.duration, latencies);
  const cpu = Object.fromEntries(
    meter.per(result.requests.total).rows.map((r) => [r.name, Math.round(r.perOperation * 1000) / 1000]),
  );
  const sorted = Float64Array.from(latencies).sort();
  const at = (p) => round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN);
  const failed = result.non2xx + result.errors + warmup.non2xx + warmup.errors;
  console.log(
    failed
      ? `${result.non2xx} non-2xx, ${result.errors} errors (warm-up: ${warmup.non2xx} non-2xx, ${warmup.errors} errors)`
      : 'done',
  );
  if (failed) console.log(`  status codes: ${JSON.stringify(result.statusCodeStats)}`);
  return {
    figures: {
      rps: Math.round(result.requests.average),
      p50: at(0.5),
      p99: at(0.99),
      mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
    },
    cpu,
    failed,
  };
}

/** A pino JSON line in short: level, message and error, without the stack. */
function summary(line) {
  try {
    const { level, msg, err } = JSON.parse(line);
    return `${level} ${msg}${err ? `: ${err.message}${err.cause ? ` (${err.cause.message})` : ''}` : ''}`;
  } catch {
    return line.slice(0, 300);
  }
}

async function dropDatabase() {
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(readStackEnv().MONGO_URL).connect();
  try {
    await mongo.db(DATABASE).dropDatabase();
  } finally {
    await mongo.close();
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    interrupted = true;
    running?.stop();
    cleanup()
      .then(dropDatabase)
      .catch(() => undefined)
      .finally(() => process.exit(130));
  });
}

let exitCode = 0;
try {
  const cpus = os.cpus();
  const load = os.loadavg()[0];
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${os.platform()} ${os.arch()}, load average ${load.toFixed(2)} (other work on the machine skews the figures)`,
  );
  console.log(
    `autocannon: ${options.connections} connections, ${options.duration} s per target after ${WARMUP_SECONDS} s warm-up, no pipelining`,
  );
  console.log(
    `gateway: rate limits ${RATE_LIMIT} per IP and per installation (the Redis script runs on every request, never refuses), LOG_LEVEL=warn, no trace export`,
  );

  const bareKoa = await startSmallServer('bare-koa', 'bare-koa.mjs');
  const upstream = await startSmallServer('trivial-upstream', 'trivial-upstream.mjs');
  const upstreamUrl = upstream.url;
  const proxy = await startSmallServer('bare-koa-proxy', 'bare-koa-proxy.mjs', {
    ...process.env,
    UPSTREAM_URL: upstreamUrl,
  });
  const gateway = await startGateway(upstreamUrl);
  const apiKey = await partnerApiKey(gateway.url);
  const partnerUrl = `${gateway.url}/api/partner/v1/catalog/branches`;
  const auth = { authorization: `ApiKey ${apiKey}` };
  await verify(partnerUrl, auth);
  console.log('checked: with the API key 200 [], without it 401');

  const { redis, mongo } = stackPids();
  const bare = await measure('bare Koa', bareKoa.url, {}, { 'bare Koa': bareKoa.pid });
  const proxied = await measure(
    'bare Koa proxy',
    `${proxy.url}/api/partner/v1/catalog/branches`,
    {},
    {
      'bare Koa proxy': proxy.pid,
      upstream: upstream.pid,
    },
  );
  const gw = await measure('gateway ', partnerUrl, auth, {
    gateway: gateway.entry.child.pid,
    upstream: upstream.pid,
    ...(redis && { redis }),
    ...(mongo && { engine: mongo }),
  });
  // What authentication, limits, scopes and the signed identity add to a proxied request.
  const added = {
    cpuMs: Math.round((gw.cpu.gateway - proxied.cpu['bare Koa proxy']) * 1000) / 1000,
    withRedisMs: Math.round((gw.cpu.gateway + (gw.cpu.redis ?? 0) - proxied.cpu['bare Koa proxy']) * 1000) / 1000,
    ratio: times(gw.cpu.gateway, proxied.cpu['bare Koa proxy']),
  };
  const ratio = {
    p50: times(gw.figures.p50, bare.figures.p50),
    p99: times(gw.figures.p99, bare.figures.p99),
    mean: times(gw.figures.mean, bare.figures.mean),
    rps: times(bare.figures.rps, gw.figures.rps),
  };

  const row = (cells) =>
    console.log(cells.map((cell, i) => (i === 0 ? String(cell).padEnd(30) : String(cell).padStart(12))).join(''));
  console.log('');
  const serverCpu = (m) => Object.values(m.cpu)[0] ?? 'n/a';
  row(['', 'req/s', 'p50 ms', 'p99 ms', 'mean ms', 'non-2xx', 'CPU ms/req']);
  for (const [title, m] of [
    ['bare Koa', bare],
    ['bare Koa proxy', proxied],
    ['gateway (auth, limits, proxy)', gw],
  ])
    row([title, m.figures.rps, m.figures.p50, m.figures.p99, m.figures.mean, m.figures.non2xx, serverCpu(m)]);
  const x = (value) => (value === null ? 'n/a' : `${value}x`);
  row(['ratio gateway/bare', x(ratio.rps), x(ratio.p50), x(ratio.p99), x(ratio.mean), '', '']);
  console.log('(ratio: bare/gateway for req/s, gateway/bare for latency)');
  const each = (m) =>
    Object.entries(m.cpu)
      .map(([name, value]) => `${name} ${value}`)
      .join(', ');
  console.log(`CPU ms per request: bare Koa proxy run: ${each(proxied)}; gateway run: ${each(gw)}`);
  console.log(
    `the gateway adds ${added.cpuMs} ms of CPU to a proxied request (${added.withRedisMs} ms with Redis' share), ${x(added.ratio)} the bare Koa proxy's CPU per request`,
  );
  const gatewayLog = gateway.entry.output.trim().split('\n').filter(Boolean);
  if (gatewayLog.length > 0)
    console.log(`gateway-auth logged ${gatewayLog.length} lines, the last: ${summary(gatewayLog.at(-1))}`);
  console.log(
    JSON.stringify({
      bare: bare.figures,
      proxy: proxied.figures,
      gateway: gw.figures,
      cpuMsPerRequest: { bare: bare.cpu, proxy: proxied.cpu, gateway: gw.cpu },
      gatewayAdds: added,
      ratio,
      settings: {
        ...options,
        warmup: WARMUP_SECONDS,
        node: process.version,
        cpus: cpus.length,
        cpu: cpus[0]?.model.trim(),
        load: round(load),
      },
    }),
  );
  if (bare.failed || proxied.failed || gw.failed) {
    console.error('FAILED: some requests were not answered 2xx');
    exitCode = 1;
  }
} catch (error) {
  if (interrupted) await new Promise(() => undefined); // a child stopped by the signal handler
  console.error(`\n${error instanceof Error ? error.message : error}`);
  exitCode = 1;
} finally {
  await cleanup();
  // The bench's tenant, app and key; its Redis keys (rate limits, key cache) expire on their own.
  await dropDatabase().catch((error) => console.error(`could not drop the ${DATABASE} database: ${error.message}`));
}
process.exit(exitCode);
