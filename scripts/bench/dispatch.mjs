#!/usr/bin/env node
// Dispatch under load: provider-delivery's dispatcher and courier simulator, with provider-delivery
// as its own process and database on the local stack (SIMULATOR_ENABLED=true; Kafka for its events,
// Redis for its rate limit, MongoDB):
//   0. the local stack is brought up if it is not (scripts/stack/stack.sh up); a platform account
//      through the administrator API with the simulator on (`--drivers` simulated drivers, clock
//      `--time-scale` times faster), no webhook URL (its events are published on provider-events,
//      no callback is sent: this measures dispatch, not the webhook sender), rate limit 1,000,000
//      a minute, an API key; then a wait until the simulator has its drivers online;
//   1. `--deliveries` deliveries created at once (`--in-flight` creates in flight), pickups spread
//      over the service area (seeded), each drop-off 0.5 to 3 km from its pickup; every tenth is
//      wanted at once (preparation 0: the rule offers it at creation, so its assignment time is the
//      dispatch delay alone), the others are ready 1 to `--prep-max` minutes later on the delivery's
//      clock (offered when the rule says: their travel time plus the 45-second offer before the food
//      is ready), so the pickups are spread and 500 drivers, each busy about 17 minutes of the clock
//      a delivery, can carry 1,000 within the rule's 10-minute window;
//   2. a wait until every delivery ended (delivered or failed), `--timeout` seconds at most.
// Measured from the events the service publishes, read back from the `provider-events` topic with
// a consumer of its own (the wire format's JSON, filtered by the bench account): per delivery,
// creation (delivery.accepted) to driver.assigned, in real milliseconds and on the delivery's clock
// (x time scale), for all and for those wanted at once; how late the drivers reached the food;
// events published per second over the run (distinct event ids; the outbox relay publishes at least
// once, a second copy is counted apart); the dispatcher's steps
// (provider_dispatch_steps_total at /metrics) and its backlog (sampled each second); the offers
// made (read from the bench's own database after the run) and the simulated drivers' answer time;
// the simulator's calls as provider-delivery served them (its request histogram); CPU of
// provider-delivery and of the stack's MongoDB engine and Kafka.
// Kafka rather than polling the operations API, because 1,000 deliveries polled would load the very
// engine being measured; the operations API is read once after the run, to check that every end
// the service recorded was seen as an event (a missed event makes the run unmeasured: exit 1).
// A benchmark, not a test: slow figures are printed, not failed; it exits non-zero only when the
// run could not be measured. BENCH_DEBUG=1 shows provider-delivery's log.
//
//   npm run bench:dispatch [-- --deliveries 1000 --drivers 500 --time-scale 60 --in-flight 50 --prep-max 45 --timeout 180 --seed 1]
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { readStackEnv, root } from '../services.mjs';
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

const USAGE =
  'usage: node scripts/bench/dispatch.mjs [--deliveries n] [--drivers n] [--time-scale n] [--in-flight n] [--prep-max minutes] [--timeout seconds] [--seed n]';
const options = {
  deliveries: 1000,
  drivers: 500,
  'time-scale': 60,
  'in-flight': 50,
  'prep-max': 45,
  timeout: 180,
  seed: 1,
};
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const value = Number(inline ?? process.argv[++i]);
  const min = name === 'prep-max' ? 0 : 1;
  if (!(name in options) || !Number.isInteger(value) || value < min) {
    console.error(USAGE);
    process.exit(2);
  }
  options[name] = value;
}
const SCALE = options['time-scale'];
const TOPIC = 'provider-events';
const DRIVERS_TIMEOUT_MS = 120_000;
const KAFKA_JOIN_TIMEOUT_MS = 60_000;
const tag = randomBytes(4).toString('hex');
const DATABASE = `bench_dispatch_${tag}`;
/** Around Berlin ([lng, lat]): the account's service area; every pickup and drop-off lies inside. */
const AREA = { west: 13.3, east: 13.5, south: 52.45, north: 52.58 };
const BERLIN = {
  type: 'Polygon',
  coordinates: [
    [
      [AREA.west, AREA.south],
      [AREA.east, AREA.south],
      [AREA.east, AREA.north],
      [AREA.west, AREA.north],
      [AREA.west, AREA.south],
    ],
  ],
};
const TERMINAL = new Set([
  'delivery.delivered',
  'delivery.failed',
  'delivery.cancelled',
  'delivery.returned_to_origin',
  'delivery.return_failed',
]);

