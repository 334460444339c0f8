// What provider-delivery published on `provider-events` during the run, read after it: the ends of
// the topic's partitions before the traffic, then everything from there to the ends after the
// drain. No consumer runs during the faults (it would have to survive the broker's kill itself);
// the topic is the record of every event the provider decided to send.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../../services.mjs';

const require = createRequire(join(root, 'package.json'));
const { Kafka, logLevel } = require('kafkajs');
const { dropKafkajsNegativeTimeoutWarning, kafkaConnectionFromEnv, kafkajsSecurity } = require(
  join(root, 'shared/events/dist/index.js'),
);
// kafkajs on Node 24 warns of a negative timeout of its own (shared/events/src/kafka.ts): not ours to print.
dropKafkajsNegativeTimeoutWarning();

const TOPIC = 'provider-events';
const READ_TIMEOUT_MS = 90_000;

/** A client of the stack's Kafka as its environment describes it (brokers, TLS, SASL). */
export function kafka(stackEnv) {
  const connection = kafkaConnectionFromEnv(stackEnv);
  return new Kafka({
    clientId: 'proof-faults',
    brokers: connection.brokers,
    ...kafkajsSecurity(connection),
    connectionTimeout: 3_000,
    retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 5_000 },
    logLevel: logLevel.NOTHING,
  });
}

export async function topicEnds(stackEnv) {
  const admin = kafka(stackEnv).admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(TOPIC)).map(({ partition, offset }) => ({ partition, offset }));
  } finally {
    await admin.disconnect();
  }
}

/**
 * The events of `accountId` between `from` (ends before the run) and the ends now, as
 * { eventId, type, providerDeliveryId, status, eventTimeUtc, body } (Confluent wire format: magic
 * byte, schema id, then the JSON of the event; the callback body is `delivery.body`).
 */
export async function readAccountEvents(stackEnv, from, accountId, tag) {
  const until = await topicEnds(stackEnv);
  const remaining = new Map(
    until
      .map(({ partition, offset }) => [
        partition,
        Number(offset) - Number(from.find((f) => f.partition === partition)?.offset ?? 0),
      ])
      .filter(([, left]) => left > 0),
  );
  const events = [];
  if (remaining.size === 0) return events;
  const consumer = kafka(stackEnv).consumer({ groupId: `proof-faults-read-${tag}`, maxWaitTimeInMs: 200 });
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      const end = Number(until.find((u) => u.partition === batch.partition)?.offset ?? 0);
      for (const message of batch.messages) {
        if (Number(message.offset) >= end) continue;
        const left = remaining.get(batch.partition);
        if (left !== undefined) {
          if (left <= 1) remaining.delete(batch.partition);
          else remaining.set(batch.partition, left - 1);
        }
        const value = message.value;
        if (!value || value.length < 6 || value[0] !== 0) continue;
        let data;
        try {
          data = JSON.parse(value.subarray(5).toString('utf8'));
        } catch {
          continue;
        }
        const body = data?.delivery?.body;
        if (data?.accountId !== accountId || !body) continue;
        events.push({
          eventId: message.headers?.['event-id']?.toString(),
          type: body.eventType,
          providerDeliveryId: body.providerDeliveryId,
          status: body.status,
          eventTimeUtc: body.eventTimeUtc,
        });
      }
      if (remaining.size === 0) done();
    },
  });
  for (const { partition, offset } of from) consumer.seek({ topic: TOPIC, partition, offset });
  const timer = setTimeout(done, READ_TIMEOUT_MS);
  await finished;
  clearTimeout(timer);
  await consumer.disconnect();
  if (remaining.size > 0) throw new Error(`could not read ${TOPIC} to its end within ${READ_TIMEOUT_MS / 1000} s`);
  return events;
}
