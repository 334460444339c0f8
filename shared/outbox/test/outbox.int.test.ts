import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import type { Producer } from 'kafkajs';
import {
  EventConsumer,
  HEADER,
  ensureTopics,
  headerText,
  type AnyTopics,
  type ConsumedEvent,
  type OutgoingEvent,
} from '@marketplace/events';
import { OUTBOX, OUTBOX_SINCE, OutboxRelay, updateWithOutbox, withOutbox } from '@marketplace/outbox';
import { processedEvents } from '@marketplace/store';
import { quietLogger, readTopic, testEvents, uniqueName, waitFor, type RawTopicReader } from '@marketplace/testing';

const logger = quietLogger();
const { env, catalog, topic, kafka, schemas, validator, publisher } = testEvents('outbox', logger);
const mongo = new MongoClient(env.MONGO_URL);
const database = uniqueName('outbox_it').replace(/-/g, '_');
let db: Db;
let relay: OutboxRelay;
let consumer: EventConsumer<AnyTopics>;
let dlt: Producer;
let onTopic: RawTopicReader;
const handled: ConsumedEvent[] = [];

// The test topic's events: not the platform's topics, so AnyTopics (checked at run time only).
const orderEvent = (orderId: string, eventId = randomUUID()): OutgoingEvent<AnyTopics> => ({
  topic,
  key: orderId,
  type: 'test.order.created',
  eventId,
  data: { orderId, status: 1, totalMinor: 4200, note: null },
});
const copiesOnTopic = (eventId: string) =>
  onTopic.messages.filter((m) => headerText(m.headers, HEADER.eventId) === eventId).length;
const handledCount = (eventId: string) => handled.filter((e) => e.eventId === eventId).length;
const orders = () =>
  db.collection<{ _id: string; status: number; [OUTBOX]?: unknown[]; [OUTBOX_SINCE]?: Date }>('orders');
/** An order document with the test topic's events in its outbox. */
const staged = (doc: { _id: string; status: number }, events: OutgoingEvent<AnyTopics>[], now?: Date) =>
  withOutbox<typeof doc, AnyTopics>(doc, events, now);

