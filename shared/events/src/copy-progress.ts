import type { Admin } from 'kafkajs';
import { describeBehind, partitionsBehind, type PartitionBehind } from './catch-up';

/**
 * How far a service's copy of a topic (a consumer group that keeps a copy of installations, orders,
 * ...) has read it; the rule is `catch-up.ts`. A service asks before it acts on the copy where a
 * stale copy would give a wrong answer: the webhook sender turns a domain event into webhooks only
 * once its installation copy holds every installation event published before it (after a restart
 * or an outage, when both topics are read from behind, an order is never matched against
 * installations older than it); delivery-assignment checks an assignment against orders and
 * installations only once its copies hold what was published before the request. A "caught up to
 * the end" answer is kept for a short while: the check costs two or three admin requests.
 */
export class CopyProgress {
  private cached: { at: number; caughtUp: boolean } | undefined;
  /** Per partition, the next offset after the last message this process handled. */
  private readonly handled = new Map<number, bigint>();

  constructor(
    private readonly admin: Admin,
    private readonly groupId: string,
    private readonly topic: string,
    private readonly cacheMs = 500,
  ) {}

  /** Called by the copy's consumer after each message (repeats included). */
  handledUpTo(partition: number, offset: string): void {
    const next = BigInt(offset) + 1n;
    if ((this.handled.get(partition) ?? -1n) < next) this.handled.set(partition, next);
  }

  /**
   * The partitions whose messages published before `time` are not all in the copy yet; empty when
   * the copy has caught up to `time`.
   */
  async behindAt(time: Date): Promise<PartitionBehind[]> {
    // At the end of the topic a moment ago, and the event is older than that moment: caught up.
    if (this.cached?.caughtUp && time.getTime() <= this.cached.at && Date.now() - this.cached.at < this.cacheMs)
      return [];
    // A look at the end that began at or after `time` answers for it too: concurrent requests
    // share one round of admin calls instead of making one each.
    const running = this.atEnd;
    if (running && running.at >= time.getTime() && (await running.caughtUp)) return [];
    const at = Date.now();
    const look = this.lookAtEnd();
    // A failed look answers no one else (they look themselves) and is never left unhandled.
    this.atEnd = {
      at,
      caughtUp: look.then(
        (l) => l.behind.length === 0,
        () => false,
      ),
    };
    const { ends, committed, behind } = await look;
    this.cached = { at, caughtUp: behind.length === 0 };
    if (behind.length === 0) return [];
    // Behind the end: enough if the messages published before `time` are in.
    const needed = await this.admin.fetchTopicOffsetsByTimestamp(this.topic, time.getTime());
    return partitionsBehind({ ends, committed, handled: this.handled, needed });
  }

  /** The latest look at the end of the topic: when it began, and whether the copy was there. */
  private atEnd: { at: number; caughtUp: Promise<boolean> } | undefined;

  private async lookAtEnd() {
    const [ends, groups] = await Promise.all([
      this.admin.fetchTopicOffsets(this.topic),
      this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] }),
    ]);
    const committed = groups.find((g) => g.topic === this.topic)?.partitions ?? [];
    return { ends, committed, behind: partitionsBehind({ ends, committed, handled: this.handled }) };
  }
}

/**
 * Waits until every copy has caught up to `time`, looking again every `pollMs`; past `timeoutMs`
 * it returns what is still behind, described for an error or a log (`orders: partition 2 at 4 of
 * 5`), else undefined. Bounded as a whole: a broker that does not answer the admin requests ends
 * the wait at the deadline too (`orders: no answer from Kafka within 3000 ms`), instead of holding
 * the caller through the client's own retries.
 */
export async function waitForCopies(
  copies: ReadonlyArray<{ name: string; progress: CopyProgress }>,
  time: Date,
  options: { timeoutMs: number; pollMs?: number },
): Promise<string | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  const names = copies.map((c) => c.name).join(', ');
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<string>((resolve) => {
    // A little past the deadline, so that a last look that answers in time says what is behind.
    timer = setTimeout(
      () => resolve(`${names}: no answer from Kafka within ${options.timeoutMs} ms`),
      options.timeoutMs + 250,
    );
  });
  const lookUntilCaughtUp = async (): Promise<string | undefined> => {
    for (;;) {
      const behind = await Promise.all(
        copies.map(async ({ name, progress }) => ({ name, partitions: await progress.behindAt(time) })),
      );
      const lagging = behind.filter((b) => b.partitions.length > 0);
      if (lagging.length === 0) return undefined;
      if (Date.now() >= deadline) return lagging.map((b) => `${b.name}: ${describeBehind(b.partitions)}`).join('; ');
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 25));
    }
  };
  try {
    return await Promise.race([lookUntilCaughtUp(), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
