#!/usr/bin/env node
// The marketplace as a platform of the provider contract, dispatching to our own provider: catalog,
// ordering-pricing, delivery-assignment (it dispatches: ALLOW_LOOPBACK_HTTP_URLS=true),
// provider-delivery (ALLOW_LOOPBACK_HTTP_URLS=true) and gateway-auth (limits raised) as their own
// processes with their own databases, on the local stack.
//   0. set-up (not measured): on provider-delivery a platform account "Bench Marketplace" (rate
//      limit 1,000,000 a minute, no webhook URL, a service area around Berlin holding the branch
//      and the drop-offs) and an API key; through the gateway a tenant with a branch, a product, a
//      delivery zone and a connected order source, and a provider connection "Bench Fleet" to the
//      account (registered by the tenant, `core` enabled by an administrator with a reason); the
//      Delivery orders created by the source; a warm-up of a few dispatches;
//   1. capacity: `--orders` orders assigned to the connection's installation by `--clients`
//      concurrent clients, each with one order in flight at a time (closed loop: it assigns, reads
//      the delivery as the tenant until its live assignment is Accepted, the provider's create
//      accepted and the assignment moved, then takes the next order): deliveries dispatched per
//      second (orders reaching Accepted / wall time), p50/p99 of assign → Accepted;
//   2. steady rate: `--rate` assignments a second for `--duration` seconds, each started on
//      schedule whatever the answers before (open loop): p50/p99/max of assign → Accepted from the
//      scheduled start, and the rate achieved;
//   3. beside it, the direct provider bench of the same run: `--direct` creates straight to
//      provider-delivery's `POST /v1/deliveries` with the same account and `--clients` clients
//      (closed loop, as bench:provider does): creates/s, p50/p99, and the platform's ratio.
// Accepted is seen by reading `GET /api/tenant/v1/deliveries/{orderId}` through the gateway, each
// in-flight order every `--poll` ms (25) at the soonest, and never more than 200 reads a second in
// all (with many orders in flight, each is read less often): a latency is known to the poll's
// resolution, and the reads are counted (they cost the gateway and delivery-assignment CPU too).
// Printed per phase besides: the assign request's own latency; CPU ms per dispatched delivery of
// each process and of the stack's MongoDB-wire engine, Kafka and Redis (cpuMs, from /proc: idle
// work included, so the processes' idle CPU a second is printed before the capacity run, before
// the direct run and after the run); and where the time goes, from the service's own timestamps
// read after the phase for 40 of its orders (assignment made, dispatch opened, create answered,
// Accepted, seen by the read). No webhook-sender runs: the provider's callbacks are not sent; the
// create's answer is what moves the assignment to Accepted.
// A benchmark, not a test: it reports what failed and exits non-zero only when the set-up does.
// BENCH_CPU_PROFILE=<dir> and BENCH_DEBUG=1 as for every bench (scripts/bench/lib/processes.mjs).
//
//   npm run bench:dispatch-platform [-- --orders 300 --clients 16 --rate 5 --duration 10 --direct 1000 --poll 25]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { join } from 'node:path';
import { readStackEnv, root } from '../services.mjs';
import {
  createDeliveryOrders,
  describeRetries,
  eachConcurrently,
  retried,
  waitForCopy,
} from './lib/delivery-orders.mjs';
import { closeHttp, parsed, send, sleep } from './lib/http.mjs';
import {
  adminClient,
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
  'usage: node scripts/bench/dispatch-platform.mjs [--orders n] [--clients n] [--rate assignments/s] [--duration seconds] [--direct creates] [--poll ms]';
const options = { orders: 300, clients: 16, rate: 5, duration: 10, direct: 1000, poll: 25 };
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const value = Number(inline ?? process.argv[++i]);
  if (!(name in options) || !(Number.isInteger(value) && value > 0)) {
    console.error(USAGE);
    process.exit(2);
  }
  options[name] = value;
}

