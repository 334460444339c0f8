#!/usr/bin/env node
// The provider contract's create (`POST /v1/deliveries` of provider-delivery), the platform's side
// of our delivery provider, with provider-delivery as its own process and database on the local
// stack (Kafka for its events, Redis for its rate limit, MongoDB):
//   0. a platform account through the administrator API (every capability, a service area around
//      Berlin, no webhook URL: its events are published, no callback is sent) with its rate limit
//      raised to 1,000,000 requests a minute, and an API key; a warm-up of 200 creates;
//   1. saturation: `--count` new deliveries (each its own idempotencyKey) sent by `--clients`
//      concurrent clients (closed loop: each sends its next request when the last is answered),
//      once per client count: new deliveries/s answered 200 `accepted: true`, p50/p99 latency;
//   2. replays: the very requests of the first saturation run sent again (the same idempotencyKey,
//      the same payload) by the largest client count: replays/s answered 200 with the first
//      answer's providerDeliveryId, p50/p99;
//   3. steady rate: `--rate` new deliveries a second for `--duration` seconds, each started on
//      schedule whatever the answers before (open loop): p50/p99/max latency from the scheduled
//      start, and the rate achieved.
// Targets, printed beside the figures (a benchmark, not a test: it fails only when the set-up
// does): at least 500 new deliveries/s and at most 3 ms of provider-delivery's CPU per create (each
// process's CPU per create is printed, lib/cpu-meter.mjs), at least 1,000 replays/s, p99 at most
// 100 ms at 100/s.
// BENCH_CPU_PROFILE=<dir> makes provider-delivery write a V8 CPU profile there when it stops
// (scripts/bench/lib/processes.mjs); BENCH_DEBUG=1 shows its log.
//
//   npm run bench:provider [-- --count 3000 --clients 16,32 --rate 100 --duration 10]
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { readStackEnv } from '../services.mjs';
import { closeHttp, send, sleep } from './lib/http.mjs';
import {
  client,
  cpuMs,
  dropDatabases,
  percentile,
  processes,
  require,
  startService,
  stopServices,
} from './lib/processes.mjs';
import { cpuMeter, formatCpu } from './lib/cpu-meter.mjs';

const USAGE =
  'usage: node scripts/bench/provider.mjs [--count n] [--clients n,n,...] [--rate creates/s] [--duration seconds]';
const options = { count: 3000, clients: [16, 32], rate: 100, duration: 10 };
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const raw = inline ?? process.argv[++i];
  const values = String(raw ?? '')
    .split(',')
    .map(Number);
  const valid = values.length > 0 && values.every((v) => Number.isInteger(v) && v > 0);
  if (!(name in options) || !valid || (name !== 'clients' && values.length !== 1)) {
    console.error(USAGE);
    process.exit(2);
  }
  options[name] = name === 'clients' ? values : values[0];
}

const TARGETS = { createsPerSecond: 500, cpuMsPerCreate: 3, replaysPerSecond: 1000, steadyP99Ms: 100 };
const WARM_UP = 200;
const tag = randomBytes(4).toString('hex');
const DATABASE = `bench_prov_${tag}`;
/** Around Berlin ([lng, lat]); every request's pickup and drop-off lie inside. */
const BERLIN = {
  type: 'Polygon',
  coordinates: [
    [
      [13.3, 52.45],
      [13.5, 52.45],
      [13.5, 52.58],
      [13.3, 52.58],
      [13.3, 52.45],
    ],
  ],
};

const parsed = (res) => {
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined; // not JSON
  }
};

/** A valid create request inside BERLIN, its own idempotencyKey (= platformReference). */
function createRequest(n) {
  const reference = `bench-${tag}-${n}`;
  const jitter = (n % 1000) / 100_000;
  return JSON.stringify({
    platformReference: reference,
    idempotencyKey: reference,
    pickupAddress: 'Torstraße 1, 10119 Berlin',
    pickupLat: 52.529,
    pickupLng: 13.401,
    customerName: 'Bench Customer',
    customerPhone: '+49 30 1234567',
    dropoffAddress: 'Kastanienallee 10, 10435 Berlin',
    dropoffLat: 52.538 + jitter,
    dropoffLng: 13.409 + jitter,
    paymentMethod: 'card',
    amount: 23.5,
    deliveryFeeAmount: 2.99,
    currency: 'EUR',
    notes: 'Ring twice',
    preparationTimeMinutes: 15,
  });
}

let next = 0;
/** `count` fresh create requests. */
const freshRequests = (count) => Array.from({ length: count }, () => createRequest(next++));

