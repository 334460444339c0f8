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
// With --storm (instead of 2 to 4): `--retries` (10,000) retries due now to `--dead` (20)
//   installations of another tenant whose URL is a closed port (connection refused) are put in
//   the sender's database and on webhook-attempts.retry-1, as the sender itself would have after
//   their first attempts failed; during that storm `--events` (20) orders.created events, 2 per
//   second, go to the healthy installations. Prints the healthy endpoints' p50/p99 time from event
//   to first attempt, read from this sender's delivery records (other senders on a shared stack may
//   deliver the same events to the receiver too), and how many of the dead retries were attempted
//   meanwhile; the same for 10 events before the storm, for comparison.
// Every delivery's signature is checked at the receiver. A benchmark, not a test.
//
//   npm run bench:webhooks [-- --installations 20 --events 300 --rate 10]
//   npm run bench:webhooks -- --storm [--retries 10000 --dead 20 --events 20]
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import os from 'node:os';
import { readStackEnv } from '../services.mjs';
import {
  cpuMs,
  dropDatabases,
  freePort,
  percentile,
  processes,
  startService,
  stopServices,
  require,
} from './lib/processes.mjs';
import { cpuMeter, formatCpu } from './lib/cpu-meter.mjs';

const options = { installations: 20, events: 0, rate: 0, retries: 10_000, dead: 20 };
let storm = false;
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  if (name === 'storm') {
    storm = true;
    continue;
  }
  const value = Number(inline ?? process.argv[++i]);
  if (!(name in options) || !(Number.isInteger(value) && value > 0)) {
    console.error(
      'usage: node scripts/bench/webhooks.mjs [--installations n] [--events n] [--rate events/s] [--storm [--retries n] [--dead n]]',
    );
    process.exit(2);
  }
  options[name] = value;
}
options.events ||= storm ? 20 : 300;
const {
  createKafka,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
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
/** The same event arriving again at an endpoint (at-least-once): counted, not taken as a delivery. */
let repeats = 0;
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
    if (endpoint.arrivals.some((a) => a.orderId === orderId)) repeats++;
    else endpoint.arrivals.push({ at: Date.now(), orderId });
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
      tenantId: endpoint.tenantId ?? tenantId,
      appId: endpoint.appId,
      contractVersion: 1,
      status: 'Connected',
      connected: true,
      webhookUrl: endpoint.url ?? `${base}${path}`,
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
    while ((await mongo.db(DATABASE).collection('installations').countDocuments({ connected: true })) < count) {
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
  const healthy = [...endpoints.values()].filter((e) => !e.failing && !e.dead);
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
    published,
    deliveries: arrivals.length,
    perSecond: arrivals.length / ((last - started) / 1000),
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
  };
}

/**
 * The storm: `retries` deliveries to the dead installations, each with its first attempt failed
 * (connection refused) and its second due now, written as the sender writes them. Returns their
 * attempt messages for the first retry tier, to be published when the storm is to start.
 */
async function writeStorm(dead, deadTenant, retries) {
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(env.MONGO_URL).connect();
  try {
    const now = new Date();
    const docs = [];
    for (let i = 0; i < retries; i++) {
      const endpoint = dead[i % dead.length];
      const id = randomUUID();
      const occurredAt = new Date(now.getTime() - 120_000).toISOString();
      const data = { orderId: randomUUID(), orderNumber: String(i), status: 'Pending' };
      docs.push({
        _id: id,
        tenantId: deadTenant,
        installationId: endpoint.installationId,
        kind: 'partner-webhook',
        type: 'orders.created',
        sourceEventId: randomUUID(),
        occurredAt,
        body: JSON.stringify({ id, type: 'orders.created', version: 1, occurredAt, data }),
        status: 'pending',
        round: 1,
        nextAttempt: 2,
        nextAttemptAt: now,
        attempts: [
          {
            round: 1,
            attempt: 1,
            at: new Date(now.getTime() - 120_000),
            statusCode: null,
            latencyMs: 1,
            errorClass: 'connect',
            verdict: 'retry',
          },
        ],
        reason: null,
        createdAt: new Date(now.getTime() - 120_000),
        updatedAt: now,
      });
    }
    const deliveries = mongo.db(DATABASE).collection('deliveries');
    for (let i = 0; i < docs.length; i += 1000) await deliveries.insertMany(docs.slice(i, i + 1000));
    return docs.map((d) => ({
      topic: 'webhook-attempts.retry-1',
      key: d.installationId,
      type: 'webhook.attempt',
      data: { deliveryId: d._id, installationId: d.installationId, round: 1, attempt: 2, dueAt: now.toISOString() },
    }));
  } finally {
    await mongo.close();
  }
}

/**
 * Where the healthy deliveries' time went, from their records: event to delivery created (the
 * domain-event consumer), and created to first attempt (the attempt topics and the scheduler).
 */