const tag = randomBytes(4).toString('hex');
const RATE_LIMIT = '1000000';
const DATABASES = {
  gateway: `bench_dplat_gw_${tag}`,
  catalog: `bench_dplat_cat_${tag}`,
  ordering: `bench_dplat_ord_${tag}`,
  delivery: `bench_dplat_da_${tag}`,
  provider: `bench_dplat_prv_${tag}`,
};
/** Dispatches made (and required to reach Accepted) before the measures: the paths warmed, the copies current. */
const WARM_UP = 10;
/** Creates straight to the provider before its direct run. */
const DIRECT_WARM_UP = 100;
/** Orders of a phase whose stages are read after it. */
const STAGE_SAMPLE = 40;
/** How long the processes' idle CPU is measured each time. */
const IDLE_MS = 3000;
/** Orders created at a time during the set-up. */
const SETUP_CONCURRENCY = 16;
/** The polling's ceiling: reads of the tenant's delivery a second, over every order in flight. */
const READ_BUDGET_PER_SECOND = 200;
/** An order not Accepted this long after its assignment started is counted as failed. */
const ACCEPT_TIMEOUT_MS = 30_000;
/** Around Berlin ([lng, lat]): the account's service area; the branch and every drop-off lie inside. */
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

const failures = new Map();
const fail = (key) => failures.set(key, (failures.get(key) ?? 0) + 1);
const failureReport = () =>
  failures.size === 0 ? 'none failed' : [...failures].map(([k, n]) => `${n} × ${k}`).join(', ');

/** provider-delivery: the platform account the marketplace's connection and the direct bench use, and its API key. */
async function setUpProvider(url) {
  const { signBearerToken } = require('./shared/identity/dist/bearer-token.js');
  const secret = Buffer.from(readStackEnv().PROVIDER_ADMIN_TOKEN_SECRET, 'base64');
  const admin = client(url, signBearerToken(secret, { role: 'admin', sub: 'bench' }, new Date(Date.now() + 3_600_000)));
  const { account, webhookSecret } = await admin('POST', '/admin/v1/platform-accounts', {
    name: 'Bench Marketplace',
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
  return { url, accountId: account.id, apiKey, webhookSecret };
}

/** The tenant, its menu, zone and order source, and its connection to the provider with `core` enabled. */
async function setUpMarketplace(gatewayUrl, provider) {
  const admin = adminClient(gatewayUrl);
  const tenant = await admin('POST', '/api/admin/v1/tenants', {
    slug: `bench-dispatch-platform-${tag}`,
    name: 'Bench Kitchen',
    currencyCode: 'EUR',
    defaultLanguage: 'en',
  });
  const { token } = await admin('POST', `/api/admin/v1/tenants/${tenant.id}/tokens`, {});
  const t = client(gatewayUrl, token);

  const c = (path, body) => t('POST', `/api/tenant/v1/catalog${path}`, body);
  const food = await c('/tax-categories', { name: 'Food 7%', rate: 7, isInclusive: true });
  const branch = await c('/branches', {
    name: 'Bench',
    isActive: true,
    address: { line1: 'Torstrasse 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
    coordinates: { latitude: 52.53, longitude: 13.4 },
  });
  const category = await c('/categories', { name: 'Mains' });
  const product = await c('/products', {
    categoryId: category.id,
    name: 'Pizza',
    taxCategoryId: food.id,
    variants: [{ name: 'Large', price: 12, isDefault: true }],
  });
  const zone = await t('POST', '/api/tenant/v1/delivery-zones', {
    branchId: branch.id,
    name: 'Mitte',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [13.38, 52.52],
          [13.42, 52.52],
          [13.42, 52.54],
          [13.38, 52.54],
          [13.38, 52.52],
        ],
      ],
    },
    fee: 2.5,
  });

  // The order source: a published app with Orders.Create, installed and connected.
  const app = await admin('POST', '/api/admin/v1/apps', {
    slug: `bench-dispatch-platform-source-${tag}`,
    name: 'Bench Order Source',
  });
  const version = await admin('POST', `/api/admin/v1/apps/${app.id}/versions`, {
    authType: 'ApiKey',
    scopes: ['Orders.Create'],
    subscribedEvents: [],
    webhookUrl: null,
  });
  await admin('POST', `/api/admin/v1/apps/${app.id}/versions/${version.version}/publish`);
  const installation = await t('POST', '/api/tenant/v1/installations', {
    appId: app.id,
    contractVersion: version.version,
  });
  const connected = await t('POST', `/api/tenant/v1/installations/${installation.id}/connect`);
  const source = { apiKey: connected.credentials.apiKey };

  // Our provider, connected by the tenant; its core enabled by the administrator.
  const connection = await t('POST', '/api/tenant/v1/provider-connections', {
    name: 'Bench Fleet',
    baseUrl: `${provider.url}/v1`,
    apiKey: provider.apiKey,
    signingSecret: provider.webhookSecret,
    contract: { version: '1.1.0', revision: '2026-09-19' },
  });
  await admin('POST', `/api/admin/v1/provider-connections/${connection.connectionId}/capabilities`, {
    capability: 'core',
    enabled: true,
    reason: 'benchmark of our own provider',
  });
  return {
    gatewayUrl,
    token,
    branch,
    product,
    zone,
    source,
    connectionId: connection.connectionId,
    installationId: connection.installationId,
  };
}

