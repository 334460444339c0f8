import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { subscribeWhenReady, type EventSchemas } from '@marketplace/events';
import type { Logger } from '@marketplace/logging';
import type { FairDispatcher } from '../domain/fair-dispatcher';

/** One scheduled attempt, as it waits on an attempt topic. */
export interface AttemptJob {
  deliveryId: string;
  installationId: string;
  round: number;
  attempt: number;
  /** When the attempt may be made (ISO 8601). */
  dueAt: string;
}

export interface AttemptQueueOptions {
  groupId: string;
  topics: string[];
  /** Jobs admitted but not finished, beyond which fetching waits (memory bound). */
  maxInFlight: number;
  handle(job: AttemptJob): Promise<void>;
}

/** Offsets of one partition: what has been handed out and is not finished yet. */
class PartitionProgress {
  private readonly pending = new Set<bigint>();
  private next: bigint | undefined;

  begin(offset: bigint) {
    this.pending.add(offset);
    if (this.next === undefined || offset + 1n > this.next) this.next = offset + 1n;
  }

  end(offset: bigint) {
    this.pending.delete(offset);
  }

  /** The offset to commit: the oldest unfinished one, else the one after the newest seen. */
  committable(): bigint | undefined {
    let oldest: bigint | undefined;
    for (const offset of this.pending) if (oldest === undefined || offset < oldest) oldest = offset;
    return oldest ?? this.next;
  }
}

/**
 * The attempt topics: `webhook-attempts` (due now) and one retry topic per backoff tier. Each
 * message carries its due time. A partition whose next message is not due yet is paused until it
 * is and read again from that message (nothing is committed past it, so a restart in the middle
 * of a wait loses nothing); other partitions and topics go on meanwhile.
 *
 * Due messages are handed to the fair dispatcher and the consumer reads on: attempts to a slow
 * endpoint do not hold up the partition. Offsets are committed in order all the same: a
 * partition's commit never passes its oldest unfinished attempt, so a crash repeats at most the
 * attempts in flight (the delivery's attempt number makes a repeated message a no-op once its
 * attempt was recorded).
 */
export class AttemptQueue {
  private readonly consumer: Consumer;
  private readonly progress = new Map<string, PartitionProgress>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    kafka: Kafka,
    private readonly schemas: EventSchemas,
    private readonly dispatcher: FairDispatcher,
    private readonly options: AttemptQueueOptions,
    private readonly log: Logger,
  ) {
    this.consumer = kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: false, sessionTimeout: 30_000, heartbeatInterval: 3000, maxWaitTimeInMs: 500 });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    for (const topic of this.options.topics) await subscribeWhenReady(this.consumer, topic, true);
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: Math.max(1, this.options.topics.length * 2),
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  /**
   * Stops fetching (pauses everything), lets the attempts in flight finish (each is bounded by its
   * timeouts), commits while still in the group, then leaves.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.consumer.pause(this.options.topics.map((topic) => ({ topic })));
    await Promise.allSettled([...this.inFlight]);
    await this.commitAll().catch((error) => this.log.warn({ err: error }, 'final commit of attempt offsets failed; some attempts may repeat'));
    await this.consumer.disconnect();
  }

  private async eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const key = `${topic}:${partition}`;
    const progress = this.progress.get(key) ?? this.progress.set(key, new PartitionProgress()).get(key)!;
    for (const message of batch.messages) {
      if (!isRunning() || isStale() || this.stopping) return;
      const offset = BigInt(message.offset);
      let job: AttemptJob | undefined;
      try {
        job = (await this.schemas.decode(message.value!)) as AttemptJob;
      } catch (error) {
        // Not ours to handle (not in the wire format, or not an attempt): skip it, loudly.
        this.log.error({ err: error, topic, partition, offset: message.offset }, 'unreadable attempt message skipped');
      }
      const wait = job ? Date.parse(job.dueAt) - Date.now() : 0;
      if (job && wait > 0) {
        // Not due: read this partition again from here once it is.
        this.consumer.pause([{ topic, partitions: [partition] }]);
        this.consumer.seek({ topic, partition, offset: message.offset });
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!this.stopping) this.consumer.resume([{ topic, partitions: [partition] }]);
        }, Math.min(wait, 2 ** 31 - 1));
        this.timers.add(timer);
        return;
      }
      while (this.dispatcher.load >= this.options.maxInFlight && !this.stopping) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await heartbeat();
      }
      progress.begin(offset);
      resolveOffset(message.offset);
      if (job) {
        const due = job;
        const running: Promise<void> = this.dispatcher
          .run(due.installationId, () => this.handleUntilDone(due))
          .then((done) => {
            // Unfinished (the service is stopping mid-outage): the offset stays pending, nothing
            // is committed past it, and the next consumer makes the attempt.
            if (done) progress.end(offset);
            this.inFlight.delete(running);
            return this.commit(topic, partition, progress);
          });
        this.inFlight.add(running);
      } else {
        progress.end(offset);
      }
      await heartbeat();
    }
    await this.commit(topic, partition, progress);
  }

  /**
   * Runs the attempt; a failure of our own (the database away, say: the partner's answers are
   * results, not failures) is retried with backoff until it succeeds or the service stops.
   */
  private async handleUntilDone(job: AttemptJob): Promise<boolean> {
    for (let delay = 500; ; delay = Math.min(delay * 2, 30_000)) {
      try {
        await this.options.handle(job);
        return true;
      } catch (error) {
        this.log.error({ err: error, deliveryId: job.deliveryId, retryInMs: delay }, 'attempt could not be made or recorded; retrying');
        // Waits in short steps, so a stop does not sit out the backoff.
        for (const until = Date.now() + delay; Date.now() < until; ) {
          if (this.stopping) return false;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    }
  }

  private async commit(topic: string, partition: number, progress: PartitionProgress): Promise<void> {
    const offset = progress.committable();
    if (offset === undefined) return;
    await this.consumer.commitOffsets([{ topic, partition, offset: offset.toString() }]).catch((error) => this.log.debug({ err: error, topic, partition }, 'commit of attempt offsets failed (rebalance?)'));
  }

  private async commitAll(): Promise<void> {
    const offsets = [...this.progress].flatMap(([key, progress]) => {
      const offset = progress.committable();
      const at = key.lastIndexOf(':');
      return offset === undefined ? [] : [{ topic: key.slice(0, at), partition: Number(key.slice(at + 1)), offset: offset.toString() }];
    });
    if (offsets.length > 0) await this.consumer.commitOffsets(offsets);
  }
}
