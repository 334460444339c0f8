import type { Admin } from 'kafkajs';

/**
 * Whether the installation copy has caught up with the installations topic: for every partition,
 * the copy has handled the message before the partition's end (seen by this process's consumer),
 * or the consumer group's committed offset is already there (nothing new since the last run). A
 * domain event is turned into webhooks only then, so that after a restart or an outage, when
 * both topics are read from behind, an order is never matched against installations older than
 * it (a new installation missing, a disconnected one still there). The answer is kept for a short
 * while: the check costs two admin requests.
 */
export class InstallationsProgress {
  private cached: { at: number; value: boolean } | undefined;
  /** Per partition, the next offset after the last message this process handled. */
  private readonly handled = new Map<number, bigint>();

  constructor(
    private readonly admin: Admin,
    private readonly groupId: string,
    private readonly topic: string,
    private readonly cacheMs = 500,
  ) {}

  /** Called by the installations consumer after each message (repeats included). */
  handledUpTo(partition: number, offset: string): void {
    const next = BigInt(offset) + 1n;
    if ((this.handled.get(partition) ?? -1n) < next) this.handled.set(partition, next);
  }

  /** Whether every installation event published before `time` is in the copy. */
  async caughtUpTo(time: Date): Promise<boolean> {
    // At the end of the topic a moment ago, and the event is older than that moment: yes.
    if (this.cached?.value && time.getTime() <= this.cached.at && Date.now() - this.cached.at < this.cacheMs) return true;
    const at = Date.now();
    const [ends, groups] = await Promise.all([this.admin.fetchTopicOffsets(this.topic), this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] })]);
    const committed = new Map((groups[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
    const reached = (partition: number) => {
      const c = committed.get(partition) ?? -1n;
      const h = this.handled.get(partition) ?? -1n;
      return c > h ? c : h;
    };
    const atEnd = ends.every((end) => reached(end.partition) >= BigInt(end.high));
    this.cached = { at, value: atEnd };
    if (atEnd) return true;
    // Behind the end: enough if the messages before `time` are in.
    const needed = await this.admin.fetchTopicOffsetsByTimestamp(this.topic, time.getTime());
    return needed.every((n) => BigInt(n.offset) < 0n || reached(n.partition) >= BigInt(n.offset));
  }
}
