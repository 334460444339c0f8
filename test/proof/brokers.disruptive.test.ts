import { runProof } from './support/run-proof';

// CI's run of the fault proof on a three-broker Kafka of its own (scripts/proof/faults.mjs
// --brokers 3 --short): KRaft, replication factor 3, min.insync.replicas 2, producers with
// acks=all; each broker killed (kill -9) and started again under the proof's traffic, the last
// kept away for 15 s. Every promise of the proof must hold: nothing acknowledged lost or
// duplicated, every webhook and callback delivered, signed and in order (before the publisher
// left kafkajs's idempotent producer, this run found an orders.cancelled ahead of its
// orders.created on the topic), the services ready throughout.
const TIMEOUT_MS = 12 * 60_000;

it(
  'keeps every promise while the brokers of a three-broker Kafka are killed and started again',
  () => runProof(['--brokers', '3', '--short'], TIMEOUT_MS, 'proof:faults: faults'),
  TIMEOUT_MS,
);
