#!/usr/bin/env node
// Order creation through the gateway with the full stack: gateway-auth, catalog, ordering-pricing
// and webhook-sender as their own processes with their own databases, on the local stack; each
// order's orders.created webhook goes to a local receiver answering 200.
//   1. a tenant with a menu (tax categories, a branch, nested modifier groups, 10 products) and a
//      connected order source; waits until ordering's copy of the catalog has it;
//   2. capacity: as many orders as `--connections` concurrent clients can create in `--duration`
//      seconds (orders/s);
//   3. steady rate: `--rate` orders per second, started on schedule whatever the answers (open
//      loop), for `--duration` seconds: p50/p99 latency from the scheduled start, and the rate
//      achieved.
//   After 2 and 3: the CPU each process spent per order created (lib/cpu-meter.mjs: the four
//   services, Kafka, the schema registry, the engine and Redis), counted until every order's
//   webhook has arrived, and their sum.
//   4. with --preload N: growth. Create and read latency at the steady rate on the fresh database,
//      then N orders of the same tenant are added to ordering's database (copies of a real order
//      with their claims), and the same measurement runs again: the ratios say whether lookups
//      grow with the data.
// Every order: 3 lines with nested modifiers, a promotion code, its own Idempotency-Key and
// externalOrderId. A benchmark, not a test: it reports orders not created (not 201) and fails
// only when the set-up does.
//
//   npm run bench:orders [-- --rate 50 --duration 10 --connections 8]
//   npm run bench:orders -- --preload 100000 --rate 20      (growth; skips the capacity phase)
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import os from 'node:os';
import { readStackEnv } from '../services.mjs';
import {
  adminClient,
  client,
  dropDatabases,
  percentile,
  processes,
  startService,
  stopServices,
  require,
} from './lib/processes.mjs';
import { cpuMeter, formatCpu } from './lib/cpu-meter.mjs';

const options = { rate: 50, duration: 10, connections: 8, preload: 0 };
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const value = Number(inline ?? process.argv[++i]);
  if (!(name in options) || !(Number.isInteger(value) && value > 0)) {
    console.error(
      'usage: node scripts/bench/orders.mjs [--rate orders/s] [--duration seconds] [--connections n] [--preload orders]',
    );
    process.exit(2);
  }
  options[name] = value;
}
const tag = randomBytes(4).toString('hex');
const RATE_LIMIT = '1000000';
const DATABASES = {
  gateway: `bench_orders_gw_${tag}`,
  catalog: `bench_orders_cat_${tag}`,
  ordering: `bench_orders_ord_${tag}`,
  webhooks: `bench_orders_wh_${tag}`,
};

