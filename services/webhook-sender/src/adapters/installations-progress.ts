import type { Admin } from 'kafkajs';
import { partitionsBehind, type PartitionBehind } from '../domain/installations-catch-up';
import type { InstallationsProgress as Progress } from '../usecases/installations';

/**
 * How far the installation copy has read the installations topic (the rule is
 * `domain/installations-catch-up.ts`). A domain event is turned into webhooks only once the copy
 * holds every installation event published before it, so that after a restart or an outage, when
 * both topics are read from behind, an order is never matched against installations older than
 * it (a new installation missing, a disconnected one still there). A "caught up to the end" answer
 * is kept for a short while: the check costs two or three admin requests.
 */
export class InstallationsProgress implements Progress {
  private cached: { at: number; caughtUp: boolean } | undefined;
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

  /**
   * The partitions whose installation events published before `time` are not all in the copy yet;
   * empty when the copy has caught up to `time`.
   */
  async behindAt(time: Date): Promise<PartitionBehind[]> {
    // At the end of the topic a moment ago, and the event is older than that moment: caught up.
    if (this.cached?.caughtUp && time.getTime() <= this.cached.at && Date.now() - this.cached.at < this.cacheMs)
      return [];
    const at = Date.now();
    const [ends, groups] = await Promise.all([
      this.admin.fetchTopicOffsets(this.topic),
      this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] }),
    ]);
    const committed = groups.find((g) => g.topic === this.topic)?.partitions ?? [];
    const atEnd = partitionsBehind({ ends, committed, handled: this.handled });
    this.cached = { at, caughtUp: atEnd.length === 0 };
    if (atEnd.length === 0) return [];
    // Behind the end: enough if the messages published before `time` are in.
    const needed = await this.admin.fetchTopicOffsetsByTimestamp(this.topic, time.getTime());
    return partitionsBehind({ ends, committed, handled: this.handled, needed });
  }
}
