// Carries out one step of a schedule (lib/nemesis.mjs) under the running traffic, prints its
// progress line and answers its fault record for the report and the recovery verdict: its window
// (`startedAt` to `recoveredAt`: when the service, or every service, was ready again), how long
// recovery took (`readyAfterMs`, from the moment the fault ended: the restart, the SIGCONT, the
// component back) and its bound.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BROKER_FENCE_MS,
  COMPONENT_RECOVERY_BOUND_MS,
  COMPONENT_REFUSAL_GRACE_MS,
  RECOVERY_BOUND_MS,
} from './recovery.mjs';
import { stepName } from './nemesis.mjs';
import { writePoison } from './poison.mjs';

/** Longest wait for a service to be ready again before it counts as never (the verdict then fails it). */
const NEVER_MS = 3 * RECOVERY_BOUND_MS;
/** A slow partner endpoint answers after this (under the sender's response timeout of 10 s). */
const SLOW_ANSWER_MS = 4_000;

/** `ctx`: { cluster, client, traffic, receiver, say, tag }. */
export async function runStep(step, ctx) {
  const name = stepName(step);
  ctx.client.phase = name;
  const record = await STEPS[step.kind](step, ctx, name);
  return { fault: name, kind: step.kind, ...record };
}

/** Waits until `service` is ready again: the ms it took, or undefined after NEVER_MS. */
async function readyAgain(cluster, service, launch) {
  const started = Date.now();
  try {
    if (launch) await cluster.launch(service, { timeoutMs: NEVER_MS });
    else {
      while (!(await cluster.ready(service))) {
        if (Date.now() - started > NEVER_MS) return undefined;
        await sleep(100);
      }
    }
    return Date.now() - started;
  } catch {
    return undefined;
  }
}

const ms = (value) => (value === undefined ? 'never' : `${value} ms`);

