#!/usr/bin/env node
// kafkajs (the client shared/events is built on) against @platformatic/kafka, on the same broker
// in the same run: the local stack's Kafka as .stack/stack.env describes it (SASL_SSL with SCRAM
// on the secured stack), each client with its own topic of 3 partitions.
//
//   npm run bench:kafka-clients -- [--messages 100000] [--rounds 3] [--single 2000]
//
// Per round and client, in alternating order (so neither always runs on a warmer broker):
//   - batched produce: --messages values of ~460 bytes (a domain event's size), 500 a send, acks=all;
//   - consume: the same messages read back by a new consumer group from the earliest offset;
//   - awaited single sends: --single sends, each awaited before the next (an outbox's publish).
// Prints messages/s (and ms per single send) for each, with platformatic/kafkajs ratios of the
// medians. The figures and what they mean for us: docs/kafka-clients.md.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readStackEnv, root } from '../services.mjs';

const require = createRequire(join(root, 'package.json'));
const { CompressionTypes } = require('kafkajs');
const platformatic = require('@platformatic/kafka');
const { createKafka, kafkaConnectionFromEnv } = require(join(root, 'shared/events/dist/index.js'));
const { createLogger } = require(join(root, 'shared/logging/dist/index.js'));

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const MESSAGES = arg('messages', 100_000);
const ROUNDS = arg('rounds', 3);
const SINGLE = arg('single', 2_000);
const BATCH = 500;
const TIMEOUT_MS = 300_000;

const connection = kafkaConnectionFromEnv(readStackEnv());
const tag = randomBytes(3).toString('hex');
const value = JSON.stringify({ type: 'orders.created', id: tag, padding: 'x'.repeat(400) }); // ~460 B
// kafkajs as the services make it (shared/events createKafka: the same timeouts, retries and TLS/SASL).
const kafka = createKafka({
  connection,
  clientId: `bench-kafka-clients-${tag}`,
  logger: createLogger({ service: 'bench-kafka-clients', level: 'error' }),
});
const pOptions = {
  bootstrapBrokers: connection.brokers,
  ...(connection.tls ? { tls: { ...connection.tls } } : {}),
  ...(connection.sasl
    ? {
        sasl: {
          mechanism: connection.sasl.mechanism,
          username: connection.sasl.username,
          password: connection.sasl.password,
        },
      }
    : {}),
};

/** Rejects after TIMEOUT_MS, saying what it waited for. */
function within(promise, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms waiting for ${what}`)), TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

const admin = kafka.admin();
const topics = [];
async function newTopic(client, round) {
  const topic = `bench-clients-${client}-${tag}-${round}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
  topics.push(topic);
  return topic;
}

const clients = {
  async kafkajs(topic) {
    const producer = kafka.producer({ idempotent: false, allowAutoTopicCreation: false });
    await producer.connect();
    let started = performance.now();
    for (let sent = 0; sent < MESSAGES; sent += BATCH) {
      const messages = Array.from({ length: Math.min(BATCH, MESSAGES - sent) }, (_, i) => ({
        key: `k${sent + i}`,
        value,
      }));
      await producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages });
    }
    const produce = MESSAGES / ((performance.now() - started) / 1000);
    started = performance.now();
    for (let i = 0; i < SINGLE; i++) await producer.send({ topic, acks: -1, messages: [{ key: `s${i}`, value }] });
    const single = (performance.now() - started) / SINGLE;
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: `bench-clients-kafkajs-${tag}-${topic}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const total = MESSAGES + SINGLE;
    let received = 0;
    started = performance.now();
    await within(
      new Promise((resolve) => {
        consumer.run({
          eachBatch: async ({ batch }) => {
            received += batch.messages.length;
            if (received >= total) resolve();
          },
        });
      }),
      `kafkajs to read ${total} messages`,
    );
    const consume = total / ((performance.now() - started) / 1000);
    await consumer.disconnect();
    return { produce, consume, single };
  },

  async platformatic(topic) {
    const producer = new platformatic.Producer({
      ...pOptions,
      clientId: `bench-kafka-clients-p-${tag}`,
      serializers: platformatic.stringSerializers,
      acks: -1,
    });
    let started = performance.now();
    for (let sent = 0; sent < MESSAGES; sent += BATCH) {
      const messages = Array.from({ length: Math.min(BATCH, MESSAGES - sent) }, (_, i) => ({
        topic,
        key: `k${sent + i}`,
        value,
      }));
      await producer.send({ messages });
    }
    const produce = MESSAGES / ((performance.now() - started) / 1000);
    started = performance.now();
    for (let i = 0; i < SINGLE; i++) await producer.send({ messages: [{ topic, key: `s${i}`, value }] });
    const single = (performance.now() - started) / SINGLE;
    await producer.close();

    const consumer = new platformatic.Consumer({
      ...pOptions,
      clientId: `bench-kafka-clients-pc-${tag}`,
      groupId: `bench-clients-platformatic-${tag}-${topic}`,
      // no deserializers: Buffers, as kafkajs hands them (our decoder reads the wire format itself)
      highWaterMark: 8192,
    });
    const total = MESSAGES + SINGLE;
    let received = 0;
    started = performance.now();
    const stream = await consumer.consume({ topics: [topic], mode: platformatic.MessagesStreamModes.EARLIEST });
    // 'data' events, the stream's fastest way (an async iterator per message costs more than the client).
    await within(
      new Promise((resolve, reject) => {
        stream.on('data', () => {
          if (++received === total) resolve();
        });
        stream.once('error', reject);
      }),
      `platformatic to read ${total} messages`,
    );
    const consume = total / ((performance.now() - started) / 1000);
    await stream.close();
    await consumer.close(true);
    return { produce, consume, single };
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { kafkajs: [], platformatic: [] };
await admin.connect();
try {
  console.log(
    `kafka clients on ${connection.brokers.join(',')} (${connection.sasl ? `SASL ${connection.sasl.mechanism}` : 'no SASL'}${connection.tls ? ', TLS' : ''}): ` +
      `${MESSAGES} messages of ${value.length} B, ${SINGLE} single sends, ${ROUNDS} rounds`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['kafkajs', 'platformatic'] : ['platformatic', 'kafkajs'];
    for (const client of order) {
      const r = await clients[client](await newTopic(client, round));
      results[client].push(r);
      console.log(
        `  round ${round + 1} ${client.padEnd(12)} produce ${Math.round(r.produce).toLocaleString('en')}/s  ` +
          `consume ${Math.round(r.consume).toLocaleString('en')}/s  single send ${r.single.toFixed(2)} ms`,
      );
    }
  }
  const summary = (client) => ({
    produce: median(results[client].map((r) => r.produce)),
    consume: median(results[client].map((r) => r.consume)),
    single: median(results[client].map((r) => r.single)),
  });
  const k = summary('kafkajs');
  const p = summary('platformatic');
  console.log('medians');
  console.log(
    `  batched produce  kafkajs ${Math.round(k.produce)}/s  platformatic ${Math.round(p.produce)}/s  ratio ${(p.produce / k.produce).toFixed(2)}x`,
  );
  console.log(
    `  consume          kafkajs ${Math.round(k.consume)}/s  platformatic ${Math.round(p.consume)}/s  ratio ${(p.consume / k.consume).toFixed(2)}x`,
  );
  console.log(
    `  single send      kafkajs ${k.single.toFixed(2)} ms  platformatic ${p.single.toFixed(2)} ms  ratio ${(k.single / p.single).toFixed(2)}x (speed)`,
  );
} finally {
  await admin.deleteTopics({ topics }).catch(() => {});
  await admin.disconnect();
}