/** The installation's webhook endpoint: answers 200 and counts the orders.created deliveries. */
const receiver = { delivered: 0, url: '' };
const receiverServer = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    receiver.delivered++;
    res.writeHead(200).end();
  });
});
async function startReceiver() {
  await new Promise((resolve) => receiverServer.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${receiverServer.address().port}/hooks`;
}

/** Waits (30 s at most) until the receiver has had `count` webhooks: the sender's work is counted too. */
async function webhooksArrived(count) {
  const deadline = Date.now() + 30_000;
  while (receiver.delivered < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return receiver.delivered >= count ? '' : ` (${count - receiver.delivered} webhooks still missing after 30 s)`;
}

async function setUp(gatewayUrl) {
  const admin = adminClient(gatewayUrl);
  const tenant = await admin('POST', '/api/admin/v1/tenants', {
    slug: `bench-orders-${tag}`,
    name: 'Bench Bistro',
    currencyCode: 'EUR',
    defaultLanguage: 'en',
  });
  const { token } = await admin('POST', `/api/admin/v1/tenants/${tenant.id}/tokens`, {});
  const app = await admin('POST', '/api/admin/v1/apps', {
    slug: `bench-orders-app-${tag}`,
    name: 'Bench Order Source',
  });
  const version = await admin('POST', `/api/admin/v1/apps/${app.id}/versions`, {
    authType: 'ApiKey',
    scopes: ['Catalog.Read', 'Orders.Create'],
    subscribedEvents: ['orders.created'],
    webhookUrl: receiver.url,
  });
  await admin('POST', `/api/admin/v1/apps/${app.id}/versions/${version.version}/publish`);
  const t = client(gatewayUrl, token);
  const installation = await t('POST', '/api/tenant/v1/installations', {
    appId: app.id,
    contractVersion: version.version,
  });
  const connected = await t('POST', `/api/tenant/v1/installations/${installation.id}/connect`);

  const c = (path, body) => t('POST', `/api/tenant/v1/catalog${path}`, body);
  const food = await c('/tax-categories', { name: 'Food 7%', rate: 7, isInclusive: true });
  const drinks = await c('/tax-categories', { name: 'Drinks 19%', rate: 19, isInclusive: false });
  const branch = await c('/branches', {
    name: 'Bench',
    isActive: true,
    address: { line1: 'Torstrasse 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
    coordinates: { latitude: 52.53, longitude: 13.4 },
  });
  const category = await c('/categories', { name: 'Mains' });
  const cheeseType = await c('/modifier-groups', {
    name: 'Cheese type',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    options: [
      { name: 'Mozzarella', price: 0 },
      { name: 'Cheddar', price: 0.5 },
    ],
  });
  const toppings = await c('/modifier-groups', {
    name: 'Toppings',
    minSelections: 0,
    maxSelections: 2,
    isRequired: false,
    options: [
      { name: 'Cheese', price: 1, childGroupIds: [cheeseType.id] },
      { name: 'Olives', price: 0.8 },
    ],
  });
  const crust = await c('/modifier-groups', {
    name: 'Crust',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    options: [
      { name: 'Thin', price: 0 },
      { name: 'Thick', price: 1.5 },
    ],
  });
  const products = [];
  for (let i = 0; i < 10; i++) {
    products.push(
      await c('/products', {
        categoryId: category.id,
        name: `Pizza ${i}`,
        taxCategoryId: i % 2 ? drinks.id : food.id,
        variants: [{ name: 'Large', price: 12 + i, isDefault: true, modifierGroupIds: [crust.id, toppings.id] }],
      }),
    );
  }
  await t('POST', '/api/tenant/v1/promotions', { code: 'BENCH10', type: 'percentage', percent: 10 });
  return { apiKey: connected.credentials.apiKey, branch, products, crust, toppings, cheeseType };
}

function orderBody(m) {
  const sel = (g, o, parent) => ({
    selectionId: randomUUID(),
    modifierGroupId: g.id,
    modifierOptionId: g.options[o].id,
    parentSelectionId: parent?.selectionId ?? null,
  });
  return JSON.stringify({
    branchId: m.branch.id,
    orderMode: 2,
    customerName: 'Bench Customer',
    customerPhone: '+49 30 1234567',
    paymentMethod: 1,
    externalOrderId: randomUUID(),
    promotionCode: 'BENCH10',
    lines: [0, 3, 7].map((i) => {
      const cheese = sel(m.toppings, 0);
      return {
        productId: m.products[i].id,
        variantId: m.products[i].variants[0].id,
        quantity: 1 + (i % 2),
        modifierSelections: [sel(m.crust, i % 2), cheese, sel(m.cheeseType, 0, cheese)],
      };
    }),
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 512 });
function postOrder(url, apiKey, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `ApiKey ${apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

const failures = new Map();
/** Creates one order; true when it was (201), else counts the failure by status and code. */
async function created(url, apiKey, m) {
  const res = await postOrder(url, apiKey, orderBody(m)).catch((error) => ({
    status: 0,
    body: JSON.stringify({ code: error.message }),
  }));
  if (res.status === 201) {
    if (m.orderIds && m.orderIds.length < 1_000) m.orderIds.push(JSON.parse(res.body).orderId);
    return true;
  }
  let code = '';
  try {
    code = JSON.parse(res.body).code ?? '';
  } catch {
    // not JSON
  }
  const key = `${res.status} ${code}`.trim();
  failures.set(key, (failures.get(key) ?? 0) + 1);
  return false;
}
const failureReport = () =>
  failures.size === 0 ? 'none failed' : [...failures].map(([k, n]) => `${n} × ${k}`).join(', ');

async function capacity(url, apiKey, m) {
  const deadline = Date.now() + options.duration * 1000;
  let count = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (Date.now() < deadline) if (await created(url, apiKey, m)) count++;
    }),
  );
  return { perSecond: count / ((Date.now() - started) / 1000), count };
}