async function stages(published) {
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(env.MONGO_URL).connect();
  try {
    const docs = await mongo
      .db(DATABASE)
      .collection('deliveries')
      .find({ tenantId }, { projection: { body: 1, createdAt: 1, attempts: { $slice: 1 } } })
      .toArray();
    const first = [];
    const created = [];
    const attempted = [];
    for (const d of docs) {
      const at = published.get(JSON.parse(d.body).data.orderId);
      if (at === undefined || !d.attempts[0]) continue;
      first.push(d.attempts[0].at.getTime() - at);
      created.push(d.createdAt.getTime() - at);
      attempted.push(d.attempts[0].at.getTime() - d.createdAt.getTime());
    }
    for (const list of [first, created, attempted]) list.sort((a, b) => a - b);
    return (
      `event to first attempt p50 ${percentile(first, 50)} ms, p99 ${percentile(first, 99)} ms ` +
      `(event to delivery created p99 ${percentile(created, 99)} ms, created to first attempt p99 ${percentile(attempted, 99)} ms; ${first.length} deliveries)`
    );
  } finally {
    await mongo.close();
  }
}

/** How many of the storm's retries were attempted (a second attempt recorded), and how many attempts in all. */
async function stormAttempts(deadTenant) {
  const { MongoClient } = require('mongodb');
  const mongo = await new MongoClient(env.MONGO_URL).connect();
  try {
    const deliveries = mongo.db(DATABASE).collection('deliveries');
    const retried = await deliveries.countDocuments({ tenantId: deadTenant, 'attempts.1': { $exists: true } });
    return retried;
  } finally {
    await mongo.close();
  }
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
  const deadTenant = randomUUID();
  const dead = [];
  if (storm) {
    // Nothing listens there: every attempt is refused at connect.
    const closed = `http://127.0.0.1:${await freePort()}`;
    for (let i = 0; i < options.dead; i++) {
      const endpoint = {
        installationId: randomUUID(),
        appId: randomUUID(),
        tenantId: deadTenant,
        url: `${closed}/dead/${i}`,
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
        dead: true,
        arrivals: [],
      };
      endpoints.set(`/dead/${i}`, endpoint);
      dead.push(endpoint);
    }
  }
  await startService('webhook-sender', {
    MONGO_DATABASE: DATABASE,
    KAFKA_CONSUMER_GROUP_PREFIX: DATABASE,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
  });
  const catalog = loadTopicCatalog();
  const kafka = createKafka({
    connection: kafkaConnectionFromEnv(env),
    clientId: 'bench-webhooks',
    logger: createLogger({ service: 'bench', level: 'warn' }),
  });
  publisher = new EventPublisher(
    kafka,
    catalog,
    new EventSchemas(registryConnectionFromEnv(env), catalog),
    new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])),
    'bench-webhooks',
  );
  await publisher.connect();
  await publishInstallations(publisher, base, 1);
  await waitForCopies(endpoints.size);
  await run(publisher, 5); // warm-up

  if (storm) {
    // The storm's deliveries are written first (they exist long before their retries fall due),
    // so that writing them does not weigh on either measurement; then the calm run, then the storm.
    const messages = await writeStorm(dead, deadTenant, options.retries);
    const calm = await run(publisher, 10, 2);
    console.log(
      `before the storm, 10 events at 2 events/s, from the delivery records: ${await stages(calm.published)}`,
    );
    const startedAt = Date.now();
    const cpuBefore = cpuMs(processes['webhook-sender']);
    for (let i = 0; i < messages.length; i += 1000) await publisher.publish(messages.slice(i, i + 1000));
    const injected = Date.now();
    const during = await run(publisher, options.events, 2);
    const retried = await stormAttempts(deadTenant);
    const cpu = cpuMs(processes['webhook-sender']) - cpuBefore;
    const wall = Date.now() - startedAt;
    console.log(
      `storm: ${options.retries} retries due to ${options.dead} dead endpoints (connection refused), published in ${injected - startedAt} ms; ` +
        `fresh deliveries to ${options.installations} healthy endpoints at 2 events/s during it, from the delivery records: ` +
        `${await stages(during.published)}; at the receiver p50 ${during.p50} ms, p99 ${during.p99} ms; ${retried} of the dead retries attempted meanwhile; ` +
        `the sender used ${Number.isNaN(cpu) ? '?' : Math.round((cpu / wall) * 100)} % of a core over the ${wall} ms`,
    );
  }

  if (storm) {
    if (badSignatures > 0) throw new Error(`${badSignatures} deliveries had a bad signature`);
    console.log('every signature verified');
  } else {
    const meter = cpuMeter(processes);
    const all = await run(publisher, options.events);
    console.log(
      `all endpoints answer 200: ${all.deliveries} signed deliveries, ${all.perSecond.toFixed(0)} deliveries/s; event to delivery p50 ${all.p50} ms, p99 ${all.p99} ms`,
    );
    console.log(`  ${formatCpu(meter.per(all.deliveries), 'delivery')}`);
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
  }
  // Other senders on a shared stack copy the same installations and may send the same events.
  if (repeats > 0) console.log(`${repeats} deliveries arrived more than once (at-least-once, or another sender)`);
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
