#!/usr/bin/env node
// Delivery mutations through the gateway (Partner API endpoints 7 to 13, served by
// delivery-assignment) with the full stack: gateway-auth, catalog, ordering-pricing and
// delivery-assignment as their own processes with their own databases, on the local stack.
//   1. a tenant with a branch (address and coordinates), one simple product and a delivery zone,
//      a connected order source and a connected delivery provider; then `--orders` Delivery orders
//      created by the source and assigned to the provider by the tenant (not measured);
//   2. capacity: `--connections` concurrent clients for `--duration` seconds, each on its own
//      order at a time: accept, 10 updates (driver, ETA, tracking in turn), status 4 then 5, next
//      order. Mutations answered 200 per second;
//   3. steady rate: `--rate` mutations per second, started on schedule whatever the answers (open
//      loop), for `--duration` seconds, the same mix (per 13: an accept of a fresh order, 10
//      updates spread over the accepted orders, a status 4 and a status 5): p50/p99/max latency
//      from the scheduled start, and the rate achieved.
// Every Partner call has its own Idempotency-Key. A benchmark, not a test: it reports mutations
// not answered 200 and fails only when the set-up does.
//
//   npm run bench:deliveries [-- --rate 100 --duration 10 --connections 16 --orders 600]
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { readStackEnv } from '../services.mjs';
import {
  createDeliveryOrders,
  describeRetries,
  eachConcurrently,
  retried,
  waitForCopy,
} from './lib/delivery-orders.mjs';
import { closeHttp, codeOf, send, sleep } from './lib/http.mjs';
import {
  adminClient,
  client,
  cpuMs,
  dropDatabases,
  percentile,
  processes,
  startService,
  stopServices,
  require,
} from './lib/processes.mjs';

const options = { rate: 100, duration: 10, connections: 16, orders: 0 };
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const value = Number(inline ?? process.argv[++i]);
  if (!(name in options) || !(Number.isInteger(value) && value > 0)) {
    console.error(
      'usage: node scripts/bench/deliveries.mjs [--rate mutations/s] [--duration seconds] [--connections n] [--orders n]',
    );
    process.exit(2);
  }
  options[name] = value;
}
const tag = randomBytes(4).toString('hex');
const RATE_LIMIT = '1000000';
const DATABASES = {
  gateway: `bench_deliv_gw_${tag}`,
  catalog: `bench_deliv_cat_${tag}`,
  ordering: `bench_deliv_ord_${tag}`,
  delivery: `bench_deliv_da_${tag}`,
};
const DELIVERY_SCOPES = [
  'Delivery.Accept',
  'Delivery.Reject',
  'Delivery.Cancel',
  'Delivery.UpdateStatus',
  'Delivery.UpdateDriver',
  'Delivery.UpdateEta',
  'Delivery.UpdateTracking',
  'Orders.Read',
];
/** Updates (driver, ETA, tracking) per order between its accept and its status 4 and 5. */
const UPDATES_PER_ORDER = 10;
/** Mutations per order: accept, the updates, status 4, status 5. */
const CYCLE = UPDATES_PER_ORDER + 3;
/** Orders accepted before the steady run, for its updates to spread over. */
const STEADY_POOL = 48;
/** Mutations per second the default order count is made for; clients that run out keep updating. */
const CAPACITY_ASSUMED = 400;
/** Orders created, and assigned, at a time during the set-up. */
const SETUP_CONCURRENCY = 16;

const steadyFresh = Math.ceil((options.rate * options.duration) / CYCLE) + 8;
const capacityOrders =
  options.orders > 0
    ? Math.max(options.connections, options.orders - STEADY_POOL - steadyFresh)
    : options.connections + Math.ceil((options.duration * CAPACITY_ASSUMED) / CYCLE);