/** Orders assigned and not yet seen Accepted (or ended): the polling shares its budget among them. */
let inFlight = 0;
/** Reads of the tenant's delivery made by the polling. */
let reads = 0;
/** Latencies of the assign requests themselves (answered 201), ms. */
let assignLatencies = [];
/** By order reaching Accepted: when (epoch ms) its assignment started and when a read showed it Accepted. */
const seen = new Map();
const pollInterval = () => Math.max(options.poll, (inFlight * 1000) / READ_BUDGET_PER_SECOND);

/**
 * One dispatch: the tenant assigns the order to the connection's installation, then reads the
 * delivery until its live assignment (this one) is Accepted. The ms from `startedAt` (the
 * assignment's start, or its scheduled start) until the read that showed Accepted was answered;
 * undefined, with the failure counted, when the assignment was refused, ended otherwise or was
 * not Accepted within ACCEPT_TIMEOUT_MS.
 */
async function dispatchOne(m, orderId, startedAt = performance.now()) {
  inFlight++;
  try {
    const assigned = await send(
      `${m.gatewayUrl}/api/tenant/v1/deliveries/${orderId}/assign`,
      'POST',
      { authorization: `Bearer ${m.token}` },
      { installationId: m.installationId },
    );
    if (assigned.status !== 201) {
      fail(`assign ${assigned.status} ${parsed(assigned)?.code ?? ''}`.trim());
      return undefined;
    }
    assignLatencies.push(assigned.ms);
    const { assignmentId } = JSON.parse(assigned.body);
    for (;;) {
      await sleep(pollInterval());
      const res = await send(`${m.gatewayUrl}/api/tenant/v1/deliveries/${orderId}`, 'GET', {
        authorization: `Bearer ${m.token}`,
      });
      reads++;
      const delivery = res.status === 200 ? parsed(res) : undefined;
      if (delivery === undefined) fail(`read ${res.status} ${parsed(res)?.code ?? ''}`.trim()); // read again
      const live = delivery?.live;
      if (live?.assignmentId === assignmentId && live.statusName === 'Accepted') {
        const took = performance.now() - startedAt;
        seen.set(orderId, { startedAt: Date.now() - took, seenAt: Date.now() });
        return took;
      }
      if (delivery !== undefined && live?.assignmentId !== assignmentId) {
        const ended = delivery.history.find((a) => a.assignmentId === assignmentId);
        fail(`assignment ended ${ended?.statusName ?? 'unseen'}`);
        return undefined;
      }
      if (live !== undefined && live.statusName !== 'Assigned') {
        fail(`assignment ${live.statusName}, not Accepted`); // InTransit or later without Accepted seen
        return undefined;
      }
      if (performance.now() - startedAt > ACCEPT_TIMEOUT_MS) {
        fail(`not Accepted within ${ACCEPT_TIMEOUT_MS / 1000} s`);
        return undefined;
      }
    }
  } finally {
    inFlight--;
  }
}

/** Closed loop: `clients` workers, each dispatching its next order once the last is Accepted. */
async function capacity(m, orderIds, clients) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < orderIds.length) {
        const ms = await dispatchOne(m, orderIds[next++]);
        if (ms !== undefined) latencies.push(ms);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { ok: latencies.length, seconds, perSecond: latencies.length / seconds, latencies };
}