const failures = new Map();
const fail = (key) => failures.set(key, (failures.get(key) ?? 0) + 1);
const failureReport = () =>
  failures.size === 0 ? 'none failed' : [...failures].map(([k, n]) => `${n} × ${k}`).join(', ');

/**
 * One create; the providerDeliveryId when answered 200 `accepted: true` (and, for a replay, the
 * id expected), else undefined with the failure counted.
 */
async function create(m, body, expectedId) {
  const res = await send(`${m.url}/v1/deliveries`, 'POST', { authorization: `Bearer ${m.apiKey}` }, body);
  const answer = parsed(res);
  if (res.status !== 200 || answer?.accepted !== true) {
    fail(`${res.status} ${answer?.code ?? answer?.rejectionReason ?? ''}`.trim());
    return { ms: res.ms };
  }
  if (expectedId !== undefined && answer.providerDeliveryId !== expectedId) {
    fail('200 with another providerDeliveryId than the first answer');
    return { ms: res.ms };
  }
  return { id: answer.providerDeliveryId, ms: res.ms };
}

/** Closed loop: `clients` workers send `bodies` in order; ids (by index), latencies of the successes, seconds. */
async function closedLoop(m, bodies, clients, expectedIds) {
  const ids = new Array(bodies.length);
  const latencies = [];
  let index = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (index < bodies.length) {
        const i = index++;
        const { id, ms } = await create(m, bodies[i], expectedIds?.[i]);
        if (id === undefined) continue;
        ids[i] = id;
        latencies.push(ms);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { ids, ok: latencies.length, seconds, perSecond: latencies.length / seconds, latencies };
}

/** Open loop: `rate` fresh creates a second for `duration` seconds, latency from each scheduled start. */
async function steady(m) {
  const total = options.rate * options.duration;
  const bodies = freshRequests(total);
  const interval = 1000 / options.rate;
  const latencies = [];
  const inFlight = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      create(m, bodies[i]).then(({ id }) => {
        if (id !== undefined) latencies.push(performance.now() - due); // a queue is not hidden
      }),
    );
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length,
    achieved: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
  };
}

async function setUp(url) {
  const { signBearerToken } = require('./shared/identity/dist/bearer-token.js');
  const secret = Buffer.from(readStackEnv().PROVIDER_ADMIN_TOKEN_SECRET, 'base64');
  const admin = client(url, signBearerToken(secret, { role: 'admin', sub: 'bench' }, new Date(Date.now() + 3_600_000)));
  const { account } = await admin('POST', '/admin/v1/platform-accounts', {
    name: `Bench platform ${tag}`,
    webhookUrl: null,
    capabilities: {
      supportsPolling: true,
      supportsReturnToOrigin: true,
      supportsProofOfDelivery: false,
      supportsScheduledDelivery: true,
      supportsUpdates: true,
      supportsCancellation: true,
    },
    serviceArea: BERLIN,
    rateLimit: { requestsPerMinute: 1_000_000 },
  });
  const { apiKey } = await admin('POST', `/admin/v1/platform-accounts/${account.id}/api-keys`);
  return { url, accountId: account.id, apiKey };
}

