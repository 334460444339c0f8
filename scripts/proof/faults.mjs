#!/usr/bin/env node
// `npm run proof:faults [-- --short] [-- --seed N --minutes M] [-- --steps "…"] [-- --plant NAME] [-- --keep]`: the
// platform's promises under faults.
//
// A cluster of its own (the six services as child processes, own databases and consumer groups) on
// the local stack, seeded like the demo, with steady mixed traffic (about 20 requests/s): orders
// through the gateway (some cancelled, some assigned to the delivery provider and carried to
// Delivered), deliveries created on provider-delivery and carried by the proof's own couriers
// through the courier API (lib/couriers.mjs), and reads through every service; webhooks and callbacks go to a receiver in this process. Under that
// traffic, a schedule of faults (lib/nemesis.mjs), each carried out by lib/fault-steps.mjs:
//   - kill -9 of each service, started again at once; SIGTERM of each service with requests in
//     flight through it (a rolling restart);
//   - kill -9 of Kafka, the schema registry, the MongoDB-wire engine and Redis, started again
//     (Redis: the gateway answers 503 `service.unavailable` while it is away, as
//     docs/operations.md#redis documents; clients retry with the same Idempotency-Key);
//   - Kafka away for a while (30 s in CI, up to 3 minutes in a seeded run): orders are still taken,
//     the outboxes back up and drain, every service's readiness says Kafka is away meanwhile;
//   - a service paused (SIGSTOP) longer than its Redis leases, then resumed;
//   - the partner endpoint hanging (or answering slowly) for a while;
//   - unreadable messages on every consumed topic.
// Without --seed the schedule is the fixed one (every kind of fault; --short: less time after each,
// what CI runs); with --seed N the nemesis draws faults and timings from N for M minutes (default
// 10), and the same seed replays the same schedule. After each fault the last acknowledged orders
// and deliveries are sent again with the same key and body: the answer must be the original one.
// Then the traffic stops, the webhooks drain, and the checks print their counts:
//   - every acknowledged order exists exactly once; no externalOrderId has two orders;
//   - every acknowledged provider delivery exists once, with the id it was given;
//   - every expected partner webhook (orders.created, orders.cancelled, delivery.assigned) reached
//     the receiver with a valid signature, one event id always with one body, and per order in an
//     order consistent with its transitions (no orders.cancelled before orders.created was delivered);
//   - every callback the couriers' moves made due (accepted: driver.assigned, picked up, delivered)
//     reached the receiver, signed, with its status, or was dropped by the terminal rule as the
//     sender's record shows (an independent record: the proof drove the couriers itself);
//   - every event provider-delivery published for those deliveries reached the receiver as a signed
//     callback (or was left out because its delivery's terminal callback had gone: the contract's
//     rule), nothing nonterminal came after a terminal callback, and no callback came twice with
//     two bodies;
//   - every idempotent replay returned the original answer;
//   - no request in flight at a SIGTERM was cut off, and each SIGTERM ended the process (exit 0)
//     within SIGTERM_BOUND_MS;
//   - recovery (lib/recovery.mjs): after each fault the service (after a stack component, every
//     service) was ready again within its bound (10 s from a kill -9, a SIGTERM or a SIGCONT; 30 s
//     from a component being up again); no 500 at all; a 502, 503, 504 or a network error only
//     within a fault's window, counted per fault as refusals and bounded by the window's length
//     and the traffic's rate;
//   - no log line or metric of the run holds a secret issued or seen in it.
// --brokers 3 runs the cluster on a three-broker Kafka of the proof's own (lib/kafka-trio.mjs:
// replication factor 3, min.insync.replicas 2, producers with acks=all) and its own schedule: each
// broker killed and started again, one kept away while a service is killed, the webhook sender
// doubled (lib/nemesis.mjs's brokerSchedule; with --seed, the nemesis's Kafka faults become broker
// faults). --steps "…" runs the steps given instead of a schedule (lib/nemesis.mjs's parseSteps).
// --plant NAME switches on a planted defect (plants/README.md) the run must then fail on.
// Exit 0 when every promise held, 1 otherwise. The report goes to .test-results/proof-faults.json
// (each fault: its window, refusals, recovery time, lost and duplicated) and, readable, to
// .test-results/proof-faults.txt; the services' logs to .test-results/proof-faults/.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../services.mjs';
import { Client } from './lib/client.mjs';
import { Cluster, SERVICES, waitUntil } from './lib/cluster.mjs';
import { Couriers } from './lib/couriers.mjs';
import { runStep } from './lib/fault-steps.mjs';
import { KafkaTrio } from './lib/kafka-trio.mjs';
import { ProxyProcess, targetOf, throughProxy } from './lib/latency-proxy.mjs';
import { brokerSchedule, fixedSchedule, parseSteps, randomSchedule, stepName } from './lib/nemesis.mjs';
import { plantsOf } from './lib/plants.mjs';
import { readAccountEvents, topicEnds } from './lib/provider-events.mjs';
import { recoveryVerdict, SIGTERM_BOUND_MS } from './lib/recovery.mjs';
import { dropDatabases, prepare, seed } from './lib/setup.mjs';
import { auditSecrets } from './lib/secrets.mjs';
import { Traffic } from './lib/traffic.mjs';
import {
  checkOrders,
  checkProviderDeliveries,
  courierCallbacks,
  partnerWebhooks,
  providerCallbacks,
  webhookOrder,
} from './lib/verify.mjs';

