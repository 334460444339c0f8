// The fault proof's schedules: which faults happen, to what, for how long, and how long the traffic
// runs on after each. Pure (no clock, no I/O): `fixedSchedule` is what CI runs (`--short`) and
// what a run without `--seed` runs; `randomSchedule` is the seeded nemesis (`--seed N --minutes M`),
// which picks faults and timings from the seed alone, so one seed always replays one schedule.
// lib/fault-steps.mjs carries a step out; test/proof/nemesis.test.ts holds the unit test.

/** Services in the order the fixed schedule visits them (the gateway last, as they start). */
export const SERVICES = [
  'catalog',
  'ordering-pricing',
  'delivery-assignment',
  'provider-delivery',
  'webhook-sender',
  'gateway-auth',
];
/** Stack components a `crash` step kills (their pid files in .stack/run). */
export const COMPONENTS = ['kafka', 'schema-registry', 'mongo', 'redis'];
/**
 * The longest Redis lease a paused service holds (ordering-pricing's order lock and
 * webhook-sender's delivery lock: 30 s, docs/operations.md#redis): a pause outlives it.
 */
export const LONGEST_LEASE_MS = 30_000;
/** Consumed topics a `poison` step writes garbage to (each has consumers in the proof's cluster). */
export const POISONED_TOPICS = [
  'orders',
  'deliveries',
  'installations',
  'provider-events',
  'catalog',
  'webhook-attempts',
];

/**
 * The kinds of step, each with what it names:
 * - kill {service}: kill -9, started again at once (a crash-looping pod);
 * - twin {service}: a second instance starts; while the consumer groups rebalance the first is
 *   killed and started again; then the second stops (SIGTERM);
 * - term {service}: SIGTERM with requests in flight through it (a rolling restart);
 * - crash {component}: kill -9 of a stack component, started again at once;
 * - outage {component: 'kafka', ms}: Kafka killed and kept away for `ms`;
 * - pause {service, ms}: SIGSTOP for `ms` (longer than its Redis leases), then SIGCONT;
 * - network {component: 'redis' | 'mongo', ms, delayMs, lossPct}: latency and packet loss between
 *   the services and the component for `ms` (lib/latency-proxy.mjs);
 * - partner {mode: 'hang' | 'slow', ms}: the partner endpoint (webhooks and callbacks) never
 *   answers, or answers after seconds, for `ms`;
 * - poison {topics}: a message no consumer can read, on each topic, under load;
 * - broker {node, ms, during?}: with the proof's three-broker Kafka only, one broker killed and
 *   kept away for `ms` (a step `during` happens meanwhile), then started again.
 * Every step has `afterMs`: how long the traffic runs on after the fault before the next one.
 */
export const KINDS = ['kill', 'twin', 'term', 'crash', 'outage', 'pause', 'network', 'partner', 'poison'];
/** Components a network fault can come between the services and (the proof proxies both). */
export const PROXIED = ['redis', 'mongo'];

/**
 * With `--brokers 3` (the proof's own three-broker Kafka, lib/kafka-trio.mjs): each broker killed
 * in turn and started again, the last kept away for a while. The full schedule then kills a
 * service while a broker is away (its groups' coordinator may be that broker) and doubles the
 * webhook sender; CI's short one leaves those two out: a restart while a broker is dead and not
 * yet fenced took 14 to 41 s here (kafkajs's group join waits for the coordinator to move, and
 * once for a request timeout), and the doubled sender 9.8 to 10.6 s, against 10 s.
 */
export function brokerSchedule({ short = true } = {}) {
  const after = short ? 4_000 : 12_000;
  if (short)
    return [
      { kind: 'broker', node: 1, ms: 2_000, afterMs: after },
      { kind: 'broker', node: 2, ms: 2_000, afterMs: after },
      { kind: 'broker', node: 3, ms: 15_000, afterMs: after },
    ];
  return [
    { kind: 'broker', node: 1, ms: 2_000, afterMs: after },
    { kind: 'broker', node: 2, ms: 2_000, afterMs: after },
    { kind: 'broker', node: 3, ms: 60_000, afterMs: after, during: { kind: 'kill', service: 'webhook-sender' } },
    { kind: 'twin', service: 'webhook-sender', afterMs: after },
  ];
}

