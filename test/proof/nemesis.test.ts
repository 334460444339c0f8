/**
 * The fault proof's schedules (scripts/proof/lib/nemesis.mjs), its per-key order check
 * (lib/verify.mjs's webhookOrder) and where its planted defects go (lib/plants.mjs): ES modules,
 * which this CommonJS test calls in a node child process, arguments and answer as JSON.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const LIB = join(__dirname, '..', '..', 'scripts', 'proof', 'lib');

function call<T>(module: string, fn: string, ...args: unknown[]): T {
  const script = `import * as m from ${JSON.stringify(join(LIB, module))};
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => process.stdout.write(JSON.stringify(m[${JSON.stringify(fn)}](...JSON.parse(text)))));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(args),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.status !== 0) throw new Error(`${module} ${fn} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

interface Step {
  kind: string;
  service?: string;
  component?: string;
  ms?: number;
  mode?: string;
  topics?: string[];
  afterMs: number;
}
const KINDS = ['kill', 'twin', 'term', 'crash', 'outage', 'pause', 'network', 'partner', 'poison'];
const LEASE_MS = 30_000;

describe('the seeded nemesis', () => {
  it('replays one schedule for one seed, and draws another from another seed', () => {
    const a = call<Step[]>('nemesis.mjs', 'randomSchedule', { seed: 42, minutes: 10 });
    expect(call<Step[]>('nemesis.mjs', 'randomSchedule', { seed: 42, minutes: 10 })).toEqual(a);
    expect(call<Step[]>('nemesis.mjs', 'randomSchedule', { seed: 43, minutes: 10 })).not.toEqual(a);
  });

  it.each([1, 2, 3, 4, 5])(
    'seed %i: every kind of fault within 10 minutes, and no more steps than the time holds',
    (seed) => {
      const steps = call<Step[]>('nemesis.mjs', 'randomSchedule', { seed, minutes: 10 });
      expect(new Set(steps.map((s) => s.kind))).toEqual(new Set(KINDS));
      expect(call<number>('nemesis.mjs', 'scheduleCostMs', steps)).toBeLessThanOrEqual(10 * 60_000);
      for (const s of steps.filter((x) => x.kind === 'pause')) expect(s.ms).toBeGreaterThan(LEASE_MS);
      for (const s of steps.filter((x) => x.kind === 'outage')) expect(s.ms).toBeLessThanOrEqual(180_000);
      for (const s of steps.filter((x) => x.kind === 'poison')) expect(s.topics!.length).toBeGreaterThan(0);
    },
  );

  it('gives a run too short for a step one step all the same', () => {
    expect(call<Step[]>('nemesis.mjs', 'randomSchedule', { seed: 9, minutes: 0.01 })).toHaveLength(1);
  });

  it('has a fixed schedule with every kind, every service killed and stopped, every component killed', () => {
    const steps = call<Step[]>('nemesis.mjs', 'fixedSchedule', { short: true });
    expect(new Set(steps.map((s) => s.kind))).toEqual(new Set(KINDS));
    const services = call<string[]>('nemesis.mjs', 'serviceNames');
    for (const kind of ['kill', 'twin', 'term'])
      expect(steps.filter((s) => s.kind === kind).map((s) => s.service)).toEqual(services);
    expect(steps.filter((s) => s.kind === 'crash').map((s) => s.component)).toEqual([
      'kafka',
      'schema-registry',
      'mongo',
      'redis',
    ]);
    expect(steps.find((s) => s.kind === 'pause')!.ms).toBeGreaterThan(LEASE_MS);
  });

  it('has a schedule for three brokers: each killed; in full, one away while a service is killed, then the sender doubled', () => {
    const names = (short: boolean) =>
      call<string[]>('nemesis.mjs', 'stepNames', call<Step[]>('nemesis.mjs', 'brokerSchedule', { short }));
    expect(names(true)).toEqual(['kill -9 broker 1 for 2 s', 'kill -9 broker 2 for 2 s', 'kill -9 broker 3 for 15 s']);
    expect(names(false)).toEqual([
      'kill -9 broker 1 for 2 s',
      'kill -9 broker 2 for 2 s',
      'kill -9 broker 3 for 60 s (meanwhile kill -9 webhook-sender)',
      'two instances of webhook-sender',
    ]);
  });

  it('turns the Kafka faults of a seeded schedule into broker faults with three brokers', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const steps = call<Step[]>('nemesis.mjs', 'randomSchedule', { seed, minutes: 10, brokers: 3 });
      expect(steps.filter((s) => s.component === 'kafka')).toEqual([]);
      expect(steps.some((s) => s.kind === 'broker')).toBe(true);
    }
  });

  it('names each step as the progress lines do', () => {
    const names = call<string[]>('nemesis.mjs', 'stepNames', [
      { kind: 'kill', service: 'catalog', afterMs: 0 },
      { kind: 'twin', service: 'gateway-auth', afterMs: 0 },
      { kind: 'outage', component: 'kafka', ms: 180_000, afterMs: 0 },
      { kind: 'pause', service: 'webhook-sender', ms: 35_000, afterMs: 0 },
      { kind: 'partner', mode: 'hang', ms: 12_000, afterMs: 0 },
      { kind: 'poison', topics: ['orders', 'catalog'], afterMs: 0 },
      { kind: 'network', component: 'redis', ms: 10_000, delayMs: 30, lossPct: 10, afterMs: 0 },
    ]);
    expect(names).toEqual([
      'kill -9 catalog',
      'two instances of gateway-auth',
      'outage kafka 180 s',
      'pause webhook-sender 35 s',
      'partner endpoint hang 12 s',
      'poison orders,catalog',
      'network redis +30 ms 10% loss 10 s',
    ]);
  });
});

describe('the steps given on the command line', () => {
  it('reads each kind, with what it names and its seconds', () => {
    expect(
      call<Step[]>(
        'nemesis.mjs',
        'parseSteps',
        'kill ordering-pricing; twin webhook-sender; term catalog; crash schema-registry; outage kafka 30; pause webhook-sender 35; partner slow 20; poison orders,catalog; poison; broker 2 5; network mongo 20 50 5; network redis 10',
        1_000,
      ),
    ).toEqual([
      { kind: 'kill', service: 'ordering-pricing', afterMs: 1_000 },
      { kind: 'twin', service: 'webhook-sender', afterMs: 1_000 },
      { kind: 'term', service: 'catalog', afterMs: 1_000 },
      { kind: 'crash', component: 'schema-registry', afterMs: 1_000 },
      { kind: 'outage', component: 'kafka', ms: 30_000, afterMs: 1_000 },
      { kind: 'pause', service: 'webhook-sender', ms: 35_000, afterMs: 1_000 },
      { kind: 'partner', mode: 'slow', ms: 20_000, afterMs: 1_000 },
      { kind: 'poison', topics: ['orders', 'catalog'], afterMs: 1_000 },
      {
        kind: 'poison',
        topics: ['orders', 'deliveries', 'installations', 'provider-events', 'catalog', 'webhook-attempts'],
        afterMs: 1_000,
      },
      { kind: 'broker', node: 2, ms: 5_000, afterMs: 1_000 },
      { kind: 'network', component: 'mongo', ms: 20_000, delayMs: 50, lossPct: 5, afterMs: 1_000 },
      { kind: 'network', component: 'redis', ms: 10_000, delayMs: 50, lossPct: 5, afterMs: 1_000 },
    ]);
  });

  it.each([
    ['kill billing', /expected a service/],
    ['outage redis 30', /expected kafka and seconds/],
    ['pause catalog', /expected a service and seconds/],
    ['partner sleepy 10', /expected hang or slow/],
    ['poison payments', /expected topics of/],
    ['broker 4 10', /expected a broker/],
    ['network kafka 10', /expected redis or mongo/],
    ['reboot', /unknown kind "reboot"/],
  ])('refuses "%s"', (text, message) => {
    expect(() => call('nemesis.mjs', 'parseSteps', text)).toThrow(message);
  });
});

interface Received {
  at: number;
  hung?: boolean;
  headers: Record<string, string>;
  body: unknown;
}
const webhook = (at: number, type: string, orderId: string, hung = false): Received => ({
  at,
  hung,
  headers: { 'x-marketplace-event-id': `${type}-${orderId}-${at}` },
  body: { type: 'Buffer', data: [...Buffer.from(JSON.stringify({ type, data: { orderId } }))] },
});

/** webhookOrder with the bodies as Buffers (JSON carries them as { type: 'Buffer', data }). */
function order(received: Received[]) {
  const script = `import { webhookOrder } from ${JSON.stringify(join(LIB, 'verify.mjs'))};
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => {
  const received = JSON.parse(text).map((r) => ({ ...r, body: Buffer.from(r.body.data) }));
  process.stdout.write(JSON.stringify(webhookOrder(received)));
});`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(received),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.status !== 0) throw new Error(`webhookOrder failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { checked: number; outOfOrder: number };
}

describe('the per-key order check', () => {
  it('holds when each order’s cancel comes after its creation was delivered, a late copy included', () => {
    expect(
      order([
        webhook(1, 'orders.created', 'o1'),
        webhook(2, 'orders.cancelled', 'o1'),
        webhook(3, 'orders.created', 'o1'),
        webhook(4, 'delivery.assigned', 'o2'),
        webhook(5, 'delivery.cancelled', 'o2'),
      ]),
    ).toEqual({ checked: 2, outOfOrder: 0, violations: [] });
  });

  it('fails a cancel that arrives before the creation, or while the creation was only left hanging', () => {
    const result = order([
      webhook(1, 'orders.cancelled', 'o1'),
      webhook(2, 'orders.created', 'o1'),
      webhook(3, 'orders.created', 'o2', true),
      webhook(4, 'orders.cancelled', 'o2'),
      webhook(5, 'orders.created', 'o2'),
      webhook(6, 'delivery.cancelled', 'o3'),
    ]);
    expect(result.outOfOrder).toBe(3);
  });
});

describe('the planted defects', () => {
  it('go into the starts they name, and an unknown one is refused', () => {
    const args = (names: string[], service: string, nth: number) =>
      call<string[]>('plants.mjs', 'plantArguments', names, service, nth).map((a) => a.split(/[\\/]/).pop());
    expect(args(['never-recovers'], 'ordering-pricing', 1)).toEqual([]);
    expect(args(['never-recovers'], 'ordering-pricing', 2)).toEqual(['--require', 'never-recovers.cjs']);
    expect(args(['never-recovers', 'callback-twice'], 'webhook-sender', 1)).toEqual([
      '--require',
      'callback-twice.cjs',
    ]);
    expect(args(['outbox-drop'], 'catalog', 1)).toEqual([]);
    expect(() => call('plants.mjs', 'plantsOf', 'no-such-plant')).toThrow(/unknown plant no-such-plant/);
  });
});
