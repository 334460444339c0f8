#!/usr/bin/env node
// Webhook delivery with the webhook sender as its own process (own database) on the local stack:
//   1. `--installations` connected installations of one tenant, each with its own endpoint on a
//      local receiver that answers 200, are published on the installations topic (as the gateway
//      would, secrets sealed), and the sender's copy is awaited;
//   2. healthy: `--events` orders.created events are published on the orders topic; each goes to
//      every installation (broadcast). Prints signed deliveries per second and the delay from
//      the event's publication to its arrival at the receiver, p50/p99;
//   3. the same with 10 % of the endpoints answering 500 (so their deliveries retry): the
//      throughput to the healthy endpoints.
//   4. with --rate N: a steady run, N events per second (N x installations deliveries per
//      second) for --events events: the delay from event to delivery below capacity.
// Every delivery's signature is checked at the receiver. A benchmark, not a test.
//
//   npm run bench:webhooks [-- --installations 20 --events 300 --rate 10]
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import os from 'node:os';
import { readStackEnv } from '../services.mjs';
import { dropDatabases, percentile, startService, stopServices, require } from './lib/processes.mjs';

const options = { installations: 20, events: 300, rate: 0 };
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const value = Number(inline ?? process.argv[++i]);
  if (!(name in options) || !(Number.isInteger(value) && value > 0)) {
    console.error('usage: node scripts/bench/webhooks.mjs [--installations n] [--events n] [--rate events/s]');
    process.exit(2);
  }
  options[name] = value;
}
const {
  createKafka,
  EventPublisher,
  EventSchemas,
  loadTopicCatalog,
  SchemaValidator,
} = require('./shared/events/dist/index.js');
const { sealWebhookSecret } = require('./shared/identity/dist/index.js');
const { createLogger } = require('./shared/logging/dist/index.js');

const tag = randomBytes(4).toString('hex');
const DATABASE = `bench_webhooks_${tag}`;
const env = readStackEnv();
const transportKey = Buffer.from(env.WEBHOOK_SECRET_TRANSPORT_KEY, 'base64');
const tenantId = randomUUID();

/** The receiver: per path, its secret, whether it fails, and what arrived when. */
const endpoints = new Map();
let badSignatures = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const endpoint = endpoints.get(req.url);
    const body = Buffer.concat(chunks);
    const mac = createHmac('sha256', endpoint.secret)
      .update(`${req.headers['x-marketplace-timestamp']}.`)
      .update(body)
      .digest();
    if (!timingSafeEqual(mac, Buffer.from(String(req.headers['x-marketplace-signature']), 'hex'))) badSignatures++;
    if (endpoint.failing) {
      res.statusCode = 500;
      return res.end();
    }
    const orderId = JSON.parse(body.toString('utf8')).data.orderId;
    endpoint.arrivals.push({ at: Date.now(), orderId });
    res.end('ok');
  });
});

async function publishInstallations(publisher, base, round) {
  const events = [...endpoints.entries()].map(([path, endpoint]) => ({
    topic: 'installations',
    key: endpoint.installationId,
    type: 'installation.changed',
    data: {
      installationId: endpoint.installationId,
      tenantId,
      appId: endpoint.appId,
      contractVersion: 1,
      status: 'Connected',
      connected: true,
      webhookUrl: `${base}${path}`,
      subscribedEvents: ['orders.created'],
      webhookSecretSealed: sealWebhookSecret(transportKey, endpoint.installationId, endpoint.secret),
      revision: round,
      changedAt: new Date().toISOString(),
    },
  }));
  await publisher.publish(events);
}

