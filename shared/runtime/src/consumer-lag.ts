import type { Admin, Kafka } from 'kafkajs';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '@marketplace/logging';

/** What the lag needs of the kafkajs admin client. */
export type LagAdmin = Pick<Admin, 'fetchOffsets' | 'fetchTopicOffsets'>;

export interface PartitionLag {
  group: string;
  topic: string;
  partition: number;
  /** Messages between the group's committed offset and the partition's end. */
  lag: number;
}

export interface ConsumerLagOptions {
  /** A connected admin client; called again after a failure (the old one is dropped). */
  connect(): Promise<LagAdmin>;
  /** Drops a client that failed or hung. */
  disconnect?(admin: LagAdmin): Promise<void>;
  /** A scrape waits at most this long for the broker, then reports the last values. */
  timeoutMs?: number;
  /** Values younger than this are served without asking the broker again (replicas and scrapers add up). */
  maxAgeMs?: number;
  onFailure?(error: unknown): void;
}

/**
 * The lag of this process's consumer groups, read from the broker: each partition's end offset
 * against the group's committed offset. It comes from the broker rather than from the consumers'
 * own fetches, so a group that is held, stuck or has no running member still shows its lag growing.
 * A read is bounded (a scrape never hangs on a broker that went away) and shared by concurrent
 * scrapes; on failure the last values stay and the failure is counted.
 */
export class ConsumerLag {
  private readonly groups = new Map<string, Set<string>>();
  private last: PartitionLag[] = [];
  private readAt = 0;
  private admin: Promise<LagAdmin> | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly timeoutMs: number;
  private readonly maxAgeMs: number;

  constructor(private readonly options: ConsumerLagOptions) {
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.maxAgeMs = options.maxAgeMs ?? 10_000;
  }

  /** Adds a consumer group and the topics it reads. */
  watch(group: string, topics: readonly string[]): void {
    const known = this.groups.get(group) ?? new Set<string>();
    for (const topic of topics) known.add(topic);
    this.groups.set(group, known);
  }

  /** The lag per group and partition: fresh when the broker answers in time, else the last known. */
  async read(now = Date.now()): Promise<PartitionLag[]> {
    if (this.groups.size === 0 || now - this.readAt < this.maxAgeMs) return this.last;
    this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.timeoutMs)));
    await Promise.race([this.refreshing, timeout]).finally(() => clearTimeout(timer));
    return this.last;
  }

  async close(): Promise<void> {
    await this.drop();
  }

  private async refresh(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Kafka did not give the offsets within ${this.timeoutMs} ms`)),
          this.timeoutMs,
        );
      });
      this.last = await Promise.race([this.fetchAll(), timeout]);
      this.readAt = Date.now();
    } catch (error) {
      this.options.onFailure?.(error);
      await this.drop(); // the next read connects afresh
    } finally {
      clearTimeout(timer);
    }
  }

  private async fetchAll(): Promise<PartitionLag[]> {
    const admin = await (this.admin ??= this.options.connect());
    const topics = new Set([...this.groups.values()].flatMap((t) => [...t]));
    const ends = new Map(
      await Promise.all([...topics].map(async (topic) => [topic, await admin.fetchTopicOffsets(topic)] as const)),
    );
    const perGroup = await Promise.all(
      [...this.groups].map(async ([group, groupTopics]) => {
        const committed = await admin.fetchOffsets({ groupId: group, topics: [...groupTopics] });
        return committed.flatMap(({ topic, partitions }) =>
          partitions.map(({ partition, offset }) => {
            const end = ends.get(topic)?.find((e) => e.partition === partition);
            return { group, topic, partition, lag: lagOf(offset, end) };
          }),
        );
      }),
    );
    return perGroup.flat();
  }

  private async drop(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    const connected = await admin?.catch(() => undefined);
    if (connected) await this.options.disconnect?.(connected).catch(() => undefined);
  }
}

/** Never committed (-1): everything the partition still holds is unread. */
export function lagOf(committed: string, end: { high: string; low: string } | undefined): number {
  if (!end) return 0;
  const from = committed === '-1' ? BigInt(end.low) : BigInt(committed);
  const lag = BigInt(end.high) - from;
  return lag > 0n ? Number(lag) : 0;
}

/** Lag read through the process's own admin client (no retries: a scrape is bounded anyway). */
export function kafkaLagSource(kafka: Kafka, logger: Logger): ConsumerLagOptions {
  let warned = false;
  return {
    connect: async () => {
      const admin = kafka.admin({ retry: { retries: 0 } });
      await admin.connect();
      warned = false;
      return admin;
    },
    disconnect: (admin) => (admin as Admin).disconnect(),
    onFailure: (error) => {
      // Once per outage: a scrape every 15 s would otherwise log the same failure all along.
      if (!warned) logger.warn({ err: error }, 'consumer lag could not be read from Kafka; the last values stay');
      warned = true;
    },
  };
}

/**
 * The lag reader with its metrics: `kafka_consumer_lag_messages{group,topic,partition}`, read on
 * scrape, and `kafka_consumer_lag_read_failures_total`.
 */
export function consumerLagMetrics(registry: Registry, options: ConsumerLagOptions): ConsumerLag {
  const failures = new Counter({
    name: 'kafka_consumer_lag_read_failures_total',
    help: 'Reads of the consumer lag that Kafka did not answer in time (the scrape reported the last values).',
    registers: [registry],
    // The same read as the gauge's (shared, cached): a failure is counted in the scrape that met it.
    collect: async () => void (await lag.read()),
  });
  const lag = new ConsumerLag({
    ...options,
    onFailure: (error) => {
      failures.inc();
      options.onFailure?.(error);
    },
  });
  new Gauge({
    name: 'kafka_consumer_lag_messages',
    help: "Messages of each partition not yet committed by the consumer group (the partition's end offset minus the group's committed offset), read from the broker.",
    labelNames: ['group', 'topic', 'partition'],
    registers: [registry],
    async collect() {
      const values = await lag.read();
      this.reset();
      for (const { group, topic, partition, lag: messages } of values)
        this.set({ group, topic, partition: String(partition) }, messages);
    },
  });
  return lag;
}
