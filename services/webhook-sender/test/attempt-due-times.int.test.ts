import { randomUUID } from 'node:crypto';
import type { Admin, Kafka, Producer } from 'kafkajs';
import {
  createKafka,
  ensureTopics,
  EventDecoder,
  EventSchemas,
  HoldWatch,
  loadTopicCatalog,
  SchemaValidator,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
} from '@marketplace/events';
import { quietLogger, sleep, stackEnv, uniqueName, waitFor } from '@marketplace/testing';
import { AttemptQueue, type AttemptJob } from '../src/adapters/attempt-queue';

// The attempt queue on the real retry topics: within one tier partition the jitter puts messages
// due sooner behind a message due later. Each attempt must be made at its own due time (here on a
// scaled clock: seconds), whatever stands ahead of it, and a restart in the middle of a wait must
// lose nothing and repeat nothing beyond at-least-once.

const TOPIC = 'webhook-attempts.retry-7'; // the 12-hour tier, where the order matters most
const PARTITION = 0;
/** How late an attempt may be made after its due time (the promise: about a second). */
const LATE_MS = 1000;
const logger = quietLogger('attempt-due-times');
const catalog = loadTopicCatalog();

let kafka: Kafka;
let admin: Admin;
let producer: Producer;
let schemas: EventSchemas;