const env = readStackEnv();
const { OFFER_TIMEOUT_MS } = require('./services/provider-delivery/dist/domain/dispatch.js');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves what `promise` resolves, or rejects saying what was waited for. */
async function within(ms, what, promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what} after ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` (its truthy answer is returned) every `everyMs` until `ms` passed. */
async function waitUntil(ms, what, everyMs, check) {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await check();
    if (answer) return answer;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${Math.round(ms / 1000)} s`);
    await sleep(everyMs);
  }
}

/** mulberry32: the same pickups, drop-offs and preparation times on every run with the same seed. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const MARGIN = 0.002; // keep points off the area's edge

/** The n-th delivery: pickup anywhere in the area, drop-off 0.5 to 3 km away, preparation 0 to prep-max minutes. */
function order(n, random) {
  const pickup = {
    lat: AREA.south + MARGIN + (AREA.north - AREA.south - 2 * MARGIN) * random(),
    lng: AREA.west + MARGIN + (AREA.east - AREA.west - 2 * MARGIN) * random(),
  };
  const km = 0.5 + 2.5 * random();
  const angle = 2 * Math.PI * random();
  const dropoff = {
    lat: clamp(pickup.lat + (km / 111.2) * Math.sin(angle), AREA.south + MARGIN, AREA.north - MARGIN),
    lng: clamp(
      pickup.lng + (km / (111.2 * Math.cos((pickup.lat * Math.PI) / 180))) * Math.cos(angle),
      AREA.west + MARGIN,
      AREA.east - MARGIN,
    ),
  };
  // Every tenth is wanted at once (offered at creation: its assignment time is the dispatch delay
  // alone); the others are ready 1 to prep-max minutes later (offered when the rule says).
  const draw = random();
  const preparationTimeMinutes =
    n % 10 === 0 || options['prep-max'] === 0 ? 0 : 1 + Math.floor(draw * options['prep-max']);
  const reference = `bench-dispatch-${tag}-${n}`;
  return {
    pickup,
    dropoff,
    preparationTimeMinutes,
    body: JSON.stringify({
      platformReference: reference,
      idempotencyKey: reference,
      pickupAddress: `Bench pickup ${n}, Berlin`,
      pickupLat: pickup.lat,
      pickupLng: pickup.lng,
      customerName: 'Bench Customer',
      customerPhone: '+49 30 1234567',
      dropoffAddress: `Bench drop-off ${n}, Berlin`,
      dropoffLat: dropoff.lat,
      dropoffLng: dropoff.lng,
      paymentMethod: 'card',
      amount: 23.5,
      deliveryFeeAmount: 2.99,
      currency: 'EUR',
      notes: 'Ring twice',
      preparationTimeMinutes,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// What the consumer of provider-events saw of the bench account.

let accountId;
const seen = {
  total: 0,
  /** The same event (event-id) appended again: the outbox relay publishes at least once. */
  duplicates: 0,
  ids: new Set(),
  unreadable: 0,
  byType: new Map(),
  /** Kafka append times (ms) of the account's events. */
  appended: [],
  /** Publish delay: Kafka append time minus the event's eventTimeUtc (the outbox relay's lag). */
  relayDelays: [],
};
/** Per providerDeliveryId: creation, the first assignment, the end (event times, ms). */
const timeline = new Map();
const entry = (id) => {
  let t = timeline.get(id);
  if (!t) timeline.set(id, (t = { createdAt: undefined, assignedAt: undefined, atPickup: undefined, end: undefined }));
  return t;
};

function consumed(message) {
  const value = message.value;
  // The Confluent wire format: magic byte 0, a 4-byte schema id, then the JSON of the event's data.
  if (!value || value.length < 6 || value[0] !== 0) return void seen.unreadable++;
  let data;
  try {
    data = JSON.parse(value.subarray(5).toString('utf8'));
  } catch {
    return void seen.unreadable++;
  }
  if (accountId === undefined || data?.accountId !== accountId) return;
  const body = data.delivery?.body;
  const type = body?.eventType ?? String(message.headers?.['event-type'] ?? 'unknown');
  const eventId = message.headers?.['event-id']?.toString();
  if (eventId !== undefined) {
    if (seen.ids.has(eventId)) return void seen.duplicates++;
    seen.ids.add(eventId);
  }
  seen.total++;
  seen.byType.set(type, (seen.byType.get(type) ?? 0) + 1);
  const appendedAt = Number(message.timestamp);
  seen.appended.push(appendedAt);
  if (!body) return;
  const at = Date.parse(body.eventTimeUtc);
  seen.relayDelays.push(appendedAt - at);
  const t = entry(body.providerDeliveryId);
  if (type === 'delivery.accepted') t.createdAt = at;
  else if (type === 'driver.assigned') t.assignedAt ??= at;
  else if (type === 'driver.arrived_at_pickup') t.atPickup ??= at;
  else if (TERMINAL.has(type) && t.end === undefined) t.end = { type, at };
}

async function startConsumer() {
  const { createKafka, kafkaConnectionFromEnv } = require('./shared/events/dist/index.js');
  const { createLogger } = require('./shared/logging/dist/index.js');
  const kafka = createKafka({
    connection: kafkaConnectionFromEnv(env),
    clientId: `bench-dispatch-${tag}`,
    logger: createLogger({ service: 'bench-dispatch', level: 'error' }),
  });
  // From the topic's end as it is now (before the account exists), whatever the group's default.
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(TOPIC).finally(() => admin.disconnect());
  const consumer = kafka.consumer({ groupId: `bench-dispatch-${tag}`, maxWaitTimeInMs: 100 });
  let joinedResolve;
  const joined = new Promise((resolve) => (joinedResolve = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => joinedResolve());
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) consumed(message);
    },
  });
  for (const { partition, offset } of ends) consumer.seek({ topic: TOPIC, partition, offset });
  await within(KAFKA_JOIN_TIMEOUT_MS, `the consumer of ${TOPIC} to join its group`, joined);
  return consumer;
}

// ---------------------------------------------------------------------------------------------
// provider-delivery: its account, its drivers, its metrics, its log.

async function setUp(url) {
  const { signBearerToken } = require('./shared/identity/dist/bearer-token.js');
  const secret = Buffer.from(env.PROVIDER_ADMIN_TOKEN_SECRET, 'base64');
  const admin = client(url, signBearerToken(secret, { role: 'admin', sub: 'bench' }, new Date(Date.now() + 3_600_000)));
  const { account } = await admin('POST', '/admin/v1/platform-accounts', {
    name: `Bench dispatch ${tag}`,
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
    simulator: { enabled: true, drivers: options.drivers, timeScale: SCALE },
    // Opted in to provider-delivery's own event types: the bench times arrival at pickup from them.
    eventTypes: require('./shared/contracts/dist/index.js').PROVIDER_EVENT_TYPES,
  });
  accountId = account.id;
  const { apiKey } = await admin('POST', `/admin/v1/platform-accounts/${account.id}/api-keys`);
  return { url, admin, accountId: account.id, apiKey };
}

/** The service's /metrics: the dispatcher's steps, and per route (the simulator's calls among them) requests and seconds. */
async function readMetrics(url) {
  const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const steps = {};
  for (const m of text.matchAll(/^provider_dispatch_steps_total\{([^}]*)\} (\d+(?:\.\d+)?)$/gm)) {
    const step = /step="(\w+)"/.exec(m[1])?.[1];
    if (step) steps[step] = Number(m[2]);
  }
  const routes = {};
  for (const m of text.matchAll(/^http_request_duration_seconds_(count|sum)\{([^}]*)\} (\S+)$/gm)) {
    const route = /route="([^"]*)"/.exec(m[2])?.[1];
    const method = /method="([^"]*)"/.exec(m[2])?.[1];
    if (!route?.startsWith('/courier/') && !route?.endsWith('/drivers')) continue;
    const status = /status="(\d+)"/.exec(m[2])?.[1] ?? '';
    const key = `${method} ${route.replace('/admin/v1/platform-accounts/:accountId', '…').replace(':providerDeliveryId', ':id')}${status.startsWith('2') ? '' : ` ${status}`}`;
    routes[key] ??= { count: 0, sum: 0 };
    routes[key][m[1]] += Number(m[3]);
  }
  return { steps, routes };
}

