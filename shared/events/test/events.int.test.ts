import { randomUUID } from 'node:crypto';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { MongoClient } from 'mongodb';
import { Partitioners, type Producer } from 'kafkajs';
import { AppError } from '@marketplace/errors';
import {
  DLT_HEADER,
  EventConsumer,
  HEADER,
  ensureTopics,
  headerText,
  type ConsumedEvent,
  type TopicContract,
} from '@marketplace/events';
import { processedEvents } from '@marketplace/store';
import { quietLogger, readTopic, testEvents, uniqueName, waitFor, type RawTopicReader } from '@marketplace/testing';
import { startTracing } from '@marketplace/tracing';
import { registryAuthorization, registryConnectionFromEnv } from '../src/registry-connection';

/** A request to the stack's registry, signed in as its settings say. */
const registryRequest = (env: Record<string, string | undefined>): RequestInit => {
  const authorization = registryAuthorization(registryConnectionFromEnv(env));
  return { headers: authorization ? { authorization } : {} };
};

/** The test topic's values (testEventSchema) and event types: what its consumer is typed with. */
interface TestOrder {
  orderId: string;
  status: number;
  totalMinor: number;
  note?: string | null;
}
type TestTopics = Record<string, TopicContract<TestOrder, 'test.order.created' | 'test.order.cancelled'>>;

const logger = quietLogger();
const { env, catalog, topic, kafka, schemas, validator, publisher } = testEvents('events', logger);
const mongo = new MongoClient(env.MONGO_URL);
const db = mongo.db(uniqueName('events_it').replace(/[-.]/g, '_'));
let raw: Producer;
let dlt: Producer;
let consumer: EventConsumer<TestTopics>;
let deadLetters: RawTopicReader;
const handled: ConsumedEvent<TestOrder>[] = [];
const failures = new Map<string, { error: Error; times: number }>();
const outcomes: string[] = [];

/** The handler under test: records events; fails as told for some order ids. */
async function handler(event: ConsumedEvent<TestOrder>) {
  const orderId = event.data.orderId;
  const failure = failures.get(orderId);
  if (failure && failure.times > 0) {
    failure.times -= 1;
    throw failure.error;
  }
  handled.push(event);
}

const order = (over: Record<string, unknown> = {}) => ({
  orderId: randomUUID(),
  status: 1,
  totalMinor: 1250,
  note: null,
  ...over,
});
const handledOrder = (orderId: string) => handled.filter((e) => e.data.orderId === orderId);

beforeAll(async () => {
  startTracing({ serviceName: 'events-it' }); // no endpoint: propagation only
  await mongo.connect();
  await ensureTopics(kafka, catalog, [topic]);
  await publisher.connect();
  raw = kafka.producer();
  dlt = kafka.producer();
  await Promise.all([raw.connect(), dlt.connect()]);
  const groupId = uniqueName('events-it');
  consumer = new EventConsumer<TestTopics>(
    kafka,
    catalog,
    schemas,
    validator,
    dlt,
    {
      groupId,
      topics: [topic],
      handler,
      processed: processedEvents(db, groupId),
      retryBackoffMs: { initial: 50, max: 200 },
      onOutcome: (outcome) => void outcomes.push(outcome),
    },
    logger,
  );
  const joined = consumer.onceJoined();
  await consumer.start();
  await joined;
  deadLetters = await readTopic(kafka, catalog.deadLetterTopicOf(topic));
});