beforeAll(async () => {
  const env = stackEnv();
  kafka = createKafka({ connection: kafkaConnectionFromEnv(env), clientId: 'it-attempt-due-times', logger });
  await ensureTopics(kafka, catalog, [TOPIC]);
  schemas = new EventSchemas(registryConnectionFromEnv(env), catalog);
  await schemas.register([TOPIC]);
  admin = kafka.admin();
  producer = kafka.producer({ allowAutoTopicCreation: false });
  await Promise.all([admin.connect(), producer.connect()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([admin?.disconnect(), producer?.disconnect()]);
});

/** Every time a job was handled; `recorded` mirrors the delivery's attempt number (a repeat is a no-op). */
interface Log {
  handled: Map<string, number[]>;
  sends: Map<string, number>;
}

function queueFor(groupId: string, log: Log, ours: Set<string>): AttemptQueue {
  return new AttemptQueue(
    kafka,
    new EventDecoder(schemas, new SchemaValidator([[TOPIC, catalog.get(TOPIC).schema]])),
    { overall: 16, perEndpoint: 4, circuit: { failuresToTrip: 5, probeIntervalMs: 30_000 } },
    {
      groupId,
      topics: [TOPIC],
      maxWaiting: 10_000,
      firstAttemptRoom: 64,
      holds: new HoldWatch({ alarmAfterMs: 30_000, logger }),
      handle: async (job) => {
        if (!ours.has(job.deliveryId)) return 'not-sent'; // other tests' attempts on the shared topic
        const at = Date.now();
        log.handled.set(job.deliveryId, [...(log.handled.get(job.deliveryId) ?? []), at]);
        // As the service does: the attempt is made once; a repeated message finds it recorded.
        if (!log.sends.has(job.deliveryId)) log.sends.set(job.deliveryId, at);
        return 'reached';
      },
    },
    logger,
  );
}

/** Waits until the group has a member with partitions, so that what is produced next is read at once. */
async function joined(groupId: string): Promise<void> {
  await waitFor(
    `group ${groupId} to be stable with a member`,
    async () => {
      const { groups } = await admin.describeGroups([groupId]);
      return groups[0]?.state === 'Stable' && groups[0].members.length > 0;
    },
    30_000,
    100,
  );
}

/** Puts jobs due at `base + offsetMs` into one partition, in the order given, and counts them as ours. */
async function produce(
  base: number,
  dueOffsetsMs: number[],
  ours: Set<string>,
): Promise<Array<AttemptJob & { due: number }>> {
  const jobs = dueOffsetsMs.map((offset) => ({
    deliveryId: randomUUID(),
    installationId: randomUUID(),
    round: 1,
    attempt: 7,
    dueAt: new Date(base + offset).toISOString(),
    due: base + offset,
  }));
  const messages = await Promise.all(
    jobs.map(async ({ due: _due, ...job }) => ({
      partition: PARTITION,
      key: job.deliveryId,
      value: await schemas.encode(TOPIC, job),
    })),
  );
  for (const job of jobs) ours.add(job.deliveryId);
  await producer.send({ topic: TOPIC, acks: -1, messages });
  return jobs;
}

function expectOnTime(jobs: Array<{ deliveryId: string; due: number }>, log: Log): void {
  const lateness = jobs.map((job) => ({
    due: new Date(job.due).toISOString(),
    lateMs: (log.sends.get(job.deliveryId) ?? Number.NaN) - job.due,
  }));
  for (const { lateMs } of lateness) {
    // Never before its due time, and at most about a second after it.
    expect(lateMs).toBeGreaterThanOrEqual(0);
    expect(lateMs).toBeLessThanOrEqual(LATE_MS);
  }
}

describe('attempt queue on a retry tier', () => {
  it('makes each attempt at its own due time when the head of the partition is due later than those behind it', async () => {
    const groupId = uniqueName('it-attempts-order');
    const log: Log = { handled: new Map(), sends: new Map() };
    const ours = new Set<string>();
    const queue = queueFor(groupId, log, ours);
    await queue.start();
    try {
      await joined(groupId);
      const base = Date.now() + 1500;
      // The head is due last (1.2 × the delay), the ones behind it earlier (down to 0.8 ×).
      const offsets = [5000, 500, 1000, 1800, 2600, 3400];
      const jobs = await produce(base, offsets, ours);
      await waitFor('every attempt to be made', () => jobs.every((j) => log.sends.has(j.deliveryId)), 15_000);
      expectOnTime(jobs, log);
      // In the order of their due times, not of the partition.
      expect(
        [...log.sends.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => jobs.findIndex((j) => j.deliveryId === id)),
      ).toEqual([1, 2, 3, 4, 5, 0]);
      for (const job of jobs) expect(log.handled.get(job.deliveryId)).toHaveLength(1);
    } finally {
      await queue.stop();
    }
  }, 60_000);

  it('loses and repeats nothing beyond at-least-once when it restarts in the middle of a wait', async () => {
    const groupId = uniqueName('it-attempts-restart');
    const log: Log = { handled: new Map(), sends: new Map() };
    const ours = new Set<string>();
    const first = queueFor(groupId, log, ours);
    await first.start();
    let second: AttemptQueue | undefined;
    try {
      await joined(groupId);
      const base = Date.now() + 1500;
      const offsets = [7000, 500, 1200, 5500, 8000];
      const jobs = await produce(base, offsets, ours);
      await waitFor('the two early attempts', () => log.sends.size === 2, 10_000);
      // The head (due at +7 s) and two more wait in memory; nothing is committed past the head.
      await sleep(base + 2500 - Date.now());
      const madeBeforeRestart = new Set(log.sends.keys());
      await first.stop();
      second = queueFor(groupId, log, ours);
      await second.start();
      await waitFor('every attempt to be made', () => jobs.every((j) => log.sends.has(j.deliveryId)), 20_000);
      await sleep(1500); // anything repeated would come now
      expectOnTime(jobs, log);
      for (const job of jobs) {
        const times = log.handled.get(job.deliveryId) ?? [];
        // Made by the first consumer: read again by the second (the attempt number makes it a
        // no-op in the service). Not yet made: made once, by the second.
        expect(times).toHaveLength(madeBeforeRestart.has(job.deliveryId) ? 2 : 1);
      }
      expect(madeBeforeRestart.size).toBe(2);
    } finally {
      await first.stop().catch(() => undefined);
      await second?.stop();
    }
  }, 60_000);
});