const require = createRequire(join(root, 'package.json'));
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SHORT = args.includes('--short');
const KEEP = args.includes('--keep');
const SEED = option('--seed') === undefined ? undefined : Number(option('--seed'));
const MINUTES = Number(option('--minutes') ?? 10);
const PLANTS = plantsOf(option('--plant'));
if (SEED !== undefined && !Number.isInteger(SEED)) throw new Error('--seed takes an integer');
if (!(MINUTES > 0)) throw new Error('--minutes takes a positive number');
const STEPS = option('--steps');
const BROKERS = Number(option('--brokers') ?? 1);
if (BROKERS !== 1 && BROKERS !== 3)
  throw new Error('--brokers takes 1 (the stack’s Kafka) or 3 (a Kafka of the proof’s own)');
const SCHEDULE =
  STEPS !== undefined
    ? parseSteps(STEPS)
    : SEED !== undefined
      ? randomSchedule({ seed: SEED, minutes: MINUTES, brokers: BROKERS })
      : BROKERS === 3
        ? brokerSchedule({ short: SHORT })
        : fixedSchedule({ short: SHORT });

/** How long the traffic runs before the first fault, and at most waits for the webhooks after the last (ms). */
const PLAN = SHORT ? { warmMs: 5_000, drainMs: 150_000 } : { warmMs: 10_000, drainMs: 240_000 };
/** About 20 requests/s in all: orders and their follow-ups (cancel, assign, accept, moves), deliveries, reads. */
const ORDERS_PER_SECOND = 3;
const DELIVERIES_PER_SECOND = 1;
const READS_PER_SECOND = 8;
/** The proof's own couriers (lib/couriers.mjs), each polling once a second and moving its delivery one step a poll. */
const COURIERS = 10;
const REPLAYS_PER_FAULT = 2;
const RESULTS = join(root, '.test-results');
const LOG_DIR = join(RESULTS, 'proof-faults');

const started = Date.now();
const say = (line) => console.log(`[${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s] ${line}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function run(command, commandArgs, what, timeout = 600_000) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', timeout, killSignal: 'SIGKILL' });
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status ?? result.signal})`);
}

/** The drivers' phone numbers (the simulator's), for the secrets audit: without them it would check none. */
async function driverPhones(cluster, fixture, admin) {
  const res = await fetch(
    `${cluster.url('provider-delivery')}/admin/v1/platform-accounts/${fixture.provider.accountId}/drivers`,
    { headers: { authorization: `Bearer ${admin}` }, signal: AbortSignal.timeout(10_000) },
  );
  const body = res.status === 200 ? await res.json() : undefined;
  const phones = (Array.isArray(body) ? body : (body?.drivers ?? [])).map((d) => d.phone).filter(Boolean);
  if (phones.length === 0) throw new Error(`no driver phone numbers to audit (drivers list: ${res.status})`);
  return phones;
}

