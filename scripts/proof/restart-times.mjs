#!/usr/bin/env node
// `node scripts/proof/restart-times.mjs [--rounds N] [--bare | --traffic]`: how long each service takes to come back after
// a crash, and to stop on SIGTERM. Starts the six services as child processes with databases and
// consumer groups of their own (scripts/proof/lib/cluster.mjs, as proof:faults does), then for each
// service: kill -9, start again, time until /readyz answers 200; then SIGTERM, time until the
// process exits (and start it again). Only the service processes this script started are signalled:
// the stack (Kafka, MongoDB, Redis) is left alone, so it is safe while others use the stack.
// Prints a table and exits 1 if a restart took longer than the bound of the fault proof
// (RECOVERY_BOUND_MS in lib/recovery.mjs) or a SIGTERM longer than the drain bound.
// The cluster is seeded like the demo first (webhooks to a receiver in this process) and the demo
// provider account's simulated couriers are turned up as in proof:faults, so that provider-delivery
// stops with its simulator busy; --bare skips that. --traffic also runs proof:faults's traffic (at
// its rate), with a burst of reads through the service just before each SIGTERM, as the proof does
// (on a small machine this measures the overload more than the services). Times are from the signal.
// Runs from dist: `npx tsc -b` first.
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../services.mjs';
import { Cluster, SERVICES } from './lib/cluster.mjs';
import { RECOVERY_BOUND_MS, SIGTERM_BOUND_MS } from './lib/recovery.mjs';
import { dropDatabases, prepare, seed } from './lib/setup.mjs';
import { Client } from './lib/client.mjs';
import { Traffic } from './lib/traffic.mjs';

const require = createRequire(join(root, 'package.json'));
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const BARE = args.includes('--bare');
const TRAFFIC = !BARE && args.includes('--traffic');
const ROUNDS = roundsAt >= 0 ? Math.max(1, Number(args[roundsAt + 1]) || 1) : 1;

const started = Date.now();
const say = (line) => console.log(`[${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s] ${line}`);

async function main() {
  const { startReceiver } = require('./shared/testing/dist/receiver.js');
  const receiver = await startReceiver();
  const tag = `rt${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const cluster = new Cluster({ tag, logDir: join(tmpdir(), `restart-times-${tag}`), say });
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      cluster.killAll();
      process.exit(130);
    });
  let traffic;
  /** name -> { kill: [ms], term: [ms], exits: [code or signal] } */
  const times = new Map(SERVICES.map((name) => [name, { kill: [], term: [], exits: [] }]));
  try {
    await cluster.start();
    say(`cluster up (databases proof_${tag}_*; logs in ${cluster.logDir})`);
    if (!BARE) {
      const fixture = await seed(cluster, receiver.url);
      await prepare(cluster, fixture);
      if (TRAFFIC) {
        traffic = new Traffic({
          client: new Client(),
          cluster,
          fixture,
          tag,
          ordersPerSecond: 3,
          deliveriesPerSecond: 0.5,
        });
        traffic.start();
        await new Promise((resolve) => setTimeout(resolve, 10_000));
      }
      say(`seeded; simulated couriers${TRAFFIC ? ' and traffic' : ''} running`);
    }
    for (let round = 1; round <= ROUNDS; round++)
      for (const name of SERVICES) {
        const killedAt = Date.now();
        await cluster.kill(name);
        const readyMs = await cluster.launch(name).then(() => Date.now() - killedAt);
        times.get(name).kill.push(readyMs);
        say(`round ${round}: kill -9 ${name}: ready again after ${readyMs} ms`);
        // Reads through the service kept in flight across the SIGTERM (as proof:faults does).
        let burst;
        try {
          burst = traffic?.burst(name);
        } catch {
          burst = undefined; // nothing acknowledged to read yet
        }
        if (burst) await new Promise((resolve) => setTimeout(resolve, 200));
        burst?.stop();
        const stop = await cluster.terminate(name);
        await burst?.done.catch(() => undefined);
        times.get(name).term.push(stop.ms);
        times.get(name).exits.push(stop.code ?? stop.signal);
        say(`round ${round}: SIGTERM ${name}: exit ${stop.code ?? stop.signal} after ${stop.ms} ms`);
        await cluster.launch(name);
      }
  } finally {
    if (traffic?.running) await traffic.stop().catch(() => undefined);
    await cluster.stop().catch(() => undefined);
    await receiver.close();
    await dropDatabases(cluster, say);
  }
  const worst = (list) => Math.max(...list);
  console.log(`\nrestart-times (${ROUNDS} round${ROUNDS > 1 ? 's' : ''}; worst of the rounds)`);
  console.log(`  ${'service'.padEnd(22)}${'kill -9 to ready'.padStart(18)}${'SIGTERM to exit'.padStart(18)}  exit`);
  let over = 0;
  for (const [name, t] of times) {
    const killMs = worst(t.kill);
    const termMs = worst(t.term);
    const bad = killMs > RECOVERY_BOUND_MS || termMs > SIGTERM_BOUND_MS || t.exits.some((e) => e !== 0);
    if (bad) over++;
    console.log(
      `  ${name.padEnd(22)}${`${killMs} ms`.padStart(18)}${`${termMs} ms`.padStart(18)}  ${t.exits.join(',')}${bad ? '  OVER' : ''}`,
    );
  }
  console.log(
    `\nbounds: ready within ${RECOVERY_BOUND_MS} ms of a kill -9, exit 0 within ${SIGTERM_BOUND_MS} ms of a SIGTERM: ${over === 0 ? 'all met' : `${over} services over`}`,
  );
  return over === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`restart-times: ${error?.stack ?? error}`);
  process.exitCode = 1;
}
setTimeout(() => process.exit(process.exitCode), 1_000).unref();
