#!/usr/bin/env node
// `npm run proof:faults [-- --short] [-- --keep]`: the platform's promises under faults.
//
// A cluster of its own (the six services as child processes, own databases and consumer groups) on
// the local stack, seeded like the demo, with steady traffic: orders through the gateway (some
// cancelled, some assigned to the delivery provider and carried to Delivered), deliveries created on
// provider-delivery and carried by its simulated couriers; webhooks and callbacks go to a receiver
// in this process. Under that traffic, one after the other:
//   1. kill -9 of each service, then started again;
//   2. kill -9 of the Kafka broker, the MongoDB-wire engine and Redis, then started again
//      (Redis: the gateway answers 503 `service.unavailable` while it is away, as
//      docs/operations.md#redis documents; clients retry with the same Idempotency-Key);
//   3. SIGTERM of each service (a rolling restart): the requests in flight through it must finish.
// After each restart the last acknowledged orders and deliveries are sent again with the same key
// and body: the answer must be the original one. Then the traffic stops, the webhooks drain, and
// the checks print their counts:
//   - every acknowledged order exists exactly once; no externalOrderId has two orders;
//   - every acknowledged provider delivery exists once, with the id it was given;
//   - every expected partner webhook (orders.created, orders.cancelled, delivery.assigned) reached
//     the receiver with a valid signature, one event id always with one body;
//   - every event provider-delivery published for those deliveries reached the receiver as a signed
//     callback (or was left out because its delivery's terminal callback had gone: the contract's
//     rule), and nothing nonterminal came after a terminal callback;
//   - every idempotent replay returned the original answer;
//   - no request in flight at a SIGTERM was cut off, and each SIGTERM ended the process (exit 0)
//     within SIGTERM_BOUND_MS;
//   - recovery (lib/recovery.mjs): after each fault the service (after a stack component, every
//     service) was ready again within its bound (10 s from a kill -9 or a SIGTERM; 30 s from a
//     component being up again); no 500 at all; a 502, 503, 504 or a network error only within a
//     fault's window (its start until ready again, plus REFUSAL_GRACE_MS, or
//     COMPONENT_REFUSAL_GRACE_MS after a stack component, while consumers rejoin and copies catch
//     up), where they are counted per fault as refusals and bounded by the window's length and the
//     traffic's rate;
//   - no log line or metric of the run holds a secret issued or seen in it.
// Exit 0 when every promise held, 1 otherwise. --short (what CI runs, in npm test's disruptive
// project) keeps every fault and runs on for less time after each. The counts also go to
// .test-results/proof-faults.json, the services' logs to .test-results/proof-faults/.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../services.mjs';
import { Client } from './lib/client.mjs';
import { Cluster, SERVICES, STACK_COMPONENTS, waitUntil } from './lib/cluster.mjs';
import { readAccountEvents, topicEnds } from './lib/provider-events.mjs';
import {
  COMPONENT_RECOVERY_BOUND_MS,
  COMPONENT_REFUSAL_GRACE_MS,
  RECOVERY_BOUND_MS,
  recoveryVerdict,
  SIGTERM_BOUND_MS,
} from './lib/recovery.mjs';
import { dropDatabases, prepare, seed } from './lib/setup.mjs';
import { auditSecrets } from './lib/secrets.mjs';
import { Traffic } from './lib/traffic.mjs';
import { checkOrders, checkProviderDeliveries, partnerWebhooks, providerCallbacks } from './lib/verify.mjs';

const require = createRequire(join(root, 'package.json'));
const args = process.argv.slice(2);
const SHORT = args.includes('--short');
const KEEP = args.includes('--keep');

/** How long the traffic runs on after each fault, before the next (ms). */
const PLAN = SHORT
  ? { warmMs: 5_000, afterServiceMs: 4_000, afterComponentMs: 6_000, drainMs: 150_000 }
  : { warmMs: 10_000, afterServiceMs: 12_000, afterComponentMs: 15_000, drainMs: 240_000 };