async function scrapeMetrics(cluster) {
  await Promise.all(
    SERVICES.map(async (name) => {
      const res = await fetch(`${cluster.url(name)}/metrics`, { signal: AbortSignal.timeout(3_000) }).catch(
        () => undefined,
      );
      if (res?.status === 200) writeFileSync(join(LOG_DIR, `${name}-final.metrics`), await res.text());
    }),
  );
}

async function main() {
  say(
    `proof:faults${SHORT ? ' --short' : ''}: ${STEPS !== undefined ? 'the steps given' : SEED !== undefined ? `seed ${SEED}, ${MINUTES} minutes` : BROKERS === 3 ? 'the three-broker schedule' : 'the fixed schedule'} of ${SCHEDULE.length} faults${PLANTS.length ? `, planted defects: ${PLANTS.join(', ')}` : ''}; build and stack`,
  );
  say(`schedule: ${SCHEDULE.map(stepName).join('; ')}`);
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], 'the build');
  run('bash', [join(root, 'scripts/stack/stack.sh'), 'up'], 'the local stack');
  rmSync(LOG_DIR, { recursive: true, force: true });

  const { startReceiver } = require('./shared/testing/dist/receiver.js');
  const receiver = await startReceiver();
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let trio;
  if (BROKERS === 3) {
    trio = new KafkaTrio({ logDir: LOG_DIR, say });
    say('three brokers of the proof’s own: starting');
    await trio.start();
    say(`three brokers up (${trio.brokers.join(', ')}), replication factor 3, min.insync.replicas 2`);
  }
  const { readStackEnv } = await import('../services.mjs');
  const stackEnv = trio ? trio.env(readStackEnv()) : readStackEnv();
  // Redis and the MongoDB-wire engine through proxies of the proof's own, for the network fault.
  const proxies = {
    redis: new ProxyProcess('redis', targetOf(stackEnv.REDIS_URL, 6379)),
    mongo: new ProxyProcess('mongo', targetOf(stackEnv.MONGO_URL, 27017)),
  };
  const servicesEnv = {
    ...stackEnv,
    REDIS_URL: throughProxy(stackEnv.REDIS_URL, await proxies.redis.start()),
    MONGO_URL: throughProxy(stackEnv.MONGO_URL, await proxies.mongo.start()),
  };
  const cluster = new Cluster({ tag, logDir: LOG_DIR, say, plants: PLANTS, stackEnv: servicesEnv });
  // Interrupted (Ctrl-C, a test's timeout): no service process of the run may outlive it.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      cluster.killAll();
      for (const node of trio?.nodes.values() ?? []) node.child?.kill('SIGKILL');
      for (const proxy of Object.values(proxies)) proxy.stop();
      process.exit(130);
    });
  const client = new Client();
  const report = {
    short: SHORT,
    brokers: BROKERS,
    steps: STEPS ?? null,
    seed: SEED ?? null,
    minutes: SEED === undefined ? null : MINUTES,
    plants: PLANTS,
    schedule: SCHEDULE,
    faults: [],
    replays: [],
    sigterm: {},
  };
  let traffic;
  let couriers;
  try {
    await cluster.start();
    say(`cluster up (${SERVICES.length} services, databases proof_${tag}_*); seeding`);
    const fixture = await seed(cluster, receiver.url);
    const admin = await prepare(cluster, fixture, { simulator: false });
    couriers = new Couriers({
      client,
      providerUrl: cluster.url('provider-delivery'),
      accountId: fixture.provider.accountId,
      adminToken: admin,
      pickup: fixture.proof.pickup,
      count: COURIERS,
    });
    await couriers.start();
    const from = await topicEnds(cluster.stackEnv);

    traffic = new Traffic({
      client,
      cluster,
      fixture,
      tag,
      ordersPerSecond: ORDERS_PER_SECOND,
      deliveriesPerSecond: DELIVERIES_PER_SECOND,
      readsPerSecond: READS_PER_SECOND,
    });
    traffic.start();
    const trafficStartedAt = Date.now();
    say(
      `traffic: ${ORDERS_PER_SECOND} orders/s through the gateway (with their cancels, assignments and moves), ${DELIVERIES_PER_SECOND} provider deliveries/s, ${READS_PER_SECOND} reads/s`,
    );
    await sleep(PLAN.warmMs);

    const replay = async () => traffic.replay(REPLAYS_PER_FAULT, report.replays);

    const ctx = { cluster, client, traffic, receiver, say, tag, trio, proxies };
    for (const step of SCHEDULE) {
      const record = await runStep(step, ctx);
      report.faults.push(record);
      // A fault within a fault (a service killed while a broker is away) is judged on its own too.
      if (record.during) report.faults.push(record.during);
      await replay();
      await sleep(step.afterMs);
    }

    client.phase = 'drain';
    say('traffic stops; waiting for its requests to end');
    await traffic.stop();
    report.requestsPerSecond = client.sent / Math.max(1, (Date.now() - trafficStartedAt) / 1000);
    const drained = await drain(receiver, traffic, fixture);
    say(`drained in ${drained.ms} ms${drained.complete ? '' : ' (gave up: what is missing is counted below)'}`);
    await couriers.stop(0);

    const { MongoClient } = require('mongodb');
    const mongo = new MongoClient(cluster.stackEnv.MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
    await mongo.connect();
    try {
      report.orders = await checkOrders(mongo.db(`proof_${tag}_ord`), traffic);
      report.providerDeliveries = await checkProviderDeliveries(
        mongo.db(`proof_${tag}_prv`),
        traffic,
        fixture.provider.accountId,
      );
      // The sender's record of the callbacks it dropped by the terminal rule (superseded).
      const dropped = new Set();
      for await (const d of mongo
        .db(`proof_${tag}_wh`)
        .collection('deliveries')
        .find(
          { kind: 'provider-callback', accountId: fixture.provider.accountId, status: 'cancelled' },
          { projection: { providerDeliveryId: 1, type: 1, reason: 1 } },
        ))
        if (/^superseded/.test(d.reason ?? '')) dropped.add(`${d.providerDeliveryId}|${d.type}`);
      report.courierCallbacks = courierCallbacks(receiver.received, couriers.expectedCallbacks(), dropped, fixture);
    } finally {
      await mongo.close();
    }
    report.webhooks = partnerWebhooks(receiver.received, traffic, fixture);
    report.webhookOrder = webhookOrder(receiver.received);
    const events = await readAccountEvents(cluster.stackEnv, from, fixture.provider.accountId, tag);
    report.callbacks = providerCallbacks(receiver.received, events, traffic, fixture);
    for (const name of SERVICES) if (client.signalled.has(name)) report.sigterm[name] = client.signalReport(name);
    report.requests = {
      byPhase: Object.fromEntries([...client.byPhase].map(([phase, answers]) => [phase, Object.fromEntries(answers)])),
      statuses: Object.fromEntries(client.statuses),
      networkErrors: Object.fromEntries(client.networkErrors),
      internalErrors: client.internalErrors.slice(0, 10),
      failures: client.failures,
      refused: traffic.refused.slice(0, 20),
    };
    await scrapeMetrics(cluster);
    const phones = await driverPhones(cluster, fixture, admin);
    writeFileSync(join(LOG_DIR, 'error-bodies.jsonl'), client.errorBodies.map((b) => JSON.stringify(b)).join('\n'));
    report.secrets = auditSecrets(LOG_DIR, [
      ['tenant token', fixture.tenantApi.token],
      ...Object.values(fixture.installations).flatMap((i) => [
        ['API key', i.apiKey],
        ['API key secret', i.apiKey?.split('.')[1]],
        ['webhook signing secret', i.webhookSecret],
      ]),
      ['provider platform API key', fixture.provider.apiKey],
      ['provider platform API key secret', fixture.provider.apiKey?.split('.')[1]],
      ['provider webhook signing secret', fixture.provider.webhookSecret],
      ['provider administrator token', admin],
      ...phones.map((phone) => ['driver phone', phone]),
    ]);
  } finally {
    report.crashes = cluster.crashes;
    if (traffic?.running) await traffic.stop().catch(() => undefined);
    if (couriers?.running) await couriers.stop(0).catch(() => undefined);
    await cluster.stop().catch(() => undefined);
    await trio?.stop().catch(() => undefined);
    await receiver.close();
    if (!KEEP) await dropDatabases(cluster, say);
    for (const proxy of Object.values(proxies)) proxy.stop();
  }
  return finish(report);
}

