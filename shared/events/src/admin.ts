import type { Kafka } from 'kafkajs';
import type { TopicCatalog } from './catalog';

/**
 * Creates the given topics and their dead-letter topics with the partitions and retention of the
 * catalog. Existing topics are left as they are (creation is idempotent).
 */
export async function ensureTopics(kafka: Kafka, catalog: TopicCatalog, names: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = names.flatMap((name) => {
      const spec = catalog.get(name);
      return [
        { topic: name, numPartitions: spec.partitions, retentionMs: spec.retentionMs },
        { topic: catalog.deadLetterTopicOf(name), numPartitions: catalog.deadLetter.partitions, retentionMs: catalog.deadLetter.retentionMs },
      ];
    });
    const missing = wanted.filter((t) => !existing.has(t.topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((t) => ({
        topic: t.topic,
        numPartitions: t.numPartitions,
        replicationFactor: -1, // the broker's default.replication.factor
        configEntries: [{ name: 'retention.ms', value: String(t.retentionMs) }],
      })),
    });
  } finally {
    await admin.disconnect();
  }
}

/** Readiness: the cluster answers a metadata request. */
export async function pingKafka(kafka: Kafka): Promise<void> {
  const admin = kafka.admin({ retry: { retries: 0 } });
  await admin.connect();
  try {
    await admin.describeCluster();
  } finally {
    await admin.disconnect();
  }
}