/** Open loop: `rate` assignments a second for `duration` seconds, latency from each scheduled start. */
async function steady(m, orderIds) {
  const interval = 1000 / options.rate;
  const latencies = [];
  const pending = [];
  const started = performance.now();
  for (let i = 0; i < orderIds.length; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(
      dispatchOne(m, orderIds[i], due).then((ms) => {
        if (ms !== undefined) latencies.push(ms); // from the scheduled start: a queue is not hidden
      }),
    );
  }
  await Promise.all(pending);
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

/**
 * Where the time of a dispatch goes, from the service's own timestamps, read after the phase for
 * up to `SAMPLE` of its orders (not measured): the assign request until the assignment was made
 * (the gateway, the copies' wait, the write), until the dispatch was opened (`chosen`: the
 * delivery.assigned event over Kafka to the provider-dispatch consumer), until the provider's
 * answer was recorded (`created`: the dispatcher's claim and the create), until the assignment was
 * Accepted (`respondedAtUtc`), and until a read showed it (the polling). p50 and p90 of each, ms.
 */
async function stages(m, orderIds) {
  const reached = orderIds.filter((id) => seen.has(id));
  const step = Math.max(1, Math.floor(reached.length / STAGE_SAMPLE));
  const sample = reached.filter((_, i) => i % step === 0).slice(0, STAGE_SAMPLE);
  const names = ['assigned', 'dispatch opened', 'create answered', 'Accepted', 'read'];
  const spans = names.map(() => []);
  const t = client(m.gatewayUrl, m.token);
  for (const orderId of sample) {
    const { startedAt, seenAt } = seen.get(orderId);
    const read = await Promise.all([
      t('GET', `/api/tenant/v1/deliveries/${orderId}`),
      t('GET', `/api/tenant/v1/deliveries/${orderId}/dispatch`),
    ]).catch(() => undefined); // not counted: a figure of the report, not of the run
    if (!read) continue;
    const [{ live }, { dispatches }] = read;
    const log = dispatches.find((d) => d.assignmentId === live?.assignmentId)?.log ?? [];
    const at = (decision) => Date.parse(log.find((l) => l.decision === decision)?.at ?? '');
    const times = [startedAt, Date.parse(live?.assignedAtUtc), at('chosen'), at('created')];
    times.push(Date.parse(live?.respondedAtUtc), seenAt);
    if (times.some(Number.isNaN)) continue;
    for (let i = 0; i < names.length; i++) spans[i].push(times[i + 1] - times[i]);
  }
  if (spans[0].length === 0) return 'n/a';
  return names
    .map((name, i) => {
      const sorted = spans[i].sort((a, b) => a - b);
      return `${name} +${Math.round(percentile(sorted, 50))}/${Math.round(percentile(sorted, 90))}`;
    })
    .join(', ')
    .concat(` (ms, p50/p90 of ${spans[0].length} orders)`);
}

let nextDirect = 0;
/** A valid create request inside BERLIN, its own idempotencyKey (= platformReference). */
function directRequest() {
  const n = nextDirect++;
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

/** The direct bench: `count` fresh creates to provider-delivery by `clients` workers (closed loop). */
async function direct(provider, count, clients) {
  const bodies = Array.from({ length: count }, directRequest);
  const latencies = [];
  let index = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (index < bodies.length) {
        const res = await send(
          `${provider.url}/v1/deliveries`,
          'POST',
          { authorization: `Bearer ${provider.apiKey}` },
          bodies[index++],
        );
        const answer = parsed(res);
        if (res.status === 200 && answer?.accepted === true) latencies.push(res.ms);
        else fail(`direct ${res.status} ${answer?.code ?? answer?.rejectionReason ?? ''}`.trim());
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { ok: latencies.length, seconds, perSecond: latencies.length / seconds, latencies };
}

/** The stack's MongoDB-wire engine, Kafka broker and Redis processes (for their CPU), when the stack says. */
function stackProcesses() {
  const run = spawnSync('bash', [join(root, 'scripts/stack/stack.sh'), 'status', '--json'], { encoding: 'utf8' });
  try {
    const status = JSON.parse(run.stdout);
    return { engine: status.mongodb?.pid, kafka: status.kafka?.pid, redis: status.redis?.pid };
  } catch {
    return {};
  }
}

const SERVICE_NAMES = ['gateway-auth', 'delivery-assignment', 'provider-delivery', 'ordering-pricing', 'catalog'];
let stackPids = {};
/** CPU ms used so far, by process. */
const cpuNow = () => ({
  ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, cpuMs(processes[name])])),
  ...Object.fromEntries(Object.entries(stackPids).map(([name, pid]) => [name, pid && cpuMs({ pid })])),
});
/** "name N ms, ..." of the CPU used between two readings, per `per` operations. */
function cpuPer(before, after, per, names = Object.keys(before)) {
  return names
    .map((name) => {
      const used = before[name] === undefined || after[name] === undefined ? undefined : after[name] - before[name];
      return `${name} ${used === undefined || per === 0 ? 'n/a' : `${(used / per).toFixed(1)} ms`}`;
    })
    .join(', ');
}