/** Warnings and errors of provider-delivery's log: counted, the first few messages kept. */
const serviceLog = { warnings: 0, errors: 0, messages: new Map() };
function watchLog(child) {
  let rest = '';
  const read = (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      const level = /"level":"(warn|error|fatal)"/.exec(line)?.[1];
      if (!level) continue;
      if (level === 'warn') serviceLog.warnings++;
      else serviceLog.errors++;
      const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 200);
      const key = msg.replace(/\(\d+ failures?/, '(n failures');
      if (serviceLog.messages.size < 8 || serviceLog.messages.has(key))
        serviceLog.messages.set(key, (serviceLog.messages.get(key) ?? 0) + 1);
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
}

/** The stack's MongoDB engine and Kafka broker processes (for their CPU), when the stack says. */
function stackProcesses() {
  const run = spawnSync('bash', [join(root, 'scripts/stack/stack.sh'), 'status', '--json'], { encoding: 'utf8' });
  try {
    const status = JSON.parse(run.stdout);
    return { mongo: status.mongodb?.pid, kafka: status.kafka?.pid };
  } catch {
    return {};
  }
}

/**
 * The dispatcher's backlog, sampled every second from the bench's own database: of the deliveries
 * looking for a driver, how long past their `dispatchAt` (the moment the dispatcher set to look
 * again) the most overdue one is. Near zero: the dispatcher keeps up; growing: it is the bottleneck.
 */
function sampleBacklog(collection) {
  const samples = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const began = Date.now();
      try {
        const docs = await collection.find({ dispatching: true }, { projection: { dispatchAt: 1 } }).toArray();
        const now = Date.now();
        const overdue = docs
          .filter((d) => d.dispatchAt && d.dispatchAt.getTime() <= now)
          .map((d) => now - d.dispatchAt.getTime());
        samples.push({ at: now, due: overdue.length, worst: overdue.length ? Math.max(...overdue) : 0 });
      } catch {
        // a failed sample is a missing sample
      }
      await sleep(Math.max(0, 1_000 - (Date.now() - began)));
    }
  })();
  return {
    samples,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

// ---------------------------------------------------------------------------------------------

const fmtMs = (v) =>
  Number.isFinite(v) ? (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`) : 'n/a';
const fmtScaled = (v) => {
  if (!Number.isFinite(v)) return 'n/a';
  const s = (v * SCALE) / 1000;
  return s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(0)} s`;
};
const spread = (sorted) =>
  `p50 ${fmtMs(percentile(sorted, 50))}, p95 ${fmtMs(percentile(sorted, 95))}, p99 ${fmtMs(percentile(sorted, 99))}, max ${fmtMs(sorted.at(-1))}`;
const spreadScaled = (sorted) =>
  `p50 ${fmtScaled(percentile(sorted, 50))}, p95 ${fmtScaled(percentile(sorted, 95))}, p99 ${fmtScaled(percentile(sorted, 99))}, max ${fmtScaled(sorted.at(-1))}`;

let exitCode = 0;
let consumer;
let mongo;
let backlog;
const summary = [];
try {
  const cpus = os.cpus();
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  const up = spawnSync('bash', [join(root, 'scripts/stack/stack.sh'), 'up'], { cwd: root, encoding: 'utf8' });
  if (up.status !== 0)
    throw new Error(`the local stack did not come up (scripts/stack/stack.sh up):\n${up.stdout}${up.stderr}`);

  // The bench reads deliveries and drivers through the administrator API from one address, above its limits.
  const url = await startService('provider-delivery', {
    MONGO_DATABASE: DATABASE,
    SIMULATOR_ENABLED: 'true',
    PLATFORM_RATE_LIMIT_PER_IP: '100000000',
    ADMIN_RATE_LIMIT_PER_IP: '100000000',
    ADMIN_RATE_LIMIT_PER_ADMIN: '100000000',
  });
  watchLog(processes['provider-delivery']);
  consumer = await startConsumer();
  const m = await setUp(url);
  const setupStarted = performance.now();
  const fleet = await waitUntil(
    DRIVERS_TIMEOUT_MS,
    `the simulator's ${options.drivers} drivers to be online`,
    1_000,
    async () => {
      const drivers = await m.admin('GET', `/admin/v1/platform-accounts/${m.accountId}/drivers`);
      const online = drivers.filter((d) => d.simulated && d.online && d.position !== null);
      return online.length >= options.drivers ? online : undefined;
    },
  );
  console.log(
    `set-up: provider-delivery on its own database with the simulator; an account (no webhook URL, time scale ${SCALE}); ` +
      `${fleet.length} simulated drivers online after ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
  );

  // 1. The deliveries, at once.
  const random = seeded(options.seed);
  const orders = Array.from({ length: options.deliveries }, (_, n) => order(n, random));
  const byId = new Map();
  const createFailures = new Map();
  const { steps: stepsBefore, routes: routesBefore } = await readMetrics(url);
  const pids = stackProcesses();
  const cpuBefore = {
    provider: cpuMs(processes['provider-delivery']),
    mongo: pids.mongo && cpuMs({ pid: pids.mongo }),
    kafka: pids.kafka && cpuMs({ pid: pids.kafka }),
  };
  const { MongoClient } = require('mongodb');
  mongo = await new MongoClient(env.MONGO_URL).connect();
  const deliveriesCollection = mongo.db(DATABASE).collection('deliveries');
  backlog = sampleBacklog(deliveriesCollection);
  const started = Date.now();
  let nextOrder = 0;
  await Promise.all(
    Array.from({ length: options['in-flight'] }, async () => {
      while (nextOrder < orders.length) {
        const o = orders[nextOrder++];
        const res = await fetch(`${url}/v1/deliveries`, {
          method: 'POST',
          headers: { authorization: `Bearer ${m.apiKey}`, 'content-type': 'application/json; charset=utf-8' },
          body: o.body,
          signal: AbortSignal.timeout(30_000),
        }).then(
          async (r) => ({ status: r.status, body: await r.json().catch(() => undefined) }),
          (error) => ({ status: 0, body: { code: error.name } }),
        );
        if (res.status === 200 && res.body?.accepted === true) byId.set(res.body.providerDeliveryId, o);
        else {
          const key = `${res.status} ${res.body?.code ?? res.body?.rejectionReason ?? ''}`.trim();
          createFailures.set(key, (createFailures.get(key) ?? 0) + 1);
        }
      }
    }),
  );
  const createdIn = Date.now() - started;
  console.log(
    `created: ${byId.size} of ${options.deliveries} deliveries accepted in ${(createdIn / 1000).toFixed(1)} s ` +
      `(${options['in-flight']} in flight; preparation 0 for every tenth, else 1 to ${options['prep-max']} min on the delivery's clock = up to ${((options['prep-max'] * 60) / SCALE).toFixed(1)} s real)` +
      (createFailures.size ? `; failed: ${[...createFailures].map(([k, n]) => `${n} × ${k}`).join(', ')}` : ''),
  );
  if (byId.size === 0) throw new Error('no delivery was accepted: nothing to measure');
  // The measurement reads the events: without them there is nothing to wait for.
  await waitUntil(30_000, `the first delivery.accepted event of the account on ${TOPIC}`, 250, () =>
    [...byId.keys()].some((id) => timeline.get(id)?.createdAt !== undefined),
  );

  // 2. Until every delivery ended, as the events say.
  const ours = () => [...byId.keys()].map((id) => timeline.get(id) ?? {});
  const counts = () => {
    const t = ours();
    return {
      accepted: t.filter((x) => x.createdAt !== undefined).length,
      assigned: t.filter((x) => x.assignedAt !== undefined).length,
      delivered: t.filter((x) => x.end?.type === 'delivery.delivered').length,
      failed: t.filter((x) => x.end?.type === 'delivery.failed').length,
      ended: t.filter((x) => x.end !== undefined).length,
    };
  };
  const waitMs = options.timeout * 1000;
  let lastProgress = Date.now();
  let timedOut = false;
  try {
    await waitUntil(waitMs, `all ${byId.size} deliveries to end (delivered or failed) on ${TOPIC}`, 250, () => {
      const c = counts();
      if (Date.now() - lastProgress >= 10_000) {
        lastProgress = Date.now();
        console.log(
          `  +${((Date.now() - started) / 1000).toFixed(0)} s: ${c.assigned} assigned, ${c.delivered} delivered, ${c.failed} failed, ${seen.total} events`,
        );
      }
      return c.ended === byId.size;
    });
  } catch (error) {
    timedOut = true;
    console.log(`  ${error.message}`);
  }
  const endedAt = Date.now();
  await backlog.stop();
  const cpuAfter = {
    provider: cpuMs(processes['provider-delivery']),
    mongo: pids.mongo && cpuMs({ pid: pids.mongo }),
    kafka: pids.kafka && cpuMs({ pid: pids.kafka }),
  };
  const { steps: stepsAfter, routes: routesAfter } = await readMetrics(url);
  await sleep(1_000); // events appended just now reach the consumer

  // 3. What the service recorded (the operations API), checked against the events seen.
  const recorded = new Map();
  const ids = [...byId.keys()];
  let nextId = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (nextId < ids.length) {
        const id = ids[nextId++];
        const view = await m.admin('GET', `/admin/v1/platform-accounts/${m.accountId}/deliveries/${id}`);
        recorded.set(id, view);
      }
    }),
  );
  const statusCounts = new Map();
  for (const v of recorded.values()) statusCounts.set(v.status, (statusCounts.get(v.status) ?? 0) + 1);
  const missing = () =>
    ids.filter((id) => {
      const v = recorded.get(id);
      const t = timeline.get(id);
      return (
        !t?.createdAt ||
        (v.driverId !== null && !t.assignedAt) ||
        (['delivered', 'failed'].includes(v.status) && !t.end)
      );
    });
  // What the service recorded just now may still be on its way through the outbox relay.
  const missed = await waitUntil(15_000, 'the events of what the service recorded', 500, () =>
    missing().length === 0 ? [] : undefined,
  ).catch(() => missing());

  // The offers, from the bench's own database (read once, after the run).
  const offerOutcomes = new Map();
  const reaction = [];
  let offersMade = 0;
  const docs = await deliveriesCollection.find({ accountId: m.accountId }, { projection: { offers: 1 } }).toArray();
  for (const doc of docs)
    for (const offer of doc.offers ?? []) {
      offersMade++;
      offerOutcomes.set(offer.outcome, (offerOutcomes.get(offer.outcome) ?? 0) + 1);
      const assignedAt = timeline.get(doc._id)?.assignedAt;
      if (offer.outcome === 'accepted' && assignedAt !== undefined)
        reaction.push(assignedAt - new Date(offer.offeredAt).getTime());
    }

  // The figures.
  const c = counts();
  const assignment = [];
  const atOnce = [];
  const foodWaited = [];
  const offerMs = Math.round(OFFER_TIMEOUT_MS / SCALE);
  for (const [id, o] of byId) {
    const t = timeline.get(id);
    if (t?.createdAt === undefined || t.assignedAt === undefined) continue;
    assignment.push(t.assignedAt - t.createdAt);
    if (o.preparationTimeMinutes === 0) atOnce.push(t.assignedAt - t.createdAt);
    const ready = t.createdAt + Math.round((o.preparationTimeMinutes * 60_000) / SCALE);
    if (t.atPickup !== undefined && o.preparationTimeMinutes > 0) foodWaited.push(Math.max(0, t.atPickup - ready));
  }
  const worst = backlog.samples.map((x) => x.worst);
  for (const list of [assignment, atOnce, foodWaited, reaction, seen.relayDelays, worst]) list.sort((a, b) => a - b);
  const lastAppend = Math.max(...seen.appended);
  const wallS = (Math.max(lastAppend, started) - started) / 1000;
  const buckets = new Map();
  for (const at of seen.appended) buckets.set(Math.floor(at / 1000), (buckets.get(Math.floor(at / 1000)) ?? 0) + 1);
  const peak = Math.max(0, ...buckets.values());
  const steps = Object.fromEntries(
    [...new Set([...Object.keys(stepsBefore), ...Object.keys(stepsAfter)])].map((k) => [
      k,
      (stepsAfter[k] ?? 0) - (stepsBefore[k] ?? 0),
    ]),
  );
  const runS = (endedAt - started) / 1000;
  const routeLine = Object.entries(routesAfter)
    .map(([k, a]) => [k, a.count - (routesBefore[k]?.count ?? 0), a.sum - (routesBefore[k]?.sum ?? 0)])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n, sum]) => `${k} ${(n / runS).toFixed(1)}/s (mean ${Math.round((sum / n) * 1000)} ms)`)
    .join(', ');
  const cpu = (k) =>
    cpuBefore[k] === undefined || cpuAfter[k] === undefined
      ? 'n/a'
      : `${Math.round((cpuAfter[k] - cpuBefore[k]) / (runS * 10))} %`;

  console.log(
    `\nbench:dispatch summary (${byId.size} deliveries, ${options.drivers} simulated drivers, time scale ${SCALE}, provider-delivery alone on the local stack)`,
  );
  summary.push(
    `deliveries: ${c.assigned} assigned, ${c.delivered} delivered, ${c.failed} failed, ${byId.size - c.ended} not ended` +
      `${timedOut ? ` after the ${options.timeout} s limit` : ''}; the last ended ${wallS.toFixed(1)} s after the first create` +
      ` (recorded by the service: ${[...statusCounts].map(([s, n]) => `${n} ${s}`).join(', ')})`,
    `assignment time (creation to driver.assigned, the ${assignment.length} assigned), real: ${spread(assignment)}`,
    `  on the delivery's clock (x ${SCALE}): ${spreadScaled(assignment)}`,
    `  of the ${atOnce.length} wanted at once (preparation 0: offered at creation), real: ${spread(atOnce)}; on the clock: ${spreadScaled(atOnce)}`,
    `driver at the pickup after the food was ready (preparation 1 min or more), on the clock: ${spreadScaled(foodWaited)}`,
    `dispatcher backlog (most overdue delivery, sampled each second, ${worst.length} samples): ${spread(worst)}; at most ${Math.max(0, ...backlog.samples.map((x) => x.due))} due at once`,
    `offer to accept (the simulated driver's answer), real: ${spread(reaction)}; an offer runs ${offerMs} ms real`,
    `offers: ${offersMade} made (${[...offerOutcomes].map(([k, n]) => `${n} ${k}`).join(', ')})`,
    `events: ${seen.total} published for the account in ${wallS.toFixed(1)} s, ${(seen.total / wallS).toFixed(0)} events/s (peak ${peak} in one second; ${seen.duplicates} appended twice, counted once); ` +
      `${[...seen.byType]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}`,
    `outbox relay (event time to Kafka append): ${spread(seen.relayDelays)}`,
    `dispatcher steps: ${Object.entries(steps)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}`,
    `the simulator's calls (served by provider-delivery, answered in): ${routeLine}`,
    `CPU over the run (${runS.toFixed(0)} s): provider-delivery ${cpu('provider')}, MongoDB engine ${cpu('mongo')}, Kafka ${cpu('kafka')} of one core`,
    `provider-delivery log: ${serviceLog.warnings} warnings, ${serviceLog.errors} errors${serviceLog.messages.size ? `: ${[...serviceLog.messages].map(([k, n]) => `${n} × ${k}`).join('; ')}` : ''}`,
  );
  for (const line of summary) console.log(`  ${line}`);
  const unended = ids.filter((id) => !['delivered', 'failed', 'cancelled'].includes(recorded.get(id)?.status));
  for (const id of unended.slice(0, 3)) {
    const v = recorded.get(id);
    const driver = v.driverId
      ? await m.admin('GET', `/admin/v1/platform-accounts/${m.accountId}/drivers/${v.driverId}`).catch((e) => e.message)
      : null;
    console.log(
      `  not ended: ${id} ${v.status} since ${v.statusEventTimeUtc} (created ${v.createdAt}); its driver: ${JSON.stringify(driver)}`,
    );
  }
  if (seen.unreadable > 0)
    console.log(`  (${seen.unreadable} messages on ${TOPIC} were not in the wire format; ignored)`);
  if (missed.length > 0)
    throw new Error(
      `${missed.length} deliveries moved on in the service without their event seen on ${TOPIC} (e.g. ${missed[0]}): the figures would be wrong`,
    );
  if (assignment.length === 0) throw new Error('no delivery was assigned: nothing to measure');
} catch (error) {
  console.error(`bench:dispatch failed: ${error.message}`);
  exitCode = 1;
} finally {
  await backlog?.stop().catch(() => undefined);
  await mongo?.close().catch(() => undefined);
  await consumer?.disconnect().catch(() => undefined);
  await stopServices();
  await dropDatabases([DATABASE]).catch(() => undefined);
}
process.exit(exitCode);
