import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@marketplace/errors';
import type { AnyTopics, ConsumedEvent } from '@marketplace/events';
import { startService, type RunningService, type ServiceDefinition } from '@marketplace/runtime';
import { freePort, stackEnv, testEventSchema, uniqueName, waitFor } from '@marketplace/testing';

// The consumer metrics of the shared runtime against the real broker: the lag of a group read
// from Kafka (so a held consumer shows it growing, and it comes back to 0 once it moves on), and
// dead letters counted by group, topic and error code.
const topic = uniqueName('runtime.lag');
const group = 'runtime-metrics-it.orders';
let held = false;
let running: RunningService;

const definition: ServiceDefinition<Record<string, never>, AnyTopics> = {
  name: 'runtime-metrics-it',
  defaultPort: 4451,
  topics: [topic],
  setup({ routes, publisher }) {
    routes.post('/orders/:note', 'public', async (ctx) => {
      const orderId = randomUUID();
      await publisher.publish([
        {
          topic,
          key: orderId,
          type: 'test.order.created',
          data: { orderId, status: 1, totalMinor: 100, note: ctx.params.note ?? null },
        },
      ]);
      ctx.status = 201;
    });
    const handler = async (event: ConsumedEvent) => {
      const { note } = event.data as { note: string };
      if (note === 'poison') throw new AppError('validation', 'test.poison', 'this order can never be handled');
      if (held) throw new AppError('unavailable', 'test.held', 'the test holds this order back');
    };
    return { consumers: [{ name: 'orders', topics: [topic], handler, retryBackoffMs: { initial: 100, max: 200 } }] };
  },
};

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
  writeFileSync(join(dir, 'order.schema.json'), JSON.stringify(testEventSchema));
  writeFileSync(
    join(dir, 'topics.json'),
    JSON.stringify({
      defaults: { partitions: 2, retentionMs: 3_600_000 },
      deadLetter: { suffix: '.dlt', partitions: 1, retentionMs: 3_600_000 },
      topics: {
        [topic]: {
          schema: 'order.schema.json',
          key: 'orderId',
          eventTypes: ['test.order.created'],
          description: 'test',
        },
      },
    }),
  );
  Object.assign(process.env, stackEnv(), {
    SCHEMAS_DIR: dir,
    PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    MONGO_DATABASE: uniqueName('runtime_metrics_it').replace(/-/g, '_'),
  });
  running = await startService(definition);
}, 60_000);

afterAll(() => running?.stop());

const scrape = async () => (await fetch(`${running.url}/metrics`)).text();
const publish = async (note: string) =>
  expect((await fetch(`${running.url}/orders/${note}`, { method: 'POST' })).status).toBe(201);

/** The group's lag over its partitions, as scraped; undefined when no series is there yet. */
async function lag(): Promise<number | undefined> {
  const lines = (await scrape())
    .split('\n')
    .filter((l) => l.startsWith(`kafka_consumer_lag_messages{group="${group}",topic="${topic}",`));
  return lines.length === 0 ? undefined : lines.reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

describe('consumer metrics of the shared runtime', () => {
  it('show the lag of a held group growing from the broker, and back to 0 once it moves on', async () => {
    held = true;
    for (let i = 0; i < 4; i++) await publish('ok');
    // The held message and those behind it are not committed: the broker says 4 (the cache and
    // the consumer's commit interval delay it by seconds, not more).
    await waitFor('the lag of the held group to show 4 messages', async () => (await lag()) === 4, 20_000, 500);
    held = false;
    await waitFor('the lag to come back to 0', async () => (await lag()) === 0, 25_000, 500);
  }, 60_000);

  it('count a dead letter by group, topic and error code', async () => {
    await publish('poison');
    const series = `events_dead_lettered_total{group="${group}",topic="${topic}",code="test.poison",service="runtime-metrics-it"} 1`;
    await waitFor('the dead letter to be counted', async () => (await scrape()).includes(series), 15_000, 200);
    expect(await scrape()).toContain(
      `events_consumed_total{topic="${topic}",group="${group}",outcome="dead_lettered",service="runtime-metrics-it"} 1`,
    );
  }, 30_000);
});
