import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Admin, Producer } from 'kafkajs';
import {
  DEFAULT_GROUP_TIMINGS,
  EventConsumer,
  ensureTopics,
  type ConsumedEvent,
  type ConsumeOutcome,
  type TopicContract,
} from '@marketplace/events';
import { processedEvents } from '@marketplace/store';
import { quietLogger, testEvents, uniqueName, waitFor } from '@marketplace/testing';

type TestTopics = Record<
  string,
  TopicContract<{ orderId: string; status: number; totalMinor: number }, 'test.order.created'>
>;

const logger = quietLogger();
const { env, catalog, topic, kafka, schemas, validator, publisher } = testEvents('group-timings', logger);
const mongo = new MongoClient(env.MONGO_URL);
const db = mongo.db(uniqueName('group_timings_it').replace(/[-.]/g, '_'));
const groupId = uniqueName('group-timings-it');
let dlt: Producer;
let admin: Admin;
let consumer: EventConsumer<TestTopics>;
const outcomes: { orderId: string; outcome: ConsumeOutcome }[] = [];
let current = '';
/** The message the handler holds until the test releases it. */
let slowOrderId = '';
let release: () => void = () => undefined;
let holding = false;

beforeAll(async () => {
  await mongo.connect();
  await ensureTopics(kafka, catalog, [topic]);
  await publisher.connect();
  dlt = kafka.producer();
  admin = kafka.admin();
  await Promise.all([dlt.connect(), admin.connect()]);
  consumer = new EventConsumer<TestTopics>(
    kafka,
    catalog,
    schemas,
    validator,
    dlt,
    {
      groupId,
      topics: [topic],
      handler: async (event: ConsumedEvent<{ orderId: string }>) => {
        current = event.data.orderId;
        if (event.data.orderId !== slowOrderId) return;
        holding = true;
        await new Promise<void>((resolve) => (release = resolve));
      },
      processed: processedEvents(db, groupId),
      onOutcome: (outcome) => void outcomes.push({ orderId: current, outcome }),
      groupTimings: DEFAULT_GROUP_TIMINGS,
    },
    logger,
  );
  const joined = consumer.onceJoined();
  await consumer.start();
  await joined;
});

afterAll(async () => {
  release();
  await consumer?.stop();
  await publisher.disconnect();
  await dlt?.disconnect();
  await admin?.disconnect();
  await db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

const publish = (orderId: string) =>
  publisher.publish([
    { topic, key: 'one-partition', type: 'test.order.created', data: { orderId, status: 1, totalMinor: 100 } },
  ]);

describe('a consumer group member holding one message longer than the session timeout', () => {
  it('stays in its group (it heartbeats while handling): the message is handled once, never redelivered', async () => {
    slowOrderId = randomUUID();
    await publish(slowOrderId);
    await waitFor('the handler to hold the slow message', () => holding, 30_000);
    // The hold has to outlast the session timeout for the test to mean anything (a wait, not a
    // timing assertion). A member that did not heartbeat meanwhile would be out of the group by now.
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_GROUP_TIMINGS.sessionTimeoutMs * 1.5));
    const [group] = (await admin.describeGroups([groupId])).groups;
    expect(group).toMatchObject({ state: 'Stable' });
    expect(group!.members).toHaveLength(1);
    release();
    // Same key, same partition, after it: handled once this one is, and after any redelivery of
    // the slow message (which a member thrown out of its group could not commit).
    const nextOrderId = randomUUID();
    await publish(nextOrderId);
    await waitFor('the next message to be handled', () => outcomes.some((o) => o.orderId === nextOrderId), 60_000);
    expect(outcomes.filter((o) => o.orderId === slowOrderId).map((o) => o.outcome)).toEqual(['handled']);
  }, 90_000);
});
