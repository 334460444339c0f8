import { Registry } from 'prom-client';
import { ConsumerLag, consumerLagMetrics, lagOf, type LagAdmin } from './consumer-lag';

// The lag per group and partition from a broker's answers: computed right, served from a cache,
// bounded in time, and kept (with the failure counted) when the broker does not answer.
type Offsets = Record<string, Array<{ partition: number; high: string; low: string }>>;
type Committed = Record<string, Record<string, string[]>>; // group -> topic -> offset per partition

function fakeAdmin(ends: Offsets, committed: Committed, behaviour: { hang?: boolean; fail?: boolean } = {}) {
  const calls = { connects: 0, reads: 0 };
  const admin: LagAdmin = {
    fetchTopicOffsets: async (topic: string) => {
      calls.reads++;
      if (behaviour.fail) throw new Error('broker away');
      if (behaviour.hang) await new Promise(() => {});
      return (ends[topic] ?? []).map((e) => ({ ...e, offset: e.high }));
    },
    fetchOffsets: async ({ groupId, topics }: { groupId: string; topics?: string[] }) =>
      (topics ?? []).map((topic) => ({
        topic,
        partitions: (committed[groupId]?.[topic] ?? []).map((offset, partition) => ({
          partition,
          offset,
          metadata: null,
        })),
      })),
  };
  return { admin, calls, behaviour };
}

describe('lagOf', () => {
  it('is the end minus the committed offset, everything retained when nothing is committed, never negative', () => {
    expect(lagOf('7', { high: '10', low: '0' })).toBe(3);
    expect(lagOf('-1', { high: '10', low: '4' })).toBe(6);
    expect(lagOf('12', { high: '10', low: '0' })).toBe(0);
    expect(lagOf('3', undefined)).toBe(0);
  });
});

describe('ConsumerLag', () => {
  const ends: Offsets = {
    orders: [
      { partition: 0, high: '10', low: '0' },
      { partition: 1, high: '5', low: '2' },
    ],
  };
  const committed: Committed = { 'svc.orders': { orders: ['4', '-1'] } };

  it('reads every watched group and partition, then serves the cache while it is fresh', async () => {
    const fake = fakeAdmin(ends, committed);
    const lag = new ConsumerLag({ connect: async () => (fake.calls.connects++, fake.admin), maxAgeMs: 1000 });
    expect(await lag.read()).toEqual([]); // nothing watched: the broker is not asked
    lag.watch('svc.orders', ['orders']);
    const first = await lag.read(Date.now());
    expect(first).toEqual([
      { group: 'svc.orders', topic: 'orders', partition: 0, lag: 6 },
      { group: 'svc.orders', topic: 'orders', partition: 1, lag: 3 },
    ]);
    await lag.read(Date.now());
    expect(fake.calls.reads).toBe(1);
    await lag.read(Date.now() + 5000);
    expect(fake.calls.reads).toBe(2);
    expect(fake.calls.connects).toBe(1); // one client, kept
  });

  it('answers within the timeout with the last values when the broker hangs, counts it and connects afresh', async () => {
    const fake = fakeAdmin(ends, committed);
    const registry = new Registry();
    const dropped: LagAdmin[] = [];
    const lag = consumerLagMetrics(registry, {
      connect: async () => (fake.calls.connects++, fake.admin),
      disconnect: async (admin) => void dropped.push(admin),
      timeoutMs: 100,
      maxAgeMs: 0,
    });
    lag.watch('svc.orders', ['orders']);
    let text = await registry.metrics();
    expect(text).toMatch(/^kafka_consumer_lag_messages\{group="svc\.orders",topic="orders",partition="0"\} 6$/m);
    expect(text).toMatch(/^kafka_consumer_lag_read_failures_total 0$/m);

    fake.behaviour.hang = true;
    const started = Date.now();
    text = await registry.metrics();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(text).toMatch(/^kafka_consumer_lag_messages\{group="svc\.orders",topic="orders",partition="0"\} 6$/m);
    expect(text).toMatch(/^kafka_consumer_lag_read_failures_total 1$/m);
    expect(dropped).toHaveLength(1);

    fake.behaviour.hang = false;
    fake.behaviour.fail = true;
    text = await registry.metrics();
    expect(text).toMatch(/^kafka_consumer_lag_read_failures_total 2$/m);
    expect(text).toMatch(/partition="1"\} 3$/m);

    fake.behaviour.fail = false;
    committed['svc.orders']!.orders = ['10', '5'];
    text = await registry.metrics();
    expect(text).toMatch(/^kafka_consumer_lag_messages\{group="svc\.orders",topic="orders",partition="0"\} 0$/m);
    expect(fake.calls.connects).toBe(3);
  });
});