/** CPU ms a second of each process over IDLE_MS with nothing sent. */
async function idleCpu() {
  const before = cpuNow();
  await sleep(IDLE_MS);
  return cpuPer(before, cpuNow(), IDLE_MS / 1000);
}

const ms = (value) => `${value.toFixed(1)} ms`;
/** The phase's polling and its assign requests alone, then both counters cleared. */
function phaseDetail(dispatched) {
  const assigns = assignLatencies.sort((a, b) => a - b);
  const line = `the assign request alone p50 ${ms(percentile(assigns, 50))}, p99 ${ms(percentile(assigns, 99))}; ${(reads / Math.max(1, dispatched)).toFixed(1)} reads a delivery`;
  assignLatencies = [];
  reads = 0;
  return line;
}
let exitCode = 0;
const summary = [];
try {
  const cpus = os.cpus();
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  const [catalogUrl, orderingUrl, deliveryUrl, providerUrl] = await Promise.all([
    startService('catalog', { MONGO_DATABASE: DATABASES.catalog }),
    startService('ordering-pricing', {
      MONGO_DATABASE: DATABASES.ordering,
      KAFKA_CONSUMER_GROUP_PREFIX: DATABASES.ordering,
      CATALOG_COPY_START: 'latest',
      DELIVERY_COPY_START: 'latest',
    }),
    startService('delivery-assignment', {
      MONGO_DATABASE: DATABASES.delivery,
      KAFKA_CONSUMER_GROUP_PREFIX: DATABASES.delivery,
      COPIES_START: 'latest',
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
    }),
    // One client address at full speed: the per-IP limit of the platform API out of the way (the account's is 1,000,000).
    startService('provider-delivery', {
      MONGO_DATABASE: DATABASES.provider,
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
      PLATFORM_RATE_LIMIT_PER_IP: '100000000',
    }),
  ]);
  const gatewayUrl = await startService('gateway-auth', {
    MONGO_DATABASE: DATABASES.gateway,
    REDIS_KEY_PREFIX: `bench:${tag}:`,
    CATALOG_URL: catalogUrl,
    ORDERING_URL: orderingUrl,
    DELIVERY_URL: deliveryUrl,
    RATE_LIMIT_PER_IP: RATE_LIMIT,
    RATE_LIMIT_PER_INSTALLATION: RATE_LIMIT,
    TENANT_RATE_LIMIT_PER_IP: RATE_LIMIT,
    TENANT_RATE_LIMIT_PER_TENANT: RATE_LIMIT,
    ADMIN_RATE_LIMIT_PER_IP: RATE_LIMIT,
    ADMIN_RATE_LIMIT_PER_ADMIN: RATE_LIMIT,
  });
  stackPids = stackProcesses();
  const provider = await setUpProvider(providerUrl);
  const m = await setUpMarketplace(gatewayUrl, provider);
  await waitForCopy(readStackEnv().MONGO_URL, DATABASES.ordering, m.product.id);

  const steadyCount = options.rate * options.duration;
  const preparing = Date.now();
  const orderIds = await createDeliveryOrders(m, WARM_UP + options.orders + steadyCount, SETUP_CONCURRENCY);
  const created = Date.now();
  const warmIds = orderIds.slice(0, WARM_UP);
  const capacityIds = orderIds.slice(WARM_UP, WARM_UP + options.orders);
  const steadyIds = orderIds.slice(WARM_UP + options.orders);
  const warm = await capacity(m, warmIds, 2);
  if (warm.ok !== WARM_UP) throw new Error(`warm-up dispatches did not reach Accepted: ${failureReport()}`);
  console.log(
    `set-up: provider connection ${m.connectionId} (installation ${m.installationId}) to the account ${provider.accountId}; ${orderIds.length} Delivery orders created in ${((created - preparing) / 1000).toFixed(1)} s; ${WARM_UP} dispatched to warm up (p50 ${ms(percentile(warm.latencies, 50))}); retries: ${describeRetries()}`,
  );

  // What the processes use doing nothing (consumers, dispatch loops, metrics), to judge the figures by.
  phaseDetail(0);
  console.log(`  idle CPU per second: ${await idleCpu()}`);

  // 1. Capacity.
  failures.clear();
  let cpuBefore = cpuNow();
  const cap = await capacity(m, capacityIds, options.clients);
  let cpuAfter = cpuNow();
  const capLine = `${cap.perSecond.toFixed(1)} deliveries dispatched/s with ${options.clients} clients (${cap.ok} of ${capacityIds.length} Accepted in ${cap.seconds.toFixed(1)} s), assign → Accepted p50 ${ms(percentile(cap.latencies, 50))}, p99 ${ms(percentile(cap.latencies, 99))}`;
  console.log(`capacity: ${capLine}; ${phaseDetail(cap.ok)}; ${failureReport()}`);
  console.log(`  CPU per dispatched delivery: ${cpuPer(cpuBefore, cpuAfter, cap.ok)}`);
  console.log(`  stages: ${await stages(m, capacityIds)}`);
  summary.push(`capacity: ${capLine}`);

  // 2. Steady rate.
  failures.clear();
  cpuBefore = cpuNow();
  const s = await steady(m, steadyIds);
  cpuAfter = cpuNow();
  const steadyLine = `steady ${options.rate} assignments/s for ${options.duration} s: ${s.achieved.toFixed(1)} dispatched/s, assign → Accepted p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (${s.ok} of ${steadyIds.length} Accepted)`;
  console.log(`${steadyLine}; ${phaseDetail(s.ok)}; ${failureReport()}`);
  console.log(`  CPU per dispatched delivery: ${cpuPer(cpuBefore, cpuAfter, s.ok)}`);
  console.log(`  stages: ${await stages(m, steadyIds)}`);
  summary.push(steadyLine);

  // 3. The direct provider bench, the same account. Its dispatcher reads every delivery still
  // looking for a driver (all of them: no driver here) each round, so its idle load grows with the run.
  console.log(`  idle CPU per second before the direct run: ${await idleCpu()}`);
  failures.clear();
  const directWarm = await direct(provider, DIRECT_WARM_UP, options.clients);
  if (directWarm.ok !== DIRECT_WARM_UP) throw new Error(`direct warm-up creates failed: ${failureReport()}`);
  failures.clear();
  cpuBefore = cpuNow();
  const d = await direct(provider, options.direct, options.clients);
  cpuAfter = cpuNow();
  const directLine = `${d.perSecond.toFixed(1)} creates/s with ${options.clients} clients (${d.ok} of ${options.direct} in ${d.seconds.toFixed(1)} s), p50 ${ms(percentile(d.latencies, 50))}, p99 ${ms(percentile(d.latencies, 99))}`;
  console.log(`direct POST /v1/deliveries: ${directLine}; ${failureReport()}`);
  console.log(
    `  CPU per create: ${cpuPer(cpuBefore, cpuAfter, d.ok, ['provider-delivery', ...Object.keys(stackPids)])}`,
  );
  summary.push(`direct provider: ${directLine}`);
  const ratio = d.perSecond / cap.perSecond;
  summary.push(
    `the platform's overhead: the provider alone takes ${ratio.toFixed(1)} x the deliveries a second; assign → Accepted p50 is ${(percentile(cap.latencies, 50) / percentile(d.latencies, 50)).toFixed(1)} x the direct create's p50 at the same client count`,
  );

  console.log(
    `\nbench:dispatch-platform summary (assign → Accepted through the gateway, ${options.clients} clients; polled every ${options.poll} ms at the soonest)`,
  );
  for (const line of summary) console.log(`  ${line}`);
  console.log(`  idle CPU per second after the run: ${await idleCpu()}`);
} catch (error) {
  console.error(`bench:dispatch-platform failed: ${error.message}`);
  exitCode = 1;
} finally {
  await stopServices();
  await dropDatabases(Object.values(DATABASES)).catch(() => undefined);
  closeHttp();
}
process.exit(exitCode);