/** Waits until every promised webhook and every delivery's terminal callback arrived, or the plan's bound. */
async function drain(receiver, traffic, fixture) {
  const startedAt = Date.now();
  const complete = await waitUntil(
    'every expected webhook and every delivery’s terminal callback at the receiver',
    async () => {
      const webhooks = partnerWebhooks(receiver.received, traffic, fixture);
      const callbacks = providerCallbacks(receiver.received, [], traffic, fixture);
      return webhooks.lost === 0 && callbacks.deliveriesWithoutTerminalCallback === 0;
    },
    PLAN.drainMs,
    1_000,
  ).then(
    () => true,
    () => false,
  );
  return { complete, ms: Date.now() - startedAt };
}

/**
 * Puts each lost or duplicated thing under the fault during which it was sent (from a fault's start
 * to the next one's; before the first fault: under none, counted in the totals only).
 */
function attributeLosses(report) {
  const lost = [
    ...report.orders.lostAt,
    ...report.providerDeliveries.lostAt,
    ...report.webhooks.lostAt,
    ...report.callbacks.lostAt,
    ...report.courierCallbacks.lostAt,
  ];
  const duplicated = [
    ...report.orders.duplicatedAt,
    ...report.providerDeliveries.duplicatedAt,
    ...report.callbacks.twoBodiesAt,
  ];
  report.faults.forEach((f, i) => {
    const end = report.faults[i + 1]?.startedAt ?? Infinity;
    const within = (at) => at !== undefined && at >= f.startedAt && at < end;
    f.lost = lost.filter(within).length;
    f.duplicated = duplicated.filter(within).length;
  });
}

