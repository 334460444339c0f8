#!/usr/bin/env node
// Throughput and latency of the shared event pipeline against the local stack: publish through
// the schema-registry serde into Kafka, consume with the shared consumer (dedupe in MongoDB,
// commit after each message). Prints numbers; asserts nothing.
//
//   npm run stack:up && npm run build && node scripts/bench/events.mjs [events=2000] [batch=50] [rate]
//
// Without a rate, events are published as fast as possible (throughput; latency then mostly
// measures the backlog). With a rate (events per second), batches are paced to it (latency).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'package.json'));
const { EventConsumer, ensureTopics } = require('@marketplace/events');
const { processedEvents } = require('@marketplace/store');
const { quietLogger, testEvents, uniqueName } = require('@marketplace/testing');
const { MongoClient } = require('mongodb');

const total = Number(process.argv[2] ?? 2000);
const batch = Number(process.argv[3] ?? 50);
const rate = process.argv[4] ? Number(process.argv[4]) : undefined;
const logger = quietLogger('bench');
const { env, catalog, topic, kafka, schemas, validator, publisher } = testEvents('bench', logger);
const mongo = await new MongoClient(env.MONGO_URL).connect();
const db = mongo.db(uniqueName('bench_events').replace(/-/g, '_'));
await ensureTopics(kafka, catalog, [topic]);
await publisher.connect();
const dlt = kafka.producer();
await dlt.connect();

const sentAt = new Map();
const latencies = [];
let done;
const finished = new Promise((resolve) => (done = resolve));
const groupId = uniqueName('bench');
const consumer = new EventConsumer(
  kafka,
  catalog,
  schemas,
  validator,
  dlt,
  {
    groupId,
    topics: [topic],
    processed: processedEvents(db, groupId),
    handler: async (event) => {
      latencies.push(performance.now() - sentAt.get(event.eventId));
      if (latencies.length === total) done();
    },
  },
  logger,
);
const joined = consumer.onceJoined();
await consumer.start();
await joined;

const started = performance.now();
for (let i = 0; i < total; i += batch) {
  const events = Array.from({ length: Math.min(batch, total - i) }, () => {
    const orderId = randomUUID();
    const eventId = randomUUID();
    sentAt.set(eventId, performance.now());
    return {
      topic,
      key: orderId,
      type: 'test.order.created',
      eventId,
      data: { orderId, status: 1, totalMinor: 1250, note: null },
    };
  });
  await publisher.publish(events);
  if (rate) {
    const due = started + ((i + batch) / rate) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
}
const published = performance.now();
await finished;
const consumed = performance.now();

latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
console.log(
  `events: ${total}, publish batch: ${batch}, paced: ${rate ? `${rate} events/s` : 'no'}, topic partitions: ${catalog.get(topic).partitions}`,
);
console.log(
  `publish: ${(total / ((published - started) / 1000)).toFixed(0)} events/s (validate, registry encode, acks=all)`,
);
console.log(
  `end to end: ${(total / ((consumed - started) / 1000)).toFixed(0)} events/s consumed (decode, validate, dedupe in MongoDB, commit after handling)`,
);
console.log(`latency publish->handler: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${latencies.at(-1).toFixed(1)} ms`);

await consumer.stop();
await Promise.all([publisher.disconnect(), dlt.disconnect()]);
await db.dropDatabase();
await mongo.close();