const ms = (value) => `${value.toFixed(1)} ms`;
const met = (ok) => (ok ? 'met' : 'NOT met');
let exitCode = 0;
const summary = [];
try {
  const cpus = os.cpus();
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  // One client address at full speed: the per-IP limit of the platform API out of the way (the account's is 1,000,000).
  const url = await startService('provider-delivery', {
    MONGO_DATABASE: DATABASE,
    PLATFORM_RATE_LIMIT_PER_IP: '100000000',
  });
  const m = await setUp(url);
  const warm = await closedLoop(m, freshRequests(WARM_UP), 16);
  if (warm.ok !== WARM_UP) throw new Error(`warm-up creates failed: ${failureReport()}`);
  console.log(
    `set-up: provider-delivery on its own database, a platform account (rate limit 1,000,000/min, no webhook URL), ${WARM_UP} creates to warm up`,
  );

  const cpuShare = (before, seconds) => {
    const after = cpuMs(processes['provider-delivery']);
    return before === undefined || after === undefined ? 'n/a' : `${Math.round((after - before) / (seconds * 10))} %`;
  };

  // 1. Saturation, per client count.
  let firstRun;
  const saturation = [];
  for (const clients of options.clients) {
    failures.clear();
    const bodies = freshRequests(options.count);
    const cpu = cpuMs(processes['provider-delivery']);
    const meter = cpuMeter(processes);
    const run = await closedLoop(m, bodies, clients);
    const perCreate = meter.per(run.ok);
    firstRun ??= { bodies, ids: run.ids };
    const line = `${run.perSecond.toFixed(1)} new deliveries/s with ${clients} clients (${run.ok} of ${options.count} in ${run.seconds.toFixed(1)} s), p50 ${ms(percentile(run.latencies, 50))}, p99 ${ms(percentile(run.latencies, 99))}`;
    console.log(
      `saturation: ${line}; provider-delivery CPU ${cpuShare(cpu, run.seconds)} of one core; ${failureReport()}`,
    );
    console.log(`  ${formatCpu(perCreate, 'create')}`);
    const serviceMs = perCreate.rows.find((r) => r.name === 'provider-delivery')?.perOperation ?? NaN;
    console.log(
      `  target: at most ${TARGETS.cpuMsPerCreate} ms of provider-delivery's CPU per create: ${met(serviceMs <= TARGETS.cpuMsPerCreate)}`,
    );
    console.log(
      `  target: at least ${TARGETS.createsPerSecond} new deliveries/s: ${met(run.perSecond >= TARGETS.createsPerSecond)}`,
    );
    saturation.push({ clients, run });
  }
  const best = saturation.reduce((a, b) => (b.run.perSecond > a.run.perSecond ? b : a));
  summary.push(
    `new deliveries: ${saturation.map(({ clients, run }) => `${run.perSecond.toFixed(0)}/s with ${clients} clients (p50 ${ms(percentile(run.latencies, 50))}, p99 ${ms(percentile(run.latencies, 99))})`).join('; ')}` +
      ` — target ≥ ${TARGETS.createsPerSecond}/s: ${met(best.run.perSecond >= TARGETS.createsPerSecond)}`,
  );

  // 2. Replays of the first run's requests, with the largest client count.
  failures.clear();
  const replayClients = Math.max(...options.clients);
  const answered = firstRun.bodies.map((body, i) => [body, firstRun.ids[i]]).filter(([, id]) => id !== undefined);
  const cpu = cpuMs(processes['provider-delivery']);
  const replays = await closedLoop(
    m,
    answered.map(([body]) => body),
    replayClients,
    answered.map(([, id]) => id),
  );
  const replayLine = `${replays.perSecond.toFixed(1)} replays/s with ${replayClients} clients (${replays.ok} of ${answered.length} answered with the first providerDeliveryId in ${replays.seconds.toFixed(1)} s), p50 ${ms(percentile(replays.latencies, 50))}, p99 ${ms(percentile(replays.latencies, 99))}`;
  console.log(
    `replays: ${replayLine}; provider-delivery CPU ${cpuShare(cpu, replays.seconds)} of one core; ${failureReport()}`,
  );
  console.log(
    `  target: at least ${TARGETS.replaysPerSecond} replays/s: ${met(replays.perSecond >= TARGETS.replaysPerSecond)}`,
  );
  summary.push(
    `replays: ${replays.perSecond.toFixed(0)}/s with ${replayClients} clients (p50 ${ms(percentile(replays.latencies, 50))}, p99 ${ms(percentile(replays.latencies, 99))})` +
      ` — target ≥ ${TARGETS.replaysPerSecond}/s: ${met(replays.perSecond >= TARGETS.replaysPerSecond)}`,
  );

  // 3. A steady rate of new deliveries.
  failures.clear();
  const s = await steady(m);
  console.log(
    `steady rate ${options.rate} creates/s for ${options.duration} s: ${s.achieved.toFixed(1)} new deliveries/s answered, latency p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}; ${failureReport()}`,
  );
  console.log(`  target: p99 at most ${TARGETS.steadyP99Ms} ms: ${met(s.p99 <= TARGETS.steadyP99Ms)}`);
  summary.push(
    `steady ${options.rate}/s for ${options.duration} s: p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (${s.ok} of ${options.rate * options.duration} answered)` +
      ` — target p99 ≤ ${TARGETS.steadyP99Ms} ms: ${met(s.p99 <= TARGETS.steadyP99Ms)}`,
  );

  console.log('\nbench:provider summary (POST /v1/deliveries, provider-delivery alone on the local stack)');
  for (const line of summary) console.log(`  ${line}`);
} catch (error) {
  console.error(`bench:provider failed: ${error.message}`);
  exitCode = 1;
} finally {
  await stopServices();
  await dropDatabases([DATABASE]).catch(() => undefined);
  closeHttp();
}
process.exit(exitCode);