/** The promises, each with its count; prints them and answers the exit code. */
function finish(report) {
  const cut = Object.entries(report.sigterm).flatMap(([name, r]) => r.cut.map((c) => ({ name, ...c })));
  const replaysDiffering = report.replays.filter((r) => !r.same);
  const recovery = recoveryVerdict({
    faults: report.faults,
    failures: report.requests.failures,
    requestsPerSecond: report.requestsPerSecond,
  });
  report.recovery = {
    faults: recovery.faults,
    broken: recovery.broken.slice(0, 50),
    unexcused: recovery.unexcused.slice(0, 50),
  };
  report.requests.failures = report.requests.failures.length;
  // The rolling restart's stops are held to the bound; a second instance's stop right after the
  // groups rebalanced is held to exit 0 only, its time reported (once 10.2 s in CI: left as found).
  const slowStops = report.faults.filter(
    (f) =>
      (f.kind === 'term' && f.stoppedMs > SIGTERM_BOUND_MS) ||
      ((f.kind === 'term' || f.kind === 'twin') && f.exit !== 0),
  );
  const silentReadiness = report.faults.flatMap((f) => (f.readinessSilent ?? []).map((s) => `${f.fault}: ${s}`));
  attributeLosses(report);
  const promises = [
    ['acknowledged orders lost', report.orders.lost],
    ['orders created twice for one externalOrderId', report.orders.duplicated],
    ['acknowledged provider deliveries lost', report.providerDeliveries.lost],
    ['provider deliveries created twice for one idempotency key', report.providerDeliveries.duplicated],
    ['partner webhooks lost', report.webhooks.lost],
    ['partner webhooks with a bad signature', report.webhooks.badSignatures],
    ['partner webhook event ids with two bodies', report.webhooks.idsWithTwoBodies],
    ['provider callbacks lost', report.callbacks.lost],
    [
      'callbacks due from the couriers’ moves neither received nor dropped by the terminal rule',
      report.courierCallbacks.lost,
    ],
    ['provider callbacks with a bad signature', report.callbacks.badSignatures],
    ['provider callbacks sent twice with different bodies', report.callbacks.withTwoBodies],
    ['nonterminal callbacks after a terminal one', report.callbacks.nonterminalAfterTerminal],
    ['partner webhooks out of order for their order or delivery', report.webhookOrder.outOfOrder],
    ['provider deliveries without a terminal callback', report.callbacks.deliveriesWithoutTerminalCallback],
    ['idempotent replays that did not return the original answer', replaysDiffering.length],
    ['requests in flight at a SIGTERM cut off', cut.length],
    // A SIGTERM with nothing in flight would prove nothing about in-flight requests.
    ['SIGTERMs with no request in flight', Object.values(report.sigterm).filter((r) => r.inFlight === 0).length],
    ...recovery.promises,
    [`SIGTERMs not ended (exit 0) within ${SIGTERM_BOUND_MS} ms`, slowStops.length],
    ['services whose readiness did not say Kafka was away during an outage', silentReadiness.length],
    ['secrets in logs or metrics', report.secrets.findings.length],
    ['service processes that exited by themselves', report.crashes.length],
  ];
  const lines = [];
  const print = (line) => {
    console.log(line);
    lines.push(line);
  };
  print(
    `proof:faults: ${report.steps !== null ? `the steps "${report.steps}"` : report.seed !== null ? `seed ${report.seed}, ${report.minutes} minutes` : `the ${report.brokers === 3 ? 'three-broker' : 'fixed'} schedule${report.short ? ' (short)' : ''}`}${report.brokers === 3 ? ' on three brokers' : ''}${report.plants.length ? `, planted: ${report.plants.join(', ')}` : ''}`,
  );
  print('\nproof:faults: faults (window; ready again after, bound; refused during the fault, bound; lost, duplicated)');
  recovery.faults.forEach((f, i) => {
    const x = report.faults[i];
    print(
      `  ${f.slow ? 'SLOW' : 'ok  '} ${f.fault}: ${new Date(x.startedAt).toISOString().slice(11, 19)} for ${((x.recoveredAt - x.startedAt) / 1000).toFixed(1)} s; ready after ${f.readyAfterMs === undefined || f.readyAfterMs === null ? 'never' : `${f.readyAfterMs} ms`} (bound ${f.boundMs}); ${f.refused} refused (bound ${f.refusalLimit})${f.refused ? ` ${JSON.stringify(f.refusedBy)}` : ''}; ${x.lost} lost, ${x.duplicated} duplicated`,
    );
  });
  print('\nproof:faults: counts');
  const o = report.orders;
  const d = report.providerDeliveries;
  const w = report.webhooks;
  const c = report.callbacks;
  print(`  traffic: ${report.requestsPerSecond.toFixed(1)} requests/s on average, retries included`);
  print(
    `  orders: ${o.attempted} sent, ${o.acknowledged} acknowledged, ${o.lost} lost, ${o.duplicated} duplicated, ${o.createdUnacknowledged} created but not acknowledged`,
  );
  print(
    `  provider deliveries: ${d.attempted} sent, ${d.acknowledged} acknowledged, ${d.lost} lost, ${d.duplicated} duplicated; statuses ${JSON.stringify(d.statuses)}`,
  );
  print(
    `  partner webhooks: ${w.expected} expected, ${w.received} received, ${w.lost} lost, ${w.duplicateCopies} extra copies (at least once)`,
  );
  const cc = report.courierCallbacks;
  print(
    `  callbacks due from the proof's couriers: ${cc.expected} expected (driver.assigned, delivery.picked_up, delivery.delivered), ${cc.received} received, ${cc.dropped} dropped by the terminal rule, ${cc.lost} lost`,
  );
  print(
    `  partner webhooks in order: ${report.webhookOrder.checked} later events of an order checked, ${report.webhookOrder.outOfOrder} before their first event was delivered`,
  );
  print(
    `  provider callbacks: ${c.published} published, ${c.received} received, ${c.lost} lost, ${c.superseded} left out after a terminal one, ${c.duplicateCopies} extra copies, ${c.deliveriesWithoutTerminalCallback} deliveries not ended yet`,
  );
  print(`  replays: ${report.replays.length} sent again, ${replaysDiffering.length} differed`);
  for (const [name, r] of Object.entries(report.sigterm))
    print(`  SIGTERM ${name}: ${r.inFlight} in flight, ${r.finished} finished, ${r.cut.length} cut off`);
  print('  answers to the traffic from each fault until the next (status and code, or network error):');
  for (const [phase, answers] of Object.entries(report.requests.byPhase))
    print(`    ${phase}: ${JSON.stringify(answers)}`);
  print(
    `  answers by status: ${JSON.stringify(report.requests.statuses)}; network errors: ${JSON.stringify(report.requests.networkErrors)}`,
  );
  print(
    `  secrets audit: ${report.secrets.files} files, ${report.secrets.values} issued values, ${report.secrets.findings.length} findings`,
  );
  const broken = promises.filter(([, count]) => count > 0);
  print('\nproof:faults: promises');
  for (const [what, count] of promises) print(`  ${count === 0 ? 'ok  ' : 'FAIL'} ${what}: ${count}`);
  if (w.missing.length) print(`  missing webhooks (first ${w.missing.length}): ${w.missing.join(', ')}`);
  if (c.missing.length) print(`  missing callbacks (first ${c.missing.length}): ${c.missing.join(', ')}`);
  if (cc.missing.length)
    print(`  callbacks due from the couriers, missing (first ${cc.missing.length}): ${cc.missing.join(', ')}`);
  for (const r of replaysDiffering.slice(0, 5)) print(`  replay of ${r.kind} ${r.key}: ${r.got}`);
  for (const x of cut.slice(0, 10))
    print(`  cut at SIGTERM ${x.name}: ${x.method} ${new URL(x.url).pathname} -> ${x.error ?? x.status}`);
  for (const x of report.requests.internalErrors) print(`  500: ${x.method} ${x.path}: ${x.body}`);
  for (const x of recovery.broken.slice(0, 10))
    print(`  ${x.status} at ${new Date(x.at).toISOString()} (${x.phase}): ${x.method} ${x.path} ${x.code ?? ''}`);
  for (const x of recovery.unexcused.slice(0, 10))
    print(
      `  outside a fault window at ${new Date(x.at).toISOString()} (${x.phase}): ${x.method} ${x.path} ${x.status ?? x.error} ${x.code ?? ''}`,
    );
  for (const x of report.webhookOrder.violations)
    print(`  out of order: ${x.type} of order ${x.orderId} arrived before ${x.first} was delivered`);
  for (const x of report.callbacks.twoBodies) print(`  callback with two bodies: ${x}`);
  for (const x of silentReadiness) print(`  readiness silent about Kafka: ${x}`);
  for (const x of slowStops) print(`  slow SIGTERM: ${x.fault}: exit ${x.exit} after ${x.stoppedMs} ms`);
  for (const x of c.violations) print(`  nonterminal after terminal, delivery ${x.id}: ${x.sequence}`);
  for (const x of report.secrets.findings.slice(0, 10)) print(`  secret: ${x}`);
  for (const x of report.crashes)
    print(`  exited by itself: ${x.name} (pid ${x.pid}) ${x.code ?? x.signal} at ${x.at}`);
  if (report.requests.refused.length)
    print(`  refused for good (first 20): ${JSON.stringify(report.requests.refused)}`);
  writeFileSync(
    join(RESULTS, 'proof-faults.json'),
    JSON.stringify({ ...report, tookSeconds: Math.round((Date.now() - started) / 1000) }, null, 2),
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  print(
    `\nproof:faults: ${broken.length === 0 ? 'every promise held' : `${broken.length} promises broken`} (${seconds} s; .test-results/proof-faults.json, .test-results/proof-faults.txt)`,
  );
  writeFileSync(join(RESULTS, 'proof-faults.txt'), `${lines.join('\n')}\n`);
  return broken.length === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`proof:faults: ${error?.stack ?? error}`);
  process.exitCode = 1;
}
// Lingering sockets (kafkajs, keep-alive) must not keep the run alive after the verdict.
setTimeout(() => process.exit(process.exitCode), 1_000).unref();
