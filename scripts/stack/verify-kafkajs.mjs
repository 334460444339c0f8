// Smoke check of KafkaJS against the local Kafka (and of JSON schemas through the registry's
// Confluent-compatible API). Run after `stack.sh up`:
//   node scripts/stack/verify-kafkajs.mjs
// Uses KAFKA_BROKERS / SCHEMA_REGISTRY_URL and the secured stack's settings (SASL, TLS, the
// registry's user) from the environment, else from .stack/stack.env.
// Creates and deletes its own topic; exits non-zero on the first failed check.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function stackEnv() {
  try {
    return Object.fromEntries(
      readFileSync(join(root, '.stack', 'stack.env'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
  } catch {
    return {};
  }
}
const env = { ...stackEnv(), ...process.env };
const registryUrl = env.SCHEMA_REGISTRY_URL || 'http://127.0.0.1:18081/apis/ccompat/v7';
const { kafkaConnectionFromEnv, kafkajsSecurity, registryAuthorization, registryConnectionFromEnv } = require(
  join(root, 'shared/events/dist/index.js'),
);
const connection = kafkaConnectionFromEnv({ KAFKA_BROKERS: '127.0.0.1:19092', ...env });
const authorization = registryAuthorization(registryConnectionFromEnv({ SCHEMA_REGISTRY_URL: registryUrl, ...env }));
const authHeaders = authorization ? { authorization } : {};
const registryMiddlewares = authorization
  ? [() => ({ request: (request) => request.enhance({ headers: { authorization } }) })]
  : [];

const { Kafka, logLevel, CompressionTypes } = require('kafkajs');
const kafka = new Kafka({
  clientId: 'stack-verify',
  brokers: connection.brokers,
  ...kafkajsSecurity(connection),
  logLevel: logLevel.NOTHING,
});

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
  console.log(`ok: ${what}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Consumes until `count` messages arrived (or times out); commits each message's offset.
async function consumeGroup(groupId, topic, count, timeoutMs = 30000) {
  // maxWaitTimeInMs bounds how long disconnect() waits for an in-flight fetch (default 5 s).
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 1000, maxWaitTimeInMs: 500 });
  const got = [];
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    joined = true;
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const t0 = Date.now();
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic: t, partition, message }) => {
      got.push({ partition, offset: message.offset, key: message.key?.toString(), value: message.value.toString() });
      await consumer.commitOffsets([{ topic: t, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
    },
  });
  while (got.length < count && Date.now() - t0 < timeoutMs) await sleep(20);
  const ms = Date.now() - t0;
  // a little extra time to see unexpected redeliveries
  await sleep(500);
  await consumer.disconnect();
  return { got, joined, ms };
}

async function verifyKafka() {
  const topic = `stack-verify-${randomUUID()}`;
  const groupId = `${topic}-group`;
  const admin = kafka.admin();
  await admin.connect();
  const cluster = await admin.describeCluster();
  check(cluster.brokers.length === 1, `metadata: ${cluster.brokers.length} broker, cluster ${cluster.clusterId}`);

  check(
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true }),
    `createTopics ${topic} (3 partitions)`,
  );
  const meta = await admin.fetchTopicMetadata({ topics: [topic] });
  check(meta.topics[0].partitions.length === 3, 'topic metadata shows 3 partitions');

  // auto.create.topics.enable=false: producing to a missing topic must fail
  const strict = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 1 } });
  await strict.connect();
  let refused = false;
  try {
    await strict.send({ topic: `${topic}-missing`, messages: [{ value: 'x' }], acks: -1, timeout: 2000 });
  } catch {
    refused = true;
  }
  await strict.disconnect();
  check(refused, 'producing to a non-existent topic fails (no auto-creation)');

  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const batch1 = Array.from({ length: 30 }, (_, i) => ({ key: `k${i % 7}`, value: `first-${i}` }));
  const res = await producer.send({ topic, acks: -1, compression: CompressionTypes.GZIP, messages: batch1 });
  check(res.length > 0 && res.every((r) => r.errorCode === 0), 'idempotent producer (acks=all, gzip): 30 messages');

  const r1 = await consumeGroup(groupId, topic, 30);
  check(r1.joined, `consumer group ${groupId} joined`);
  check(r1.got.length === 30, `consumer received 30/30 (${r1.ms} ms from connect, incl. group join)`);
  const byKey = new Map();
  for (const m of r1.got) byKey.set(m.key, (byKey.get(m.key) || new Set()).add(m.partition));
  check(
    [...byKey.values()].every((parts) => parts.size === 1),
    'messages with the same key share a partition',
  );
  const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
  const sum = committed[0].partitions.reduce((s, p) => s + Number(p.offset), 0);
  check(
    sum === 30,
    `committed offsets sum to 30 (${committed[0].partitions.map((p) => `${p.partition}:${p.offset}`).join(' ')})`,
  );

  const batch2 = Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: `second-${i}` }));
  await producer.send({ topic, acks: -1, messages: batch2 });
  const r2 = await consumeGroup(groupId, topic, 10);
  check(
    r2.got.length === 10 && r2.got.every((m) => m.value.startsWith('second-')),
    `restarted consumer in the same group resumed at committed offsets: got only the 10 new messages (${r2.got.length})`,
  );

  // transactions (transaction.state.log.* set for a single node)
  const txProducer = kafka.producer({ transactionalId: `${topic}-tx`, idempotent: true, maxInFlightRequests: 1 });
  await txProducer.connect();
  const tx = await txProducer.transaction();
  await tx.send({ topic, messages: [{ key: 'tx', value: 'committed-tx' }] });
  await tx.commit();
  const tx2 = await txProducer.transaction();
  await tx2.send({ topic, messages: [{ key: 'tx', value: 'aborted-tx' }] });
  await tx2.abort();
  await txProducer.disconnect();
  const r3 = await consumeGroup(groupId, topic, 1, 10000);
  check(
    r3.got.length === 1 && r3.got[0].value === 'committed-tx',
    'transactional producer: committed message seen, aborted one not (read_committed)',
  );

  const groups = await admin.describeGroups([groupId]);
  check(groups.groups[0].state === 'Empty', `group state after consumers left: ${groups.groups[0].state}`);

  await producer.disconnect();
  await admin.deleteGroups([groupId]);
  await admin.deleteTopics({ topics: [topic] });
  check(!(await admin.listTopics()).includes(topic), 'deleteGroups + deleteTopics');
  await admin.disconnect();
}

async function verifyRegistry() {
  const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');
  const registry = new SchemaRegistry({ host: registryUrl, middlewares: registryMiddlewares });
  const subject = `stack-verify-${randomUUID()}-value`;
  // Apicurio 3.0.x only recognises content as JSON Schema when it has a "$schema" mentioning
  // json-schema.org or a top-level "properties"; always include "$schema".
  const schema = JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'StackVerify',
    type: 'object',
    properties: { id: { type: 'string' }, n: { type: 'integer' } },
    required: ['id'],
    additionalProperties: false,
  });
  const { id } = await registry.register({ type: SchemaType.JSON, schema }, { subject });
  check(Number.isInteger(id), `JSON schema registered under ${subject} with id ${id}`);
  const res = await fetch(`${registryUrl}/schemas/ids/${id}`, { headers: authHeaders });
  const body = await res.json();
  check(
    res.status === 200 && body.schemaType === 'JSON' && JSON.parse(body.schema).title === 'StackVerify',
    `GET /schemas/ids/${id} returns the JSON schema`,
  );
  const again = await registry.register({ type: SchemaType.JSON, schema }, { subject });
  check(again.id === id, 're-registering the same schema returns the same id');
  const encoded = await registry.encode(id, { id: 'x1', n: 2 });
  check(encoded[0] === 0 && encoded.readInt32BE(1) === id, 'encode: Confluent wire format (magic 0 + schema id)');
  const decoded = await new SchemaRegistry({ host: registryUrl, middlewares: registryMiddlewares }).decode(encoded);
  check(decoded.id === 'x1' && decoded.n === 2, 'decode with a fresh client (schema fetched by id)');
  let rejected = false;
  try {
    await registry.encode(id, { n: 1 });
  } catch {
    rejected = true;
  }
  check(rejected, 'encode rejects a payload that violates the schema');
  const del = await fetch(`${registryUrl}/subjects/${subject}`, { method: 'DELETE', headers: authHeaders });
  check(del.status === 200, 'DELETE subject');
}

try {
  await verifyKafka();
  await verifyRegistry();
  console.log('all checks passed');
  process.exit(0);
} catch (err) {
  console.error(`FAILED: ${err?.stack || err}`);
  process.exit(1);
}