/** CI's schedule (`short`) and the default one: every fault kind, each service and component once. */
export function fixedSchedule({ short = true } = {}) {
  const after = short ? 4_000 : 12_000;
  const afterComponent = short ? 6_000 : 15_000;
  return [
    ...SERVICES.map((service) => ({ kind: 'kill', service, afterMs: after })),
    ...SERVICES.map((service) => ({ kind: 'twin', service, afterMs: after })),
    ...COMPONENTS.map((component) => ({ kind: 'crash', component, afterMs: afterComponent })),
    { kind: 'network', component: 'mongo', ms: short ? 15_000 : 60_000, delayMs: 40, lossPct: 5, afterMs: after },
    { kind: 'network', component: 'redis', ms: short ? 10_000 : 60_000, delayMs: 30, lossPct: 10, afterMs: after },
    { kind: 'partner', mode: 'hang', ms: short ? 12_000 : 30_000, afterMs: after },
    { kind: 'poison', topics: POISONED_TOPICS, afterMs: after },
    { kind: 'pause', service: 'ordering-pricing', ms: LONGEST_LEASE_MS + 5_000, afterMs: afterComponent },
    { kind: 'outage', component: 'kafka', ms: short ? 30_000 : 180_000, afterMs: afterComponent },
    ...SERVICES.map((service) => ({ kind: 'term', service, afterMs: after })),
  ];
}

/** mulberry32: a small, well-mixed 32-bit generator; the same seed gives the same numbers. */
export function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How long a step keeps the cluster busy, roughly (the fault, its recovery, the time after). */
export function stepCostMs(step) {
  const recovery = {
    broker: 20_000,
    kill: 8_000,
    twin: 15_000,
    term: 10_000,
    crash: 25_000,
    outage: 30_000,
    pause: 10_000,
    network: 5_000,
    partner: 0,
    poison: 1_000,
  };
  return (step.ms ?? 0) + recovery[step.kind] + step.afterMs;
}

/**
 * The seeded nemesis: steps drawn until `minutes` of faults are filled. Kinds are weighted towards
 * the cheap, frequent faults (crashes of services), and every kind comes at least once when the
 * time allows (the first steps go through the kinds in an order the seed shuffles).
 */