afterAll(async () => {
  await consumer?.stop();
  await deadLetters?.stop();
  await publisher.disconnect();
  await raw?.disconnect();
  await dlt?.disconnect();
  await db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe('events through the schema registry and real Kafka', () => {
  it('publishes in the Confluent wire format and consumes the decoded, validated event with its headers', async () => {
    const data = order();
    const reader = await readTopic(kafka, topic);
    const [published] = await publisher.publish([{ topic, key: data.orderId, type: 'test.order.created', data }]);
    const event = await waitFor('the consumer to handle the event', () => handledOrder(data.orderId)[0]);
    expect(event).toMatchObject({
      topic,
      key: data.orderId,
      eventId: published!.eventId,
      type: 'test.order.created',
      data,
    });
    expect(Date.parse(event.occurredAt!)).not.toBeNaN();

    const message = await waitFor('the raw message', () =>
      reader.messages.find((m) => headerText(m.headers, HEADER.eventId) === published!.eventId),
    );
    await reader.stop();
    expect(message.value![0]).toBe(0); // magic byte
    const schemaId = message.value!.readInt32BE(1);
    const registered = (await (
      await fetch(`${env.SCHEMA_REGISTRY_URL}/schemas/ids/${schemaId}`, registryRequest(env))
    ).json()) as {
      schema: string;
    };
    expect(JSON.parse(registered.schema)).toEqual(catalog.get(topic).schema);
    expect(JSON.parse(message.value!.subarray(5).toString('utf8'))).toEqual(data);
  });

  it('carries the W3C trace context from the producer to the handler', async () => {
    const traceId = randomUUID().replace(/-/g, '');
    const parent = trace.setSpanContext(context.active(), {
      traceId,
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    const data = order();
    await context.with(parent, () =>
      publisher.publish([{ topic, key: data.orderId, type: 'test.order.created', data }]),
    );
    const event = await waitFor('the traced event', () => handledOrder(data.orderId)[0]);
    expect(headerText(event.headers, HEADER.traceparent)).toBe(`00-${traceId}-00f067aa0ba902b7-01`);
  });

  it('refuses to publish an event that does not match its schema or type', async () => {
    await expect(
      publisher.publish([
        { topic, key: 'k', type: 'test.order.created', data: { orderId: 'not-a-uuid', status: 1, totalMinor: -1 } },
      ]),
    ).rejects.toMatchObject({
      code: 'event.schema_violation',
    });
    await expect(
      publisher.publish([{ topic, key: 'k', type: 'test.order.shipped', data: order() }]),
    ).rejects.toMatchObject({ code: 'event.unknown_type' });
  });

  it('handles an event id once, however often it is delivered', async () => {
    const data = order();
    const eventId = randomUUID();
    await publisher.publish([{ topic, key: data.orderId, type: 'test.order.created', data, eventId }]);
    await publisher.publish([{ topic, key: data.orderId, type: 'test.order.created', data, eventId }]);
    const marker = order();
    await publisher.publish([{ topic, key: data.orderId, type: 'test.order.created', data: marker }]); // same partition, after both
    await waitFor('the marker event after the duplicates', () => handledOrder(marker.orderId)[0]);
    expect(handledOrder(data.orderId)).toHaveLength(1);
    expect(outcomes).toContain('duplicate');
  });

  it('sends malformed messages (and undeclared event types) to the dead-letter topic with the reason, and goes on', async () => {
    const key = randomUUID();
    const notWire = randomUUID();
    const invalid = randomUUID();
    const noId = randomUUID();
    const undeclared = randomUUID();
    const untyped = randomUUID();
    const { id: schemaId } = (await fetch(
      `${env.SCHEMA_REGISTRY_URL}/subjects/${topic}-value/versions/latest`,
      registryRequest(env),
    ).then((r) => r.json())) as { id: number };
    const wire = (value: unknown) => {
      const header = Buffer.alloc(5);
      header.writeInt32BE(schemaId, 1);
      return Buffer.concat([header, Buffer.from(JSON.stringify(value))]);
    };
    await raw.send({
      topic,
      messages: [
        {
          key,
          value: Buffer.from('{"orderId":"plain json"}'),
          headers: { [HEADER.eventId]: notWire, [HEADER.eventType]: 'test.order.created' },
        },
        {
          key,
          value: wire({ orderId: 'nope', status: 99, totalMinor: 1 }),
          headers: { [HEADER.eventId]: invalid, [HEADER.eventType]: 'test.order.created' },
        },
        { key, value: wire(order()), headers: { [HEADER.eventType]: 'test.order.created' } },
        {
          key,
          value: wire(order()),
          headers: { [HEADER.eventId]: 'x'.repeat(10_000), [HEADER.eventType]: 'test.order.created' },
        },
        // Valid values, but with an event type the catalog does not declare for the topic, or none.
        {
          key,
          value: wire(order()),
          headers: { [HEADER.eventId]: undeclared, [HEADER.eventType]: 'test.order.shipped' },
        },
        { key, value: wire(order()), headers: { [HEADER.eventId]: untyped } },
      ],
    });
    const after = order({ orderId: key });
    await publisher.publish([{ topic, key, type: 'test.order.created', data: after }]);

    await waitFor('the valid event after the malformed ones', () => handledOrder(key)[0]);
    const dead = await waitFor('six dead letters', () => {
      const mine = deadLetters.messages.filter((m) => m.key?.toString() === key);
      return mine.length === 6 ? mine : undefined;
    });
    const codes = dead.map((m) => headerText(m.headers, DLT_HEADER.errorCode)).sort();
    expect(codes).toEqual([
      'event.invalid_id',
      'event.missing_id',
      'event.not_wire_format',
      'event.schema_violation',
      'event.unknown_type',
      'event.unknown_type',
    ]);
    const byCode = Object.fromEntries(dead.map((m) => [headerText(m.headers, DLT_HEADER.errorCode), m]));
    const unknownTypes = dead
      .filter((m) => headerText(m.headers, DLT_HEADER.errorCode) === 'event.unknown_type')
      .map((m) => headerText(m.headers, HEADER.eventId));
    expect(unknownTypes.sort()).toEqual([undeclared, untyped].sort());
    const violation = byCode['event.schema_violation']!;
    expect(headerText(violation.headers, DLT_HEADER.reason)).toContain('/orderId');
    expect(headerText(violation.headers, DLT_HEADER.sourceTopic)).toBe(topic);
    expect(headerText(violation.headers, HEADER.eventId)).toBe(invalid);
    expect(headerText(byCode['event.not_wire_format']!.headers, HEADER.eventId)).toBe(notWire);
    expect(byCode['event.not_wire_format']!.value!.toString()).toBe('{"orderId":"plain json"}');
    expect(handled.some((e) => ([notWire, invalid, noId, undeclared, untyped] as string[]).includes(e.eventId))).toBe(
      false,
    );
    expect(outcomes.filter((o) => o === 'dead_lettered').length).toBeGreaterThanOrEqual(6);
  });

  it('retries a retriable handler failure without dead-lettering, and dead-letters a permanent one', async () => {
    const flaky = order();
    const rejected = order();
    failures.set(flaky.orderId, { error: new AppError('unavailable', 'db.down', 'database unavailable'), times: 3 });
    failures.set(rejected.orderId, {
      error: new AppError('validation', 'order.unknown_branch', 'unknown branch'),
      times: 1,
    });
    await publisher.publish([
      { topic, key: flaky.orderId, type: 'test.order.created', data: flaky },
      { topic, key: rejected.orderId, type: 'test.order.created', data: rejected },
    ]);
    await waitFor('the flaky event to succeed', () => handledOrder(flaky.orderId)[0]);
    const dead = await waitFor('the rejected event in the dead-letter topic', () =>
      deadLetters.messages.find((m) => m.key?.toString() === rejected.orderId),
    );
    expect(headerText(dead.headers, DLT_HEADER.errorCode)).toBe('order.unknown_branch');
    expect(handledOrder(rejected.orderId)).toHaveLength(0);
    expect(deadLetters.messages.some((m) => m.key?.toString() === flaky.orderId)).toBe(false);
  });
});

describe('stopping a consumer', () => {
  it('cuts every retry wait short, leaves the messages uncommitted, and a restarted consumer handles them', async () => {
    const groupId = uniqueName('events-stop');
    // Two keys on each of the three partitions (chosen with the producer's own partitioner), so the
    // stuck messages are on every partition, each in its own retry wait.
    const partitionOf = Partitioners.DefaultPartitioner();
    const metadata = [0, 1, 2].map((partitionId) => ({
      partitionId,
      leader: 0,
      replicas: [0],
      isr: [0],
      partitionErrorCode: 0,
    }));
    const perPartition = new Map<number, ReturnType<typeof order>[]>([
      [0, []],
      [1, []],
      [2, []],
    ]);
    while ([...perPartition.values()].some((orders) => orders.length < 2)) {
      const candidate = order();
      const partition = partitionOf({
        topic,
        partitionMetadata: metadata,
        message: { key: candidate.orderId, value: null },
      });
      if (perPartition.get(partition)!.length < 2) perPartition.get(partition)!.push(candidate);
    }
    const stuck = [...perPartition.values()].flat();
    const stuckIds = new Set<string>(stuck.map((o) => o.orderId));
    const failingOn = new Set<number>();
    const healed = new Set<string>();
    const make = (healthy: boolean) =>
      new EventConsumer<TestTopics>(
        kafka,
        catalog,
        schemas,
        validator,
        dlt,
        {
          groupId,
          topics: [topic],
          processed: processedEvents(db, groupId),
          retryBackoffMs: { initial: 10_000, max: 10_000 },
          handler: async (event) => {
            const { orderId } = event.data;
            if (!stuckIds.has(orderId)) return;
            if (healthy) return void healed.add(orderId);
            failingOn.add(event.partition);
            throw new AppError('unavailable', 'db.down', 'database unavailable');
          },
        },
        logger,
      );
    // Published before the consumer starts, so its first fetch brings every partition at once
    // (kafkajs fetches per broker and waits for a fetch's batches to drain before the next).
    await publisher.publish(stuck.map((o) => ({ topic, key: o.orderId, type: 'test.order.created', data: o })));
    const failing = make(false);
    await failing.start();
    try {
      // Generous: the consumer first joins its group, slow when the machine is loaded.
      await waitFor('failing attempts on two partitions at once', () => failingOn.size >= 2, 45_000);
    } finally {
      const stopping = Date.now();
      await failing.stop(); // also when the wait failed: a running consumer would keep jest alive
      expect(Date.now() - stopping).toBeLessThan(5000); // none of them sat out its 10 s backoff
    }

    const healthy = make(true);
    await healthy.start();
    try {
      await waitFor(
        'the restarted consumer to handle every uncommitted message',
        () => healed.size === stuck.length,
        30_000,
      );
    } finally {
      await healthy.stop();
    }
    expect(deadLetters.messages.some((m) => stuckIds.has(m.key?.toString() ?? ''))).toBe(false);
  }, 120_000);
});
