import type { Admin, Kafka } from 'kafkajs';
import type { TopicCatalog } from './catalog';

/**
 * Creates the given topics and their dead-letter topics with the partitions and retention of the
 * catalog. Existing topics are left as they are (creation is idempotent).
 */
export async function ensureTopics(kafka: Kafka, catalog: TopicCatalog, names: readonly string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = names.flatMap((name) => {
      const spec = catalog.get(name);
      return [
        { topic: name, numPartitions: spec.partitions, retentionMs: spec.retentionMs },
        {
          topic: catalog.deadLetterTopicOf(name),
          numPartitions: catalog.deadLetter.partitions,
          retentionMs: catalog.deadLetter.retentionMs,
        },
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

/**
 * Readiness: the cluster answers a metadata request. One admin client is kept and reused: a new
 * connection per probe costs a TCP connect and an API-versions round trip each time, and probes
 * that a slow machine lets time out would each leave one more connection attempt running. A
 * failed ping drops the client; the next one connects afresh.
 */
export class KafkaPing {
  private admin: Admin | undefined;
  private connecting: Promise<Admin> | undefined;

  constructor(private readonly kafka: Kafka) {}

  /** Past `timeoutMs` the client is dropped too: a connection to a broker that went away can
   * hang until kafkajs' request timeout (30 s), and the next probe should connect afresh. */
  async ping(timeoutMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Kafka did not answer a metadata request within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([(async () => (await (this.connecting ??= this.connect())).describeCluster())(), timeout]);
    } catch (error) {
      await this.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    this.connecting = undefined;
    await admin?.disconnect().catch(() => undefined);
  }

  private async connect(): Promise<Admin> {
    const admin = this.kafka.admin({ retry: { retries: 0 } });
    this.admin = admin;
    await admin.connect();
    return admin;
  }
}