async function waitForCopies(count) {
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(env.MONGO_URL).connect();
  try {
    const deadline = Date.now() + 60_000;
    while (
      (await mongo.db(DATABASE).collection('installations').countDocuments({ tenantId, connected: true })) < count
    ) {
      if (Date.now() > deadline) throw new Error('the sender did not copy the installations within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await mongo.close();
  }
}

/**
 * Publishes `count` orders.created events (all at once, or `rate` per second) and waits until every
 * healthy endpoint got each.
 */
async function run(publisher, count, rate = 0) {
  const healthy = [...endpoints.values()].filter((e) => !e.failing);
  for (const e of endpoints.values()) e.arrivals = [];
  const published = new Map();
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const due = started + (rate > 0 ? (i * 1000) / rate : 0);
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    const orderId = randomUUID();
    published.set(orderId, Date.now());
    await publisher.publish([
      {
        topic: 'orders',
        key: orderId,
        type: 'orders.created',
        data: {
          tenantId,
          orderId,
          orderNumber: String(1000 + i),
          status: 'Pending',
          sourceInstallationId: healthy[0].installationId,
          externalOrderId: `bench-${i}`,
          branchId: randomUUID(),
          orderMode: 2,
          paymentMethod: 1,
          paymentStatus: 'Unpaid',
          currencyCode: 'EUR',
          subtotalMinor: 1000,
          discountMinor: 0,
          taxTotalMinor: 65,
          deliveryFeeMinor: 0,
          serviceFeeMinor: 0,
          grandTotalMinor: 1000,
          createdAt: new Date().toISOString(),
        },
      },
    ]);
  }
  const expected = count * healthy.length;
  const deadline = Date.now() + 300_000;
  while (healthy.reduce((n, e) => n + e.arrivals.length, 0) < expected) {
    if (Date.now() > deadline)
      throw new Error(
        `only ${healthy.reduce((n, e) => n + e.arrivals.length, 0)} of ${expected} deliveries arrived within 5 minutes`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const arrivals = healthy.flatMap((e) => e.arrivals);
  const last = Math.max(...arrivals.map((a) => a.at));
  const delays = arrivals.map((a) => a.at - published.get(a.orderId)).sort((a, b) => a - b);
  return {
    deliveries: arrivals.length,
    perSecond: arrivals.length / ((last - started) / 1000),
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
  };
}

let exitCode = 0;
let publisher;
try {
  const cpus = os.cpus();
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(2)}; ${options.installations} installations, ${options.events} events per run`,
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  for (let i = 0; i < options.installations; i++)
    endpoints.set(`/hook/${i}`, {
      installationId: randomUUID(),
      appId: randomUUID(),
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      failing: false,
      arrivals: [],
    });
  await startService('webhook-sender', {
    MONGO_DATABASE: DATABASE,
    KAFKA_CONSUMER_GROUP_PREFIX: DATABASE,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
  });
  const catalog = loadTopicCatalog();
  const kafka = createKafka({
    brokers: env.KAFKA_BROKERS.split(','),
    clientId: 'bench-webhooks',
    logger: createLogger({ service: 'bench', level: 'warn' }),
  });
  publisher = new EventPublisher(
    kafka,
    catalog,
    new EventSchemas(env.SCHEMA_REGISTRY_URL, catalog),
    new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])),
    'bench-webhooks',
  );
  await publisher.connect();
  await publishInstallations(publisher, base, 1);
  await waitForCopies(options.installations);
  await run(publisher, 5); // warm-up

  const all = await run(publisher, options.events);
  console.log(
    `all endpoints answer 200: ${all.deliveries} signed deliveries, ${all.perSecond.toFixed(0)} deliveries/s; event to delivery p50 ${all.p50} ms, p99 ${all.p99} ms`,
  );
  const failing = Math.max(1, Math.round(options.installations / 10));
  [...endpoints.values()].slice(0, failing).forEach((e) => (e.failing = true));
  const some = await run(publisher, options.events);
  console.log(
    `${failing} of ${options.installations} endpoints answering 500 (retried): ${some.deliveries} deliveries to the healthy ones, ${some.perSecond.toFixed(0)} deliveries/s; event to delivery p50 ${some.p50} ms, p99 ${some.p99} ms`,
  );
  if (options.rate > 0) {
    [...endpoints.values()].forEach((e) => (e.failing = false));
    const paced = await run(publisher, options.events, options.rate);
    console.log(
      `steady ${options.rate} events/s (${options.rate * options.installations} deliveries/s asked), all answering 200: ${paced.perSecond.toFixed(0)} deliveries/s; event to delivery p50 ${paced.p50} ms, p99 ${paced.p99} ms`,
    );
  }
  if (badSignatures > 0) throw new Error(`${badSignatures} deliveries had a bad signature`);
  console.log('every signature verified');
} catch (error) {
  console.error(`bench:webhooks failed: ${error.message}`);
  exitCode = 1;
} finally {
  await publisher?.disconnect().catch(() => undefined);
  await stopServices();
  server.close();
  server.closeAllConnections();
  await dropDatabases([DATABASE]).catch(() => undefined);
}
process.exit(exitCode);