const ORDERS_PER_SECOND = 3;
const DELIVERIES_PER_SECOND = 0.5;
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
  say(`proof:faults${SHORT ? ' --short' : ''}: build and stack`);
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], 'the build');
  run('bash', [join(root, 'scripts/stack/stack.sh'), 'up'], 'the local stack');
  rmSync(LOG_DIR, { recursive: true, force: true });

  const { startReceiver } = require('./shared/testing/dist/receiver.js');
  const receiver = await startReceiver();
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const cluster = new Cluster({ tag, logDir: LOG_DIR, say });
  // Interrupted (Ctrl-C, a test's timeout): no service process of the run may outlive it.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      cluster.killAll();
      process.exit(130);
    });
  const client = new Client();
  const report = { short: SHORT, faults: [], replays: [], sigterm: {} };
  let traffic;
  try {
    await cluster.start();
    say(`cluster up (${SERVICES.length} services, databases proof_${tag}_*); seeding`);
    const fixture = await seed(cluster, receiver.url);
    const admin = await prepare(cluster, fixture);
    const from = await topicEnds(cluster.stackEnv);

    traffic = new Traffic({
      client,
      cluster,
      fixture,
      tag,
      ordersPerSecond: ORDERS_PER_SECOND,
      deliveriesPerSecond: DELIVERIES_PER_SECOND,
    });
    traffic.start();
    const trafficStartedAt = Date.now();
    say(`traffic: ${ORDERS_PER_SECOND} orders/s through the gateway, ${DELIVERIES_PER_SECOND} provider deliveries/s`);
    await sleep(PLAN.warmMs);

    const replay = async () => traffic.replay(REPLAYS_PER_FAULT, report.replays);

    for (const name of SERVICES) {
      client.phase = `kill -9 ${name}`;
      const startedAt = Date.now();
      await cluster.kill(name);
      // From the kill: what a client waits for (the restart here is instant, a pod's is not).
      const readyAfterMs = await cluster.launch(name).then(() => Date.now() - startedAt);
      say(`kill -9 ${name}: ready again after ${readyAfterMs} ms`);
      report.faults.push({
        fault: `kill -9 ${name}`,
        startedAt,
        recoveredAt: Date.now(),
        readyAfterMs,
        boundMs: RECOVERY_BOUND_MS,
      });
      await replay();
      await sleep(PLAN.afterServiceMs);
    }
    for (const component of STACK_COMPONENTS) {
      client.phase = `kill -9 ${component}`;
      const startedAt = Date.now();
      const pid = await cluster.killComponent(component);
      const upMs = cluster.startComponent(component);
      const readyMs = await cluster.allReady();
      say(`kill -9 ${component} (pid ${pid}): up again after ${upMs} ms, every service ready ${readyMs} ms later`);
      // The window is the whole outage; the bound is on the services, once the component is back.
      report.faults.push({
        fault: `kill -9 ${component}`,
        startedAt,
        recoveredAt: Date.now(),
        upAfterMs: upMs,
        servicesReadyAfterMs: readyMs,
        readyAfterMs: readyMs,
        boundMs: COMPONENT_RECOVERY_BOUND_MS,
        graceMs: COMPONENT_REFUSAL_GRACE_MS,
      });
      await replay();
      await sleep(PLAN.afterComponentMs);
    }
    for (const name of SERVICES) {
      client.phase = `SIGTERM ${name}`;
      const burst = traffic.burst(name);
      await sleep(200); // the lanes are sending: each has a read in flight at any moment
      const startedAt = Date.now();
      const inFlight = client.signal(name);
      burst.stop(); // no read starts after the mark
      const stop = await cluster.terminate(name);
      await burst.done;
      const restartMs = await cluster.launch(name);
      say(
        `SIGTERM ${name}: ${inFlight} requests in flight, exit ${stop.code ?? stop.signal} after ${stop.ms} ms, ready again after ${restartMs} ms`,
      );
      // One instance here: from the SIGTERM until the new process is ready, the service is away.
      report.faults.push({
        fault: `SIGTERM ${name}`,
        startedAt,
        recoveredAt: Date.now(),
        readyAfterMs: restartMs,
        boundMs: RECOVERY_BOUND_MS,
        inFlight,
        stoppedMs: stop.ms,
        exit: stop.code ?? stop.signal,
      });
      await replay();
      await sleep(PLAN.afterServiceMs);
    }

    client.phase = 'drain';
    say('traffic stops; waiting for its requests to end');
    await traffic.stop();
    report.requestsPerSecond = client.sent / Math.max(1, (Date.now() - trafficStartedAt) / 1000);
    const drained = await drain(receiver, traffic, fixture);
    say(`drained in ${drained.ms} ms${drained.complete ? '' : ' (gave up: what is missing is counted below)'}`);

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
    } finally {
      await mongo.close();
    }
    report.webhooks = partnerWebhooks(receiver.received, traffic, fixture);
    const events = await readAccountEvents(cluster.stackEnv, from, fixture.provider.accountId, tag);
    report.callbacks = providerCallbacks(receiver.received, events, traffic, fixture);
    for (const name of SERVICES) report.sigterm[name] = client.signalReport(name);
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
    await cluster.stop().catch(() => undefined);
    await receiver.close();
    if (!KEEP) await dropDatabases(cluster, say);
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
  const slowStops = report.faults.filter(
    (f) => f.fault.startsWith('SIGTERM') && (f.stoppedMs > SIGTERM_BOUND_MS || f.exit !== 0),
  );
  const promises = [
    ['acknowledged orders lost', report.orders.lost],
    ['orders created twice for one externalOrderId', report.orders.duplicated],
    ['acknowledged provider deliveries lost', report.providerDeliveries.lost],
    ['provider deliveries created twice for one idempotency key', report.providerDeliveries.duplicated],
    ['partner webhooks lost', report.webhooks.lost],
    ['partner webhooks with a bad signature', report.webhooks.badSignatures],
    ['partner webhook event ids with two bodies', report.webhooks.idsWithTwoBodies],
    ['provider callbacks lost', report.callbacks.lost],
    ['provider callbacks with a bad signature', report.callbacks.badSignatures],
    ['nonterminal callbacks after a terminal one', report.callbacks.nonterminalAfterTerminal],
    ['provider deliveries without a terminal callback', report.callbacks.deliveriesWithoutTerminalCallback],
    ['idempotent replays that did not return the original answer', replaysDiffering.length],
    ['requests in flight at a SIGTERM cut off', cut.length],
    // A SIGTERM with nothing in flight would prove nothing about in-flight requests.
    ['SIGTERMs with no request in flight', Object.values(report.sigterm).filter((r) => r.inFlight === 0).length],
    ...recovery.promises,
    [`SIGTERMs not ended (exit 0) within ${SIGTERM_BOUND_MS} ms`, slowStops.length],
    ['secrets in logs or metrics', report.secrets.findings.length],
    ['service processes that exited by themselves', report.crashes.length],
  ];
  console.log('\nproof:faults: faults (ready again after, bound; refused during the fault, bound)');
  for (const f of recovery.faults)
    console.log(
      `  ${f.slow ? 'SLOW' : 'ok  '} ${f.fault}: ready after ${f.readyAfterMs ?? 'never'} ms (bound ${f.boundMs}); ${f.refused} refused (bound ${f.refusalLimit})${f.refused ? ` ${JSON.stringify(f.refusedBy)}` : ''}`,
    );
  console.log('\nproof:faults: counts');
  const o = report.orders;
  const d = report.providerDeliveries;
  const w = report.webhooks;
  const c = report.callbacks;
  console.log(
    `  orders: ${o.attempted} sent, ${o.acknowledged} acknowledged, ${o.lost} lost, ${o.duplicated} duplicated, ${o.createdUnacknowledged} created but not acknowledged`,
  );
  console.log(
    `  provider deliveries: ${d.attempted} sent, ${d.acknowledged} acknowledged, ${d.lost} lost, ${d.duplicated} duplicated; statuses ${JSON.stringify(d.statuses)}`,
  );
  console.log(
    `  partner webhooks: ${w.expected} expected, ${w.received} received, ${w.lost} lost, ${w.duplicateCopies} extra copies (at least once)`,
  );
  console.log(
    `  provider callbacks: ${c.published} published, ${c.received} received, ${c.lost} lost, ${c.superseded} left out after a terminal one, ${c.duplicateCopies} extra copies, ${c.deliveriesWithoutTerminalCallback} deliveries not ended yet`,
  );
  console.log(`  replays: ${report.replays.length} sent again, ${replaysDiffering.length} differed`);
  for (const [name, r] of Object.entries(report.sigterm))
    console.log(`  SIGTERM ${name}: ${r.inFlight} in flight, ${r.finished} finished, ${r.cut.length} cut off`);
  console.log('  answers to the traffic from each fault until the next (status and code, or network error):');
  for (const [phase, answers] of Object.entries(report.requests.byPhase))
    console.log(`    ${phase}: ${JSON.stringify(answers)}`);
  console.log(
    `  answers by status: ${JSON.stringify(report.requests.statuses)}; network errors: ${JSON.stringify(report.requests.networkErrors)}`,
  );
  console.log(
    `  secrets audit: ${report.secrets.files} files, ${report.secrets.values} issued values, ${report.secrets.findings.length} findings`,
  );
  const broken = promises.filter(([, count]) => count > 0);
  console.log('\nproof:faults: promises');
  for (const [what, count] of promises) console.log(`  ${count === 0 ? 'ok  ' : 'FAIL'} ${what}: ${count}`);
  if (w.missing.length) console.log(`  missing webhooks (first ${w.missing.length}): ${w.missing.join(', ')}`);
  if (c.missing.length) console.log(`  missing callbacks (first ${c.missing.length}): ${c.missing.join(', ')}`);
  for (const r of replaysDiffering.slice(0, 5)) console.log(`  replay of ${r.kind} ${r.key}: ${r.got}`);
  for (const x of cut.slice(0, 10))
    console.log(`  cut at SIGTERM ${x.name}: ${x.method} ${new URL(x.url).pathname} -> ${x.error ?? x.status}`);
  for (const x of report.requests.internalErrors) console.log(`  500: ${x.method} ${x.path}: ${x.body}`);
  for (const x of recovery.broken.slice(0, 10))
    console.log(`  ${x.status} at ${new Date(x.at).toISOString()} (${x.phase}): ${x.method} ${x.path} ${x.code ?? ''}`);
  for (const x of recovery.unexcused.slice(0, 10))
    console.log(
      `  outside a fault window at ${new Date(x.at).toISOString()} (${x.phase}): ${x.method} ${x.path} ${x.status ?? x.error} ${x.code ?? ''}`,
    );
  for (const x of slowStops) console.log(`  slow SIGTERM: ${x.fault}: exit ${x.exit} after ${x.stoppedMs} ms`);
  for (const x of c.violations) console.log(`  nonterminal after terminal, delivery ${x.id}: ${x.sequence}`);
  for (const x of report.secrets.findings.slice(0, 10)) console.log(`  secret: ${x}`);
  for (const x of report.crashes)
    console.log(`  exited by itself: ${x.name} (pid ${x.pid}) ${x.code ?? x.signal} at ${x.at}`);
  if (report.requests.refused.length)
    console.log(`  refused for good (first 20): ${JSON.stringify(report.requests.refused)}`);
  writeFileSync(
    join(RESULTS, 'proof-faults.json'),
    JSON.stringify({ ...report, tookSeconds: Math.round((Date.now() - started) / 1000) }, null, 2),
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `\nproof:faults: ${broken.length === 0 ? 'every promise held' : `${broken.length} promises broken`} (${seconds} s; .test-results/proof-faults.json)`,
  );
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