/** Runs the crashing writer in its own process and waits for it to die. */
function crashWriter(
  crashAt: 'before-publish' | 'after-publish',
  orderId: string,
  eventId: string,
): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'crashing-writer.js')], {
    env: {
      ...process.env,
      ...env,
      DATABASE: database,
      TOPIC: topic,
      ORDER_ID: orderId,
      EVENT_ID: eventId,
      CRASH_AT: crashAt,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
}

beforeAll(async () => {
  await mongo.connect();
  db = mongo.db(database);
  await ensureTopics(kafka, catalog, [topic]);
  await publisher.connect();
  relay = new OutboxRelay({ db, publisher, collections: ['orders'], logger, graceMs: 0 });
  dlt = kafka.producer();
  await dlt.connect();
  const groupId = uniqueName('outbox-it');
  consumer = new EventConsumer<AnyTopics>(
    kafka,
    catalog,
    schemas,
    validator,
    dlt,
    { groupId, topics: [topic], processed: processedEvents(db, groupId), handler: async (e) => void handled.push(e) },
    logger,
  );
  const joined = consumer.onceJoined();
  await consumer.start();
  await joined;
  onTopic = await readTopic(kafka, topic);
});

afterAll(async () => {
  await consumer?.stop();
  await onTopic?.stop();
  await Promise.all([publisher.disconnect(), dlt?.disconnect()]);
  await db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe('outbox: a state change and its event are never split by a crash', () => {
  it('publishes the event of a write whose process died before publishing', async () => {
    const orderId = randomUUID();
    const eventId = randomUUID();
    expect(await crashWriter('before-publish', orderId, eventId)).toBe('SIGKILL');

    const stored = await orders().findOne({ _id: orderId });
    expect(stored).toMatchObject({ status: 1, [OUTBOX]: [expect.objectContaining({ eventId })] });
    expect(copiesOnTopic(eventId)).toBe(0);

    expect(await relay.sweep()).toBeGreaterThanOrEqual(1);
    await waitFor('the recovered event to be handled', () => handledCount(eventId) === 1);
    const after = await orders().findOne({ _id: orderId });
    expect(after![OUTBOX]).toEqual([]);
    expect(after![OUTBOX_SINCE]).toBeUndefined();
  });

  it('republishes after a crash between publish and removal, and consumers handle it once', async () => {
    const orderId = randomUUID();
    const eventId = randomUUID();
    expect(await crashWriter('after-publish', orderId, eventId)).toBe('SIGKILL');
    await waitFor('the first copy on the topic', () => copiesOnTopic(eventId) === 1);
    expect((await orders().findOne({ _id: orderId }))![OUTBOX]).toHaveLength(1); // not yet removed

    await relay.sweep();
    await waitFor('the second copy on the topic', () => copiesOnTopic(eventId) === 2);
    const marker = orderEvent(orderId); // same key, so same partition, behind both copies
    await publisher.publish([marker]);
    await waitFor('the marker event', () => handledCount(marker.eventId!) === 1);
    expect(handledCount(eventId)).toBe(1);
    expect((await orders().findOne({ _id: orderId }))![OUTBOX]).toEqual([]);
  });

  it('publishes nothing for a write that failed (no phantom event)', async () => {
    const orderId = randomUUID();
    await orders().insertOne(withOutbox({ _id: orderId, status: 1 }, []));
    const phantom = orderEvent(orderId);
    await expect(orders().insertOne(staged({ _id: orderId, status: 2 }, [phantom]))).rejects.toMatchObject({
      code: 11000,
    });
    await relay.sweep();
    const marker = orderEvent(orderId);
    await publisher.publish([marker]);
    await waitFor('the marker event', () => handledCount(marker.eventId!) === 1);
    expect(copiesOnTopic(phantom.eventId!)).toBe(0);
  });

  it('keeps an event staged while an earlier one was being published', async () => {
    const orderId = randomUUID();
    const first = orderEvent(orderId);
    const second = orderEvent(orderId);
    await orders().insertOne(staged({ _id: orderId, status: 1 }, [first]));
    // A second state change lands while the first event is in flight.
    const racing = new OutboxRelay({
      db,
      collections: ['orders'],
      logger,
      publisher: {
        publishStored: async (events) => {
          await orders().updateOne(
            { _id: orderId },
            updateWithOutbox<{ _id: string; status: number }, AnyTopics>({ $set: { status: 2 } }, [second]),
          );
          return publisher.publishStored(events);
        },
      },
    });
    await racing.flush('orders', orderId);
    const between = await orders().findOne({ _id: orderId });
    expect(between![OUTBOX]).toEqual([expect.objectContaining({ eventId: second.eventId })]);
    expect(between![OUTBOX_SINCE]).toBeInstanceOf(Date);

    await relay.flush('orders', orderId);
    await waitFor(
      'both events handled',
      () => handledCount(first.eventId!) === 1 && handledCount(second.eventId!) === 1,
    );
    expect((await orders().findOne({ _id: orderId }))![OUTBOX_SINCE]).toBeUndefined();
  });

  it('clears the inserted documents flushWritten published together, within the batch time', async () => {
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const events = ids.map((id) => orderEvent(id));
    const written = ids.map((id, i) => staged({ _id: id, status: 1 }, [events[i]!]));
    await orders().insertMany(written);
    await Promise.all(written.map((doc) => relay.flushWritten('orders', doc)));
    await waitFor('every document cleared', async () => {
      const docs = await orders()
        .find({ _id: { $in: ids } })
        .toArray();
      return docs.every((d) => d[OUTBOX_SINCE] === undefined && (d[OUTBOX] ?? []).length === 0);
    });
    await waitFor('every event handled once', () => events.every((e) => handledCount(e.eventId!) === 1));
  });

  it("publishes the insert's events once, then the change's, when this process changes a document before the batched clear of its insert", async () => {
    const orderId = randomUUID();
    const [first, second] = [orderEvent(orderId), orderEvent(orderId)];
    const written = staged({ _id: orderId, status: 1 }, [first]);
    await orders().insertOne(written);
    await relay.flushWritten('orders', written);
    await orders().updateOne(
      { _id: orderId },
      updateWithOutbox<{ _id: string; status: number }, AnyTopics>({ $set: { status: 2 } }, [second]),
    );
    await relay.flush('orders', orderId);
    await waitFor('both handled', () => handledCount(first.eventId!) >= 1 && handledCount(second.eventId!) === 1);
    // One key, one partition: a second copy of the first event would be on the topic before the second.
    await waitFor('the change on the topic', () => copiesOnTopic(second.eventId!) === 1);
    expect(copiesOnTopic(first.eventId!)).toBe(1);
    await waitFor(
      'the document cleared',
      async () => (await orders().findOne({ _id: orderId }))![OUTBOX_SINCE] === undefined,
    );
    expect((await orders().findOne({ _id: orderId }))![OUTBOX]).toEqual([]);
    const ids = handled.map((e) => e.eventId);
    expect(ids.lastIndexOf(first.eventId!)).toBeLessThan(ids.indexOf(second.eventId!));
  });

  it('publishes a document it was handed as written, without reading it back', async () => {
    const orderId = randomUUID();
    const event = orderEvent(orderId);
    const written = staged({ _id: orderId, status: 1 }, [event]);
    await orders().insertOne(written);
    await relay.flushWritten('orders', written);
    await waitFor('the event handled', () => handledCount(event.eventId!) === 1);
    await waitFor(
      'the document cleared',
      async () => (await orders().findOne({ _id: orderId }))![OUTBOX_SINCE] === undefined,
    );
  });

  it('keeps a caller waiting no longer than the flush timeout when Kafka is slow', async () => {
    const orderId = randomUUID();
    const event = orderEvent(orderId);
    await orders().insertOne(staged({ _id: orderId, status: 1 }, [event]));
    let release: () => void = () => undefined;
    const stalled = new OutboxRelay({
      db,
      collections: ['orders'],
      logger,
      flushTimeoutMs: 200,
      publisher: {
        publishStored: (events) => new Promise((resolve) => (release = () => resolve(publisher.publishStored(events)))),
      },
    });
    const started = Date.now();
    await stalled.flush('orders', orderId);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await orders().findOne({ _id: orderId }))![OUTBOX]).toHaveLength(1); // still pending
    release(); // the publish finishes in the background
    await waitFor('the late publish to be handled', () => handledCount(event.eventId!) === 1);
    await waitFor(
      'the late cleanup',
      async () => ((await orders().findOne({ _id: orderId }))![OUTBOX] ?? []).length === 0,
    );
  });

  it('goes on past a document whose event cannot be published, which stays pending', async () => {
    const poisonedId = randomUUID();
    const goodId = randomUUID();
    const bad = { ...orderEvent(poisonedId), data: { orderId: 'not-a-uuid', status: 1, totalMinor: -5, note: null } };
    const good = orderEvent(goodId);
    await orders().insertOne(staged({ _id: poisonedId, status: 1 }, [bad], new Date(Date.now() - 60_000)));
    await orders().insertOne(staged({ _id: goodId, status: 1 }, [good]));
    await relay.sweep();
    await waitFor('the good event to be handled', () => handledCount(good.eventId!) === 1);
    expect((await orders().findOne({ _id: poisonedId }))![OUTBOX]).toHaveLength(1);
    await orders().deleteOne({ _id: poisonedId }); // keep the next test's count clean
  });

  it('finds pending events through the sparse index only when some are pending', async () => {
    const indexes = OutboxRelay.indexes(['orders']);
    await db.collection('orders').createIndexes(indexes.orders!);
    expect((await db.collection('orders').indexes()).map((i) => i.name)).toContain('outbox_pending');
    expect(await orders().countDocuments({ [OUTBOX_SINCE]: { $exists: true } })).toBe(0);
  });
});