export function randomSchedule({ seed, minutes, brokers = 1 }) {
  const random = generator(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (low, high) => Math.round(low + random() * (high - low));
  const weighted = [
    ...Array(4).fill('kill'),
    ...Array(2).fill('twin'),
    ...Array(2).fill('term'),
    ...Array(2).fill('crash'),
    'outage',
    'pause',
    'network',
    'partner',
    'poison',
  ];
  const first = [...KINDS];
  for (let i = first.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [first[i], first[j]] = [first[j], first[i]];
  }
  const budget = minutes * 60_000;
  const steps = [];
  let used = 0;
  while (true) {
    const kind = first.length > 0 ? first.shift() : pick(weighted);
    const afterMs = between(3_000, 20_000);
    const step =
      kind === 'kill' || kind === 'term' || kind === 'twin'
        ? { kind, service: pick(SERVICES), afterMs }
        : kind === 'crash'
          ? { kind, component: pick(COMPONENTS), afterMs }
          : kind === 'outage'
            ? { kind, component: 'kafka', ms: between(20_000, 180_000), afterMs }
            : kind === 'pause'
              ? { kind, service: pick(SERVICES), ms: LONGEST_LEASE_MS + between(1_000, 15_000), afterMs }
              : kind === 'network'
                ? {
                    kind,
                    component: pick(PROXIED),
                    ms: between(5_000, 90_000),
                    delayMs: between(5, 200),
                    lossPct: between(0, 20),
                    afterMs,
                  }
                : kind === 'partner'
                  ? { kind, mode: pick(['hang', 'slow']), ms: between(5_000, 60_000), afterMs }
                  : { kind, topics: POISONED_TOPICS.filter(() => random() < 0.6), afterMs };
    if (step.kind === 'poison' && step.topics.length === 0) step.topics = [pick(POISONED_TOPICS)];
    // Three brokers of the proof's own: a fault of "Kafka" is one broker away, for a while or not.
    if (brokers === 3 && step.component === 'kafka') {
      const away = step.kind === 'outage' ? step.ms : between(1_000, 10_000);
      for (const key of Object.keys(step)) delete step[key];
      Object.assign(step, { kind: 'broker', node: 1 + Math.floor(random() * 3), ms: away, afterMs });
    }
    const cost = stepCostMs(step);
    if (steps.length > 0 && used + cost > budget) break;
    steps.push(step);
    used += cost;
  }
  return steps;
}

/** A step's name in the progress lines and the report: `kill -9 catalog`, `pause ordering-pricing 35 s` … */
export function stepName(step) {
  const seconds = (ms) => `${Math.round(ms / 1000)} s`;
  switch (step.kind) {
    case 'kill':
      return `kill -9 ${step.service}`;
    case 'term':
      return `SIGTERM ${step.service}`;
    case 'twin':
      return `two instances of ${step.service}`;
    case 'crash':
      return `kill -9 ${step.component}`;
    case 'outage':
      return `outage ${step.component} ${seconds(step.ms)}`;
    case 'pause':
      return `pause ${step.service} ${seconds(step.ms)}`;
    case 'partner':
      return `partner endpoint ${step.mode} ${seconds(step.ms)}`;
    case 'network':
      return `network ${step.component} +${step.delayMs} ms ${step.lossPct}% loss ${seconds(step.ms)}`;
    case 'poison':
      return `poison ${step.topics.join(',')}`;
    case 'broker':
      return `kill -9 broker ${step.node} for ${seconds(step.ms)}${step.during ? ` (meanwhile ${stepName(step.during)})` : ''}`;
    default:
      throw new Error(`unknown step kind ${step.kind}`);
  }
}

/** The names of several steps (the unit test's view). */
export const stepNames = (steps) => steps.map(stepName);

/** The services a schedule visits, in order (the unit test's view). */
export const serviceNames = () => SERVICES;

/** What a whole schedule costs, roughly (stepCostMs summed). */
export const scheduleCostMs = (steps) => steps.reduce((sum, step) => sum + stepCostMs(step), 0);

/**
 * The steps of `--steps "kill ordering-pricing; partner hang 10; poison orders"`: each a kind and
 * what it names, seconds where a step lasts (`outage kafka 30`, `pause webhook-sender 35`,
 * `partner slow 20`, `network mongo 20 50 5`: 20 s of 50 ms and 5 % loss); `crash` takes a component, `poison` a comma-separated list of topics (all of
 * them when none is given). Each step is followed by `afterMs` of traffic.
 */
export function parseSteps(text, afterMs = 6_000) {
  return text
    .split(';')
    .map((part) => part.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0)
    .map(([kind, what, seconds, ...rest]) => {
      const ms = Number(seconds) * 1000;
      const need = (ok, expected) => {
        if (!ok) throw new Error(`--steps: "${[kind, what, seconds].filter(Boolean).join(' ')}": expected ${expected}`);
      };
      switch (kind) {
        case 'kill':
        case 'term':
        case 'twin':
          need(SERVICES.includes(what), `a service (${SERVICES.join(', ')})`);
          return { kind, service: what, afterMs };
        case 'crash':
          need(COMPONENTS.includes(what), `a component (${COMPONENTS.join(', ')})`);
          return { kind, component: what, afterMs };
        case 'outage':
          need(what === 'kafka' && ms > 0, 'kafka and seconds');
          return { kind, component: what, ms, afterMs };
        case 'pause':
          need(SERVICES.includes(what) && ms > 0, 'a service and seconds');
          return { kind, service: what, ms, afterMs };
        case 'network': {
          const [, , , delay = '50', loss = '5'] = [kind, what, seconds, ...rest];
          need(
            PROXIED.includes(what) && ms > 0 && Number(delay) >= 0 && Number(loss) >= 0,
            'redis or mongo, seconds, and optionally the delay (ms) and loss (%)',
          );
          return { kind, component: what, ms, delayMs: Number(delay), lossPct: Number(loss), afterMs };
        }
        case 'partner':
          need((what === 'hang' || what === 'slow') && ms > 0, 'hang or slow, and seconds');
          return { kind, mode: what, ms, afterMs };
        case 'broker':
          need(['1', '2', '3'].includes(what) && ms > 0, 'a broker (1, 2 or 3) and seconds');
          return { kind, node: Number(what), ms, afterMs };
        case 'poison': {
          const topics = what ? what.split(',') : POISONED_TOPICS;
          need(
            topics.every((t) => POISONED_TOPICS.includes(t)),
            `topics of ${POISONED_TOPICS.join(', ')}`,
          );
          return { kind, topics, afterMs };
        }
        default:
          throw new Error(`--steps: unknown kind "${kind}" (known: ${KINDS.join(', ')})`);
      }
    });
}