async function steady(url, apiKey, m) {
  const total = options.rate * options.duration;
  const interval = 1000 / options.rate;
  const latencies = [];
  const started = performance.now();
  const inFlight = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Latency from the scheduled start, so that a slow answer does not hide the queue behind it.
    inFlight.push(created(url, apiKey, m).then((ok) => ok && latencies.push(performance.now() - due)));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    achieved: latencies.length / seconds,
    count: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
  };
}

/** Reads orders back through the gateway (GET /orders/{id}), one at a time: p50 and p99. */
async function reads(gatewayUrl, apiKey, orderIds, count = 300) {
  const latencies = [];
  for (let i = 0; i < count; i++) {
    const id = orderIds[i % orderIds.length];
    const started = performance.now();
    const res = await fetch(`${gatewayUrl}/api/partner/v1/orders/${id}`, {
      headers: { authorization: `ApiKey ${apiKey}` },
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /orders/${id} answered ${res.status}`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * Adds `total` orders of the bench tenant to ordering's database: copies of a real order, each
 * with a new id, external order id and number, and a copy of every claim document of the
 * original (external order id, order number), so every collection an order touches grows.
 */
async function preload(total) {
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(readStackEnv().MONGO_URL).connect();
  try {
    const db = mongo.db(DATABASES.ordering);
    const template = await db
      .collection('orders')
      .findOne({}, { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } });
    const claims = [];
    for (const { name } of await db.listCollections().toArray()) {
      if (name === 'orders') continue;
      const claim = await db.collection(name).findOne({ orderId: template._id });
      if (claim) claims.push([name, claim]);
    }
    const started = Date.now();
    for (let done = 0; done < total;) {
      const size = Math.min(1_000, total - done);
      const orders = [];
      const claimCopies = new Map(claims.map(([name]) => [name, []]));
      for (let k = 0; k < size; k++) {
        const n = done + k;
        const orderId = randomUUID();
        orders.push({
          ...template,
          _id: orderId,
          externalOrderId: `preload-${tag}-${n}`,
          createdAt: new Date(Date.now() - (total - n) * 1000),
        });
        for (const [name, claim] of claims)
          claimCopies.get(name).push({ ...claim, _id: `${claim._id}:preload-${n}`, orderId });
      }
      await db.collection('orders').insertMany(orders, { ordered: false });
      for (const [name, docs] of claimCopies) await db.collection(name).insertMany(docs, { ordered: false });
      done += size;
    }
    console.log(
      `preloaded ${total} orders (+ ${claims.map(([name]) => name).join(', ') || 'no claims'}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await mongo.close();
  }
}

/** Steady creation at --rate, then reads of orders created during it. */
async function latencies(gatewayUrl, url, m) {
  failures.clear();
  const s = await steady(url, m.apiKey, m);
  const r = await reads(gatewayUrl, m.apiKey, m.orderIds);
  return { createP50: s.p50, createP99: s.p99, readP50: r.p50, readP99: r.p99, failed: failureReport() };
}

async function waitForCopy(productId) {
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(readStackEnv().MONGO_URL).connect();
  try {
    const deadline = Date.now() + 30_000;
    while (
      !(await mongo
        .db(DATABASES.ordering)
        .collection('catalog_copy')
        .findOne({ _id: { $regex: `:product:${productId}$` } }))
    ) {
      if (Date.now() > deadline) throw new Error('ordering did not copy the bench menu within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await mongo.close();
  }
}

let exitCode = 0;
try {
  const cpus = os.cpus();
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  await startReceiver();
  const catalogUrl = await startService('catalog', { MONGO_DATABASE: DATABASES.catalog });
  const orderingUrl = await startService('ordering-pricing', {
    MONGO_DATABASE: DATABASES.ordering,
    KAFKA_CONSUMER_GROUP_PREFIX: DATABASES.ordering,
    CATALOG_COPY_START: 'latest',
    DELIVERY_COPY_START: 'latest',
  });
  await startService('webhook-sender', {
    MONGO_DATABASE: DATABASES.webhooks,
    KAFKA_CONSUMER_GROUP_PREFIX: DATABASES.webhooks,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
  });
  const gatewayUrl = await startService('gateway-auth', {
    MONGO_DATABASE: DATABASES.gateway,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
    REDIS_KEY_PREFIX: `bench:${tag}:`,
    CATALOG_URL: catalogUrl,
    ORDERING_URL: orderingUrl,
    RATE_LIMIT_PER_IP: RATE_LIMIT,
    RATE_LIMIT_PER_INSTALLATION: RATE_LIMIT,
    TENANT_RATE_LIMIT_PER_IP: RATE_LIMIT,
    TENANT_RATE_LIMIT_PER_TENANT: RATE_LIMIT,
    ADMIN_RATE_LIMIT_PER_IP: RATE_LIMIT,
    ADMIN_RATE_LIMIT_PER_ADMIN: RATE_LIMIT,
  });
  const m = await setUp(gatewayUrl);
  await waitForCopy(m.products.at(-1).id);
  const url = `${gatewayUrl}/api/partner/v1/orders`;
  m.orderIds = [];
  for (let i = 0; i < 20; i++)
    if (!(await created(url, m.apiKey, m))) throw new Error(`warm-up order not created: ${failureReport()}`);
  const missing = await webhooksArrived(20);
  if (missing) throw new Error(`the warm-up orders' webhooks did not arrive${missing}`);

  if (options.preload > 0) {
    const figures = (l) =>
      `create p50 ${l.createP50.toFixed(1)} ms, p99 ${l.createP99.toFixed(1)} ms; read p50 ${l.readP50.toFixed(1)} ms, p99 ${l.readP99.toFixed(1)} ms; ${l.failed}`;
    const empty = await latencies(gatewayUrl, url, m);
    console.log(`fresh database, steady ${options.rate} orders/s for ${options.duration} s: ${figures(empty)}`);
    await preload(options.preload);
    const full = await latencies(gatewayUrl, url, m);
    console.log(`after ${options.preload} more orders, same load: ${figures(full)}`);
    const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
    console.log(
      `growth ratios (after / before): create p50 ${ratio(full.createP50, empty.createP50)}, p99 ${ratio(full.createP99, empty.createP99)}; read p50 ${ratio(full.readP50, empty.readP50)}, p99 ${ratio(full.readP99, empty.readP99)}`,
    );
  } else {
    let meter = cpuMeter(processes);
    let delivered = receiver.delivered;
    const { perSecond, count } = await capacity(url, m.apiKey, m);
    let late = await webhooksArrived(delivered + count);
    console.log(
      `capacity: ${perSecond.toFixed(1)} orders/s created with ${options.connections} concurrent clients for ${options.duration} s; ${failureReport()}`,
    );
    console.log(`  ${formatCpu(meter.per(count), 'order')}${late}`);
    failures.clear();
    meter = cpuMeter(processes);
    delivered = receiver.delivered;
    const s = await steady(url, m.apiKey, m);
    late = await webhooksArrived(delivered + s.count);
    console.log(
      `steady rate ${options.rate} orders/s for ${options.duration} s: ${s.achieved.toFixed(1)} orders/s created, latency p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; ${failureReport()}`,
    );
    console.log(`  ${formatCpu(meter.per(s.count), 'order')}${late}`);
  }
} catch (error) {
  console.error(`bench:orders failed: ${error.message}`);
  exitCode = 1;
} finally {
  await stopServices();
  await dropDatabases(Object.values(DATABASES)).catch(() => undefined);
  agent.destroy();
  receiverServer.close();
}
process.exit(exitCode);