const STEPS = {
  async kill({ service }, { cluster, say, brokerAway }, name) {
    const startedAt = Date.now();
    await cluster.kill(service);
    // From the kill: what a client waits for (the restart here is instant, a pod's is not).
    const launched = await readyAgain(cluster, service, true);
    const readyAfterMs = launched === undefined ? undefined : Date.now() - startedAt;
    say(`${name}: ready again after ${ms(readyAfterMs)}`);
    // While a broker is dead and not yet fenced, its groups have no coordinator (BROKER_FENCE_MS).
    const boundMs = RECOVERY_BOUND_MS + (brokerAway ? BROKER_FENCE_MS : 0);
    return { startedAt, recoveredAt: Date.now(), readyAfterMs, boundMs };
  },

  async term({ service }, { cluster, client, traffic, say }, name) {
    const burst = traffic.burst(service);
    await sleep(200); // the lanes are sending: each has a read in flight at any moment
    const startedAt = Date.now();
    const inFlight = client.signal(service);
    burst.stop(); // no read starts after the mark
    const stop = await cluster.terminate(service);
    await burst.done;
    const readyAfterMs = await readyAgain(cluster, service, true);
    say(
      `${name}: ${inFlight} requests in flight, exit ${stop.code ?? stop.signal} after ${stop.ms} ms, ready again after ${ms(readyAfterMs)}`,
    );
    // One instance here: from the SIGTERM until the new process is ready, the service is away.
    return {
      startedAt,
      recoveredAt: Date.now(),
      readyAfterMs,
      boundMs: RECOVERY_BOUND_MS,
      inFlight,
      stoppedMs: stop.ms,
      exit: stop.code ?? stop.signal,
    };
  },

  /**
   * Two instances: a second one of the service starts (its consumers join the groups, which
   * rebalance); while they rebalance, the first is killed (kill -9) and started again; then the
   * second leaves with a SIGTERM (a graceful leave, one more rebalance). The partitions move
   * between the instances four times; nothing may be lost, handled twice or sent out of order.
   */
  async twin({ service }, { cluster, say }, name) {
    await cluster.startTwin(service);
    await sleep(300); // its consumers are joining: the groups are rebalancing
    const startedAt = Date.now();
    await cluster.kill(service);
    const launched = await readyAgain(cluster, service, true);
    const readyAfterMs = launched === undefined ? undefined : Date.now() - startedAt;
    const twinReady = await cluster.untilTwinReady(service, NEVER_MS).then(
      () => true,
      () => false,
    );
    const stop = await cluster.terminateTwin(service);
    say(
      `${name}: the first killed while the groups rebalanced, ready again after ${ms(readyAfterMs)}; the second ${twinReady ? 'was ready' : 'never got ready'}, exit ${stop.code ?? stop.signal} after ${stop.ms} ms`,
    );
    return {
      startedAt,
      recoveredAt: Date.now(),
      readyAfterMs: twinReady ? readyAfterMs : undefined,
      boundMs: RECOVERY_BOUND_MS,
      stoppedMs: stop.ms,
      exit: stop.code ?? stop.signal,
    };
  },

  /**
   * One broker of the proof's three (lib/kafka-trio.mjs) killed and kept away for `ms` (`during`
   * happening meanwhile), then started again: with replication factor 3 and min.insync.replicas 2
   * the other two go on taking every write; the services stay ready throughout.
   */
  async broker({ node, ms: awayMs, during }, ctx, name) {
    const { cluster, trio, say } = ctx;
    if (!trio) throw new Error(`${name}: the broker fault needs --brokers 3`);
    const startedAt = Date.now();
    await trio.kill(node);
    const meanwhile = sleep(awayMs);
    const inner = during ? await runStep(during, { ...ctx, brokerAway: true }) : undefined;
    await meanwhile;
    ctx.client.phase = name;
    const restarted = Date.now();
    await trio.restart(node);
    const syncedMs = Date.now() - restarted;
    const readyAfterMs = await cluster.allReady(NEVER_MS).catch(() => undefined);
    say(
      `${name}: started again, every replica in sync after ${syncedMs} ms, every service ready ${ms(readyAfterMs)} later`,
    );
    return {
      startedAt,
      recoveredAt: Date.now(),
      readyAfterMs,
      boundMs: COMPONENT_RECOVERY_BOUND_MS,
      // As after any component's return, the copies catch up after the services are ready.
      graceMs: COMPONENT_REFUSAL_GRACE_MS,
      syncedMs,
      ...(inner && { during: inner }),
    };
  },

  async crash({ component }, { cluster, say }, name) {
    const startedAt = Date.now();
    const pid = await cluster.killComponent(component);
    const upAfterMs = cluster.startComponent(component);
    const readyAfterMs = await cluster.allReady(NEVER_MS).catch(() => undefined);
    say(`${name} (pid ${pid}): up again after ${upAfterMs} ms, every service ready ${ms(readyAfterMs)} later`);
    // The window is the whole outage; the bound is on the services, once the component is back.
    return {
      startedAt,
      recoveredAt: Date.now(),
      upAfterMs,
      readyAfterMs,
      boundMs: COMPONENT_RECOVERY_BOUND_MS,
      graceMs: COMPONENT_REFUSAL_GRACE_MS,
    };
  },

  /** Kafka away for `ms`: the outboxes back up (orders are still taken), readiness says Kafka is down. */
  async outage({ component, ms: outageMs }, { cluster, say }, name) {
    const startedAt = Date.now();
    await cluster.killComponent(component);
    // Every service's readiness, read through the outage: each must say Kafka is away at least once.
    const reported = new Set();
    const until = Date.now() + outageMs;
    while (Date.now() < until) {
      await sleep(Math.min(3_000, Math.max(0, until - Date.now())));
      for (const [service, body] of Object.entries(await cluster.readiness()))
        if (body?.checks && body.checks.kafka !== 'up') reported.add(service);
    }
    const upAfterMs = cluster.startComponent(component);
    const readyAfterMs = await cluster.allReady(NEVER_MS).catch(() => undefined);
    const silent = [...cluster.services.keys()].filter((s) => !reported.has(s));
    say(
      `${name}: up again after ${upAfterMs} ms, every service ready ${ms(readyAfterMs)} later; readiness said Kafka was away on ${reported.size} of ${cluster.services.size} services`,
    );
    return {
      startedAt,
      recoveredAt: Date.now(),
      upAfterMs,
      readyAfterMs,
      boundMs: COMPONENT_RECOVERY_BOUND_MS,
      graceMs: COMPONENT_REFUSAL_GRACE_MS,
      readinessSilent: silent,
    };
  },

  /** SIGSTOP longer than the service's Redis leases, then SIGCONT: no effect may happen twice. */
  async pause({ service, ms: pauseMs }, { cluster, say }, name) {
    const startedAt = Date.now();
    cluster.pause(service);
    await sleep(pauseMs);
    cluster.resume(service);
    const readyAfterMs = await readyAgain(cluster, service, false);
    say(`${name}: resumed, ready again after ${ms(readyAfterMs)}`);
    return { startedAt, recoveredAt: Date.now(), readyAfterMs, boundMs: RECOVERY_BOUND_MS };
  },

  /**
   * Latency and packet loss between every service and a component for `ms` (the proof's proxy,
   * lib/latency-proxy.mjs), then removed: the services may answer slower or refuse (timeouts)
   * meanwhile, and are all ready again after it.
   */
  async network({ component, ms: faultMs, delayMs, lossPct }, { cluster, proxies, say }, name) {
    const proxy = proxies?.[component];
    if (!proxy) throw new Error(`${name}: no proxy in front of ${component}`);
    const startedAt = Date.now();
    await proxy.impair({ delayMs, lossPct });
    await sleep(faultMs);
    await proxy.heal();
    const readyAfterMs = await cluster.allReady(NEVER_MS).catch(() => undefined);
    say(`${name}: removed, every service ready ${ms(readyAfterMs)} after`);
    return { startedAt, recoveredAt: Date.now(), readyAfterMs, boundMs: RECOVERY_BOUND_MS };
  },

  /**
   * The partner endpoint (every webhook and callback of the run) hangs, or answers after seconds,
   * for `ms`. No service is away: the window has no refusals to excuse, and the webhooks and
   * callbacks must still all arrive, in order, after it.
   */
  async partner({ mode, ms: faultMs }, { receiver, say }, name) {
    const startedAt = Date.now();
    const respond = receiver.respond;
    // A request left hanging is marked: it was never delivered (the order check reads the mark).
    receiver.respond =
      mode === 'hang' ? (req) => ((req.hung = true), 'hang') : () => ({ status: 200, delayMs: SLOW_ANSWER_MS });
    await sleep(faultMs);
    receiver.respond = respond;
    say(`${name}: answering again`);
    return { startedAt, recoveredAt: Date.now(), readyAfterMs: 0, boundMs: RECOVERY_BOUND_MS, excuses: false };
  },

  async poison({ topics }, { cluster, say, tag }, name) {
    const startedAt = Date.now();
    const written = await writePoison(cluster.stackEnv, topics, tag);
    // The consumers read on: every service still ready once they have met it.
    await sleep(2_000);
    const readyAfterMs = await cluster.allReady(NEVER_MS).catch(() => undefined);
    say(`${name}: ${written} unreadable messages written, every service ready ${ms(readyAfterMs)} after`);
    return { startedAt, recoveredAt: Date.now(), readyAfterMs, boundMs: RECOVERY_BOUND_MS, written, excuses: false };
  },
};