async function setUp(gatewayUrl) {
  const admin = adminClient(gatewayUrl);
  const tenant = await admin('POST', '/api/admin/v1/tenants', {
    slug: `bench-deliveries-${tag}`,
    name: 'Bench Kitchen',
    currencyCode: 'EUR',
    defaultLanguage: 'en',
  });
  const { token } = await admin('POST', `/api/admin/v1/tenants/${tenant.id}/tokens`, {});
  const t = client(gatewayUrl, token);

  /**
   * A published app with these scopes, installed and connected: its installation id and API key. A
   * delivery provider subscribes to delivery.assigned (required; no webhook sender runs here, so
   * nothing is sent to its URL).
   */
  const connectedApp = async (slug, name, scopes, events = []) => {
    const app = await admin('POST', '/api/admin/v1/apps', { slug: `bench-deliveries-${slug}-${tag}`, name });
    const version = await admin('POST', `/api/admin/v1/apps/${app.id}/versions`, {
      authType: 'ApiKey',
      scopes,
      subscribedEvents: events,
      webhookUrl: events.length > 0 ? 'https://bench-provider.example.com/webhooks' : null,
    });
    await admin('POST', `/api/admin/v1/apps/${app.id}/versions/${version.version}/publish`);
    const installation = await t('POST', '/api/tenant/v1/installations', {
      appId: app.id,
      contractVersion: version.version,
    });
    const connected = await t('POST', `/api/tenant/v1/installations/${installation.id}/connect`);
    return { installationId: installation.id, apiKey: connected.credentials.apiKey };
  };

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
  const source = await connectedApp('source', 'Bench Order Source', ['Orders.Create']);
  const provider = await connectedApp('provider', 'Bench Delivery Provider', DELIVERY_SCOPES, ['delivery.assigned']);
  return { gatewayUrl, token, branch, product, zone, source, provider };
}

/**
 * Assigns every order to the provider. Right after its creation the service's copies may lag:
 * 503 delivery.copies_behind (or 404 while the order is not copied yet) is retried for up to 60 s,
 * and so is 504 or no answer (assigning again to the same installation is a 200).
 */
async function assignOrders(m, orderIds) {
  await eachConcurrently(orderIds, SETUP_CONCURRENCY, async (orderId) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await send(
        `${m.gatewayUrl}/api/tenant/v1/deliveries/${orderId}/assign`,
        'POST',
        { authorization: `Bearer ${m.token}` },
        { installationId: m.provider.installationId },
      );
      if (res.status === 201 || res.status === 200) return; // 200: a try that timed out assigned it
      if (![0, 404, 503, 504].includes(res.status) || Date.now() > deadline)
        throw new Error(`assignment of order ${orderId}: ${res.status} ${res.body.slice(0, 500)}`);
      retried(`assign ${res.status} ${codeOf(res)}`.trim());
      await sleep(250);
    }
  });
}

const failures = new Map();
const failureReport = () =>
  failures.size === 0 ? 'none failed' : [...failures].map(([k, n]) => `${n} × ${k}`).join(', ');

let updateCount = 0;
/** The next update of an order, in turn: driver, ETA, tracking. */
function nextUpdate(orderId) {
  const n = updateCount++;
  const path = `/api/partner/v1/deliveries/${orderId}`;
  switch (n % 3) {
    case 0:
      return {
        method: 'PATCH',
        path: `${path}/driver`,
        body: { driverName: `Driver ${n}`, driverPhone: '+49 30 7654321' },
      };
    case 1:
      return {
        method: 'PATCH',
        path: `${path}/eta`,
        body: { etaUtc: new Date(Date.now() + 20 * 60_000).toISOString() },
      };
    default:
      return { method: 'PATCH', path: `${path}/tracking`, body: { trackingUrl: `https://track.example.com/d/${n}` } };
  }
}
const accept = (orderId) => ({ method: 'POST', path: `/api/partner/v1/deliveries/${orderId}/accept` });
const status = (orderId, targetStatus) => ({
  method: 'PATCH',
  path: `/api/partner/v1/deliveries/${orderId}/status`,
  body: { targetStatus },
});

/** One Partner API mutation by the provider; true when answered 200, else the failure is counted. */
async function mutated(m, { method, path, body }) {
  const res = await send(
    m.gatewayUrl + path,
    method,
    { authorization: `ApiKey ${m.provider.apiKey}`, 'idempotency-key': randomUUID() },
    body,
  );
  if (res.status === 200) return true;
  const key = `${res.status} ${codeOf(res)}`.trim();
  failures.set(key, (failures.get(key) ?? 0) + 1);
  return false;
}

