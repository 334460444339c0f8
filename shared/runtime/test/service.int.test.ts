import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@marketplace/errors';
import type { AnyTopics, ConsumedEvent } from '@marketplace/events';
import { withOutbox } from '@marketplace/outbox';
import { startService, type RunningService, type ServiceDefinition } from '@marketplace/runtime';
import { stackEnv, testEventSchema, uniqueName, waitFor } from '@marketplace/testing';
import { startTracing } from '@marketplace/tracing';

// One service started in this process with the real runtime: topics from a topics.json, a route
// that writes a state change with its event, a consumer of that event, and a slow route to watch a
// graceful stop let it finish.
const topic = uniqueName('runtime.orders');
const handled: string[] = [];
const traceparents = new Map<string, string | undefined>();
/** While closed, a guard holds every order back (it throws "unavailable", as a copy that is behind does). */
let guardClosed = false;
let running: RunningService;

// The test's own topic (SCHEMAS_DIR below), not one of the platform's: AnyTopics.
const definition: ServiceDefinition<Record<string, never>, AnyTopics> = {
  name: 'runtime-it',
  defaultPort: 4450,
  topics: [topic],
  outboxCollections: ['orders'],
  setup({ routes, db, outbox }) {
    routes.post('/orders', 'public', async (ctx) => {
      const orderId = randomUUID();
      await db.collection('orders').insertOne(
        withOutbox<{ _id: never; status: number }, AnyTopics>({ _id: orderId as never, status: 1 }, [
          {
            topic,
            key: orderId,
            type: 'test.order.created',
            data: { orderId, status: 1, totalMinor: 990, note: null },
          },
        ]),
      );
      await outbox.flush('orders', orderId); // never throws, bounded wait; the sweep covers a failure
      ctx.status = 201;
      ctx.body = { orderId };
    });
    // A request that waits on a consumer (as an assignment waits for its copies): it stages an
    // order after the stop began, then answers once the consumer has handled it.
    routes.post('/orders/read-back', 'public', async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const orderId = randomUUID();
      await db.collection('orders').insertOne(
        withOutbox<{ _id: never; status: number }, AnyTopics>({ _id: orderId as never, status: 1 }, [
          {
            topic,
            key: orderId,
            type: 'test.order.created',
            data: { orderId, status: 1, totalMinor: 1, note: null },
          },
        ]),
      );
      await outbox.flush('orders', orderId);
      const until = Date.now() + 5_000;
      while (!handled.includes(orderId) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      ctx.status = handled.includes(orderId) ? 200 : 503;
      ctx.body = { orderId };
    });
    routes.get('/slow', 'public', async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      ctx.body = { done: true };
    });
    const handler = async (event: ConsumedEvent) => {
      const { orderId } = event.data as { orderId: string };
      if (guardClosed)
        throw new AppError('unavailable', 'test.guard_waits', 'the test guard holds this order back', {
          details: { orderId },
        });
      traceparents.set(orderId, event.headers.traceparent?.toString());
      handled.push(orderId);
    };
    // servesRequests: /orders/read-back waits on it, so it stops after HTTP.
    return { consumers: [{ name: 'orders', topics: [topic], handler, servesRequests: true }] };
  },
};

beforeAll(async () => {
  startTracing({ serviceName: 'runtime-it' }); // as each service's src/tracing.ts does
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
    PORT: '4450',
    LOG_LEVEL: 'warn',
    MONGO_DATABASE: uniqueName('runtime_it').replace(/-/g, '_'),
    CONSUMER_HOLD_ALARM_MS: '1000',
  });
  running = await startService(definition);
});

afterAll(() => running?.stop());

describe('a service on the shared runtime', () => {
  it("creates its topics, publishes through the outbox in the request's trace and consumes, counting outcomes", async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await fetch(`${running.url}/orders`, {
      method: 'POST',
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    expect(res.status).toBe(201);
    const { orderId } = (await res.json()) as { orderId: string };
    await waitFor('the consumer to handle the published event', () => handled.includes(orderId));
    expect(traceparents.get(orderId)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`)); // the request's trace, on to Kafka
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(
      new RegExp(
        `events_consumed_total\\{topic="${topic.replace(/\./g, '\\.')}",group="runtime-it\\.orders",outcome="handled",service="runtime-it"\\} [1-9]`,
      ),
    );
  });

  it('raises the alarm when a consumer holds an event back past CONSUMER_HOLD_ALARM_MS: degraded readiness naming it, a metric; clear once it passes', async () => {
    const readiness = async () => {
      const res = await fetch(`${running.url}/readyz`);
      return {
        status: res.status,
        body: (await res.json()) as {
          status: string;
          checks: Record<string, string>;
          details?: Record<string, string>;
        },
      };
    };
    expect((await readiness()).body.checks.consumers).toBe('up');
    guardClosed = true;
    const res = await fetch(`${running.url}/orders`, { method: 'POST' });
    const { orderId: published } = (await res.json()) as { orderId: string };
    const degraded = await waitFor(
      'readiness to report the consumer hold',
      async () => {
        const r = await readiness();
        return r.body.checks.consumers === 'degraded' ? r : undefined;
      },
      15_000,
      200,
    );
    // Still ready: the service serves its API while the consumer waits.
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe('ready');
    expect(degraded.body.details?.consumers).toMatch(
      new RegExp(
        `^runtime-it\\.orders ${topic.replace(/\./g, '\\.')}\\[\\d\\]@\\d+ held \\d+ s: the test guard holds this order back$`,
      ),
    );
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(
      /consumer_hold_alarms_total\{group="runtime-it\.orders",topic="[^"]+",code="test\.guard_waits",service="runtime-it"\} 1/,
    );
    expect(metrics).toMatch(/consumer_hold_longest_seconds\{group="runtime-it\.orders",service="runtime-it"\} [1-9]/);

    guardClosed = false;
    await waitFor('the held event to be handled', () => handled.includes(published), 15_000);
    await waitFor('readiness to clear', async () => (await readiness()).body.checks.consumers === 'up', 5_000);
  }, 40_000);

  it('finishes a request in flight when stopped, then refuses new connections', async () => {
    const slow = fetch(`${running.url}/slow`);
    const readBack = fetch(`${running.url}/orders/read-back`, { method: 'POST' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = running.stop();
    // During the drain (SHUTDOWN_DRAIN_MS) a request on its way is still served, and told that its
    // connection closes; readiness already says stopping.
    const during = await fetch(`${running.url}/healthz`);
    expect(during.status).toBe(200);
    expect(during.headers.get('connection')).toBe('close');
    const response = await slow;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    // The consumer it waits on kept consuming while HTTP drained.
    expect((await readBack).status).toBe(200);
    await stopped;
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });
});