/**
 * Capacity: each client takes the next assigned order, accepts it, updates it, moves it to 4
 * and 5, and takes the next. A client with no order left keeps updating its last one.
 */
async function capacity(m, orderIds) {
  const deadline = Date.now() + options.duration * 1000;
  const counts = { stateChanges: 0, updates: 0 };
  let next = 0;
  let ranOut = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (Date.now() < deadline && next < orderIds.length) {
        const orderId = orderIds[next++];
        if (!(await mutated(m, accept(orderId)))) continue;
        counts.stateChanges++;
        for (let k = 0; k < UPDATES_PER_ORDER && Date.now() < deadline; k++)
          if (await mutated(m, nextUpdate(orderId))) counts.updates++;
        if (next >= orderIds.length) {
          ranOut++;
          while (Date.now() < deadline) if (await mutated(m, nextUpdate(orderId))) counts.updates++;
          return;
        }
        if (Date.now() >= deadline) return;
        if (!(await mutated(m, status(orderId, 4)))) continue;
        counts.stateChanges++;
        if (Date.now() >= deadline) return;
        if (await mutated(m, status(orderId, 5))) counts.stateChanges++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  return { perSecond: (counts.stateChanges + counts.updates) / seconds, ...counts, ranOut };
}

/**
 * Steady rate, open loop: mutation i starts at its scheduled time whatever the answers before.
 * Per CYCLE: an accept of a fresh assigned order (it joins the pool once accepted), updates on
 * the pool's orders in turn, status 4 on the pool's oldest order (it leaves the pool) and status
 * 5 on an order whose status 4 was answered. Where a state change has no order ready, an update
 * runs instead.
 */
async function steady(m, pool, fresh) {
  const total = options.rate * options.duration;
  const interval = 1000 / options.rate;
  const latencies = { all: [], updates: [], stateChanges: [] };
  const inTransit = [];
  let nextFresh = 0;
  let turn = 0;
  const started = performance.now();
  const inFlight = [];
  const update = () => ({ kind: 'updates', request: nextUpdate(pool[turn++ % pool.length]) });
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const slot = i % CYCLE;
    let planned;
    let then = () => undefined;
    if (slot === 0 && nextFresh < fresh.length) {
      const orderId = fresh[nextFresh++];
      planned = { kind: 'stateChanges', request: accept(orderId) };
      then = () => pool.push(orderId);
    } else if (slot === CYCLE - 2 && pool.length > STEADY_POOL / 2) {
      const orderId = pool.shift();
      planned = { kind: 'stateChanges', request: status(orderId, 4) };
      then = () => inTransit.push(orderId);
    } else if (slot === CYCLE - 1 && inTransit.length > 0) {
      planned = { kind: 'stateChanges', request: status(inTransit.shift(), 5) };
    } else {
      planned = update();
    }
    inFlight.push(
      mutated(m, planned.request).then((ok) => {
        if (!ok) return;
        const latency = performance.now() - due; // from the scheduled start: a queue is not hidden
        latencies.all.push(latency);
        latencies[planned.kind].push(latency);
        then();
      }),
    );
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  for (const list of Object.values(latencies)) list.sort((a, b) => a - b);
  const figures = (list) => ({ p50: percentile(list, 50), p99: percentile(list, 99), max: list.at(-1) ?? NaN });
  return {
    achieved: latencies.all.length / seconds,
    ...figures(latencies.all),
    updates: { count: latencies.updates.length, ...figures(latencies.updates) },
    stateChanges: { count: latencies.stateChanges.length, ...figures(latencies.stateChanges) },
  };
}

const ms = (value) => `${value.toFixed(1)} ms`;
let exitCode = 0;
try {
  const cpus = os.cpus();
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  const catalogUrl = await startService('catalog', { MONGO_DATABASE: DATABASES.catalog });
  const orderingUrl = await startService('ordering-pricing', {
    MONGO_DATABASE: DATABASES.ordering,
    KAFKA_CONSUMER_GROUP_PREFIX: DATABASES.ordering,
    CATALOG_COPY_START: 'latest',
    DELIVERY_COPY_START: 'latest',
  });
  const deliveryUrl = await startService('delivery-assignment', {
    MONGO_DATABASE: DATABASES.delivery,
    KAFKA_CONSUMER_GROUP_PREFIX: DATABASES.delivery,
    COPIES_START: 'latest',
  });
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
  const m = await setUp(gatewayUrl);
  await waitForCopy(readStackEnv().MONGO_URL, DATABASES.ordering, m.product.id);

  const preparing = Date.now();
  const orderIds = await createDeliveryOrders(m, capacityOrders + STEADY_POOL + steadyFresh, SETUP_CONCURRENCY);
  const created = Date.now();
  await assignOrders(m, orderIds);
  const pool = orderIds.slice(0, STEADY_POOL);
  const fresh = orderIds.slice(STEADY_POOL, STEADY_POOL + steadyFresh);
  const capacityIds = orderIds.slice(STEADY_POOL + steadyFresh);
  // The steady run's pool, accepted and updated once: also the warm-up of the mutation paths.
  for (const orderId of pool)
    if (!(await mutated(m, accept(orderId))) || !(await mutated(m, nextUpdate(orderId))))
      throw new Error(`warm-up mutation failed: ${failureReport()}`);
  console.log(
    `set-up: ${orderIds.length} Delivery orders created in ${((created - preparing) / 1000).toFixed(1)} s, assigned in ${((Date.now() - created) / 1000).toFixed(1)} s; ${pool.length} accepted for the steady run; retries: ${describeRetries()}`,
  );

  const cpuOf = () => ({
    gateway: cpuMs(processes['gateway-auth']),
    delivery: cpuMs(processes['delivery-assignment']),
    ordering: cpuMs(processes['ordering-pricing']),
  });
  const cpuBefore = cpuOf();
  const cap = await capacity(m, capacityIds);
  const cpuAfter = cpuOf();
  const cpuShare = (name) =>
    cpuBefore[name] === undefined || cpuAfter[name] === undefined
      ? 'n/a'
      : `${Math.round((cpuAfter[name] - cpuBefore[name]) / (options.duration * 10))} %`;
  console.log(
    `capacity: ${cap.perSecond.toFixed(1)} delivery mutations/s answered 200 with ${options.connections} concurrent clients for ${options.duration} s (${cap.updates} updates, ${cap.stateChanges} state changes; CPU: gateway ${cpuShare('gateway')}, delivery-assignment ${cpuShare('delivery')}, ordering ${cpuShare('ordering')} of one core); ${failureReport()}`,
  );
  if (cap.ranOut > 0)
    console.log(
      `  ${cap.ranOut} of ${options.connections} clients ran out of the ${capacityIds.length} prepared orders and kept updating their last one (more with --orders)`,
    );
  console.log(`  target: at least 200 mutations/s: ${cap.perSecond >= 200 ? 'met' : 'NOT met'}`);

  failures.clear();
  const s = await steady(m, pool, fresh);
  console.log(
    `steady rate ${options.rate} mutations/s for ${options.duration} s: ${s.achieved.toFixed(1)} mutations/s answered 200, latency p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}; ${failureReport()}`,
  );
  console.log(
    `  updates (${s.updates.count}): p50 ${ms(s.updates.p50)}, p99 ${ms(s.updates.p99)}, max ${ms(s.updates.max)}; state changes (${s.stateChanges.count}): p50 ${ms(s.stateChanges.p50)}, p99 ${ms(s.stateChanges.p99)}, max ${ms(s.stateChanges.max)}`,
  );
  console.log(`  target: p99 at most 100 ms: ${s.p99 <= 100 ? 'met' : 'NOT met'}`);
} catch (error) {
  console.error(`bench:deliveries failed: ${error.message}`);
  exitCode = 1;
} finally {
  await stopServices();
  await dropDatabases(Object.values(DATABASES)).catch(() => undefined);
  closeHttp();
}
process.exit(exitCode);
