import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Context } from '@opentelemetry/api';
import type { TopicName, TopicPayloads, WebhookAttempt } from '@marketplace/contracts';
import {
  holdCauseOf,
  inConsumerSpan,
  messageTraceContext,
  subscribeWhenReady,
  type EventDecoder,
  type HoldWatch,
} from '@marketplace/events';
import type { Logger } from '@marketplace/logging';
import type { FairDispatcher } from '../domain/fair-dispatcher';
import { PartitionProgress } from '../domain/partition-progress';

/**
 * One scheduled attempt, as it waits on an attempt topic (schemas/webhook-attempts.schema.json):
 * its `installationId` is the endpoint's owner, an installation or a platform account.
 */
export type AttemptJob = WebhookAttempt;

/** The topics whose messages are attempts: `webhook-attempts` and its retry tiers. */
export type AttemptTopic = { [T in TopicName]: TopicPayloads[T] extends WebhookAttempt ? T : never }[TopicName];

export interface AttemptQueueOptions {
  groupId: string;
  topics: readonly AttemptTopic[];
  /** Jobs admitted to the dispatcher but not finished, beyond which fetching waits (memory bound). */
  maxInFlight: number;
  /**
   * Attempts read ahead and kept in memory until their due time, in all partitions together.
   * Beyond it a partition stops reading (a hold, alarmed when it lasts) until one is sent.
   */
  maxWaiting: number;
  handle(job: AttemptJob): Promise<void>;
  /** Where what the queue holds back is reported (alarm, metric, readiness). */
  holds?: HoldWatch;
  /**
   * When this sender's database first started (usecases/installations.ts `sendingSince`): attempt
   * messages written before it cannot be for its deliveries (a sender with a new database joins
   * the attempt topics at their beginning, behind every earlier sender's attempts), so they are
   * passed over unread instead of decoded and looked up one by one.
   */
  since?: Date;
}

/**
 * Where an attempt message came from, and the trace it was published in (by the consumer of the
 * domain event, or by the attempt before it): the attempt is made in that trace, whenever it is due.
 */
interface Origin {
  topic: string;
  partition: number;
  offset: bigint;
  trace: Context;
}

/** An attempt read ahead of its due time: its timer, and where it came from. */
interface Waiting {
  timer: NodeJS.Timeout;
  topic: string;
  partition: number;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The attempt topics: `webhook-attempts` (due now) and one retry topic per backoff tier. Each
 * message carries its due time, and the jitter (±20 %) makes due times disagree with the order
 * in a partition: a message due at 0.8 × the tier's delay can stand behind one due at 1.2 ×. So a
 * partition is never paused on a message that is not due: every message is read as it comes and
 * one not due yet waits in memory on its own timer, so each attempt is made at its own due time,
 * whatever stands ahead of it (at most `maxWaiting` wait at once; past that, reading waits).
 *
 * Due messages go to the fair dispatcher and the consumer reads on: attempts to a slow endpoint do
 * not hold up the partition. Offsets are committed in order all the same: a partition's commit
 * never passes its oldest unfinished attempt, waiting ones included, so a crash or a restart in
 * the middle of a wait loses nothing; it reads those messages again, and the delivery's attempt
 * number makes a message whose attempt was already made a no-op (at-least-once, no more).
 */
export class AttemptQueue {
  private readonly consumer: Consumer;
  private readonly progress = new Map<string, PartitionProgress>();
  private readonly waiting = new Map<string, Waiting>();
  /** Partitions that stopped reading because `maxWaiting` was reached: resumed as room frees. */
  private readonly full = new Map<string, { topic: string; partition: number }>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private readonly topics: ReadonlySet<string>;

  constructor(
    kafka: Kafka,
    /** Reads the values: decoded through the registry and checked against the topic's schema. */
    private readonly decoder: EventDecoder,
    private readonly dispatcher: FairDispatcher,
    private readonly options: AttemptQueueOptions,
    private readonly log: Logger,
  ) {
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 30_000,
      heartbeatInterval: 3000,
      maxWaitTimeInMs: 500,
    });
    this.topics = new Set<string>(options.topics);
    // After a rebalance, what this process read of partitions it lost is the new owner's to
    // read again: forget it (and its timers), so nothing is attempted twice by this process.
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => this.keepOnly(payload.memberAssignment));
  }

  /** Attempts waiting in memory for their due time (a gauge). */
  get waitingCount(): number {
    return this.waiting.size;
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
   * Stops fetching (pauses everything), drops the waiting attempts (uncommitted: the next consumer
   * reads them again), lets the attempts in flight finish (each is bounded by its timeouts),
   * commits while still in the group, then leaves.
   */
  stop(): Promise<void> {
    return (this.stopped ??= this.stopOnce());
  }

  private async stopOnce(): Promise<void> {
    this.stopping = true;
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.consumer.pause(this.options.topics.map((topic) => ({ topic })));
    await Promise.allSettled([...this.inFlight]);
    await this.commitAll().catch((error) =>
      this.log.warn({ err: error }, 'final commit of attempt offsets failed; some attempts may repeat'),
    );
    await this.consumer.disconnect();
    for (const key of this.full.keys()) this.options.holds?.release(`attempts-full:${key}`);
  }

  private progressOf(topic: string, partition: number): PartitionProgress {
    const key = `${topic}:${partition}`;
    let progress = this.progress.get(key);
    if (!progress) this.progress.set(key, (progress = new PartitionProgress()));
    return progress;
  }

  // kafkajs hands these as closures over the batch, not methods that need `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  private async eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const progress = this.progressOf(topic, partition);
    for (const message of batch.messages) {
      if (!isRunning() || isStale() || this.stopping) return;
      const offset = BigInt(message.offset);
      if (this.options.since && Number(message.timestamp) < this.options.since.getTime()) {
        // Another database's attempt (see `since`): nothing to do, and nothing waits on it.
        if (!progress.hasRead(offset)) {
          progress.begin(offset);
          progress.end(offset);
        }
        resolveOffset(message.offset);
        continue;
      }
      // Read again after a rebalance that left this partition here (kafkajs goes back to the
      // committed offset): it is waiting, in flight or done already.
      if (progress.hasRead(offset)) {
        resolveOffset(message.offset);
        continue;
      }
      let job: AttemptJob | undefined;
      try {
        if (!this.isAttemptTopic(topic)) throw new Error(`${topic} is not an attempt topic of this queue`);
        job = await this.decoder.decode(topic, message.value);
      } catch (error) {
        // Not ours to handle (not in the wire format, or not an attempt): skip it, loudly.
        this.log.error({ err: error, topic, partition, offset: message.offset }, 'unreadable attempt message skipped');
      }
      const wait = job ? Date.parse(job.dueAt) - Date.now() : 0;
      if (job && wait > 0 && this.waiting.size >= this.options.maxWaiting) {
        // No room to wait for more: this partition reads on from here once an attempt is sent.
        this.stopReading(topic, partition, message.offset);
        break;
      }
      if (job && wait <= 0) await this.untilRoomInFlight(topic, partition, heartbeat);
      if (this.stopping) return;
      progress.begin(offset);
      resolveOffset(message.offset);
      const origin: Origin = { topic, partition, offset, trace: messageTraceContext(message.headers) };
      if (!job) progress.end(offset);
      else if (wait > 0) this.waitFor(job, origin, wait);
      else this.dispatch(job, origin);
      await heartbeat();
    }
    await this.commit(topic, partition, this.progressOf(topic, partition));
  }

  private isAttemptTopic(topic: string): topic is AttemptTopic {
    return this.topics.has(topic);
  }

  /** Keeps a not-yet-due attempt in memory until its due time, then dispatches it. */
  private waitFor(job: AttemptJob, origin: Origin, wait: number): void {
    const { topic, partition, offset } = origin;
    const key = `${topic}:${partition}:${offset}`;
    const timer = setTimeout(
      () => {
        this.waiting.delete(key);
        if (this.stopping) return;
        // Timers may fire a millisecond early, and one reaches at most 24.8 days: wait for the rest.
        const rest = Date.parse(job.dueAt) - Date.now();
        if (rest > 0) {
          this.waitFor(job, origin, rest);
          return;
        }
        this.dispatch(job, origin);
        this.readOnWhereFull();
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    this.waiting.set(key, { timer, topic, partition });
  }

  private dispatch(job: AttemptJob, origin: Origin): void {
    const { topic, partition, offset } = origin;
    const progress = this.progressOf(topic, partition);
    // Fair per endpoint owner: `installationId` holds the installation or the platform account.
    const running: Promise<void> = this.dispatcher
      .run(job.installationId, () => this.handleUntilDone(job, origin))
      .then((done) => {
        // Unfinished (the service is stopping mid-outage): the offset stays pending, nothing is
        // committed past it, and the next consumer makes the attempt.
        if (done) progress.end(offset);
        this.inFlight.delete(running);
        return this.commit(topic, partition, progress);
      });
    this.inFlight.add(running);
  }

  /** Waits while the dispatcher holds as many jobs as allowed (receivers slow): a hold, alarmed when long. */
  private async untilRoomInFlight(topic: string, partition: number, heartbeat: () => Promise<void>): Promise<void> {
    if (this.dispatcher.load < this.options.maxInFlight) return;
    const key = `attempts-busy:${topic}:${partition}`;
    this.options.holds?.hold(key, {
      group: this.options.groupId,
      topic,
      partition,
      code: 'webhook.attempts_in_flight_full',
      reason: `${this.options.maxInFlight} attempts are in flight or queued for their receivers; due attempts wait for a free slot`,
    });
    try {
      while (this.dispatcher.load >= this.options.maxInFlight && !this.stopping) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await heartbeat();
      }
    } finally {
      this.options.holds?.release(key);
    }
  }

  private stopReading(topic: string, partition: number, offset: string): void {
    const key = `${topic}:${partition}`;
    this.consumer.pause([{ topic, partitions: [partition] }]);
    this.consumer.seek({ topic, partition, offset });
    this.full.set(key, { topic, partition });
    this.options.holds?.hold(`attempts-full:${key}`, {
      group: this.options.groupId,
      topic,
      partition,
      offset,
      code: 'webhook.attempts_waiting_full',
      reason: `${this.waiting.size} attempts wait in memory for their due time (WEBHOOK_MAX_WAITING_ATTEMPTS); this partition reads on when one is sent`,
    });
  }

  private readOnWhereFull(): void {
    if (this.full.size === 0 || this.waiting.size >= this.options.maxWaiting || this.stopping) return;
    const partitions = [...this.full.values()];
    this.full.clear();
    for (const { topic, partition } of partitions) {
      this.options.holds?.release(`attempts-full:${topic}:${partition}`);
      this.consumer.resume([{ topic, partitions: [partition] }]);
    }
  }

  /** Forgets what was read of partitions this member no longer has. */
  private keepOnly(assignment: Record<string, number[]>): void {
    const kept = new Set(
      Object.entries(assignment).flatMap(([topic, partitions]) => partitions.map((p) => `${topic}:${p}`)),
    );
    for (const [key, waiting] of this.waiting) {
      if (kept.has(`${waiting.topic}:${waiting.partition}`)) continue;
      clearTimeout(waiting.timer);
      this.waiting.delete(key);
    }
    for (const key of this.progress.keys()) if (!kept.has(key)) this.progress.delete(key);
    for (const key of this.full.keys()) {
      if (kept.has(key)) continue;
      this.full.delete(key);
      this.options.holds?.release(`attempts-full:${key}`);
    }
  }

  /**
   * Runs the attempt; a failure of our own (the database away, say: the partner's answers are
   * results, not failures) is retried with backoff until it succeeds or the service stops.
   */
  private async handleUntilDone(job: AttemptJob, origin: Origin): Promise<boolean> {
    const { topic, partition } = origin;
    const holdKey = `attempts-retry:${job.deliveryId}:${job.round}:${job.attempt}`;
    try {
      for (let delay = 500; ; delay = Math.min(delay * 2, 30_000)) {
        try {
          // Each try is a span of the message's trace: the webhook's HTTP request beneath it, and
          // the next attempt it schedules (staged in this context) continuing the same trace.
          // Ids and numbers only: never the URL, a header or the body.
          await inConsumerSpan(
            topic,
            origin.trace,
            {
              'messaging.destination.partition.id': String(partition),
              'messaging.kafka.offset': Number(origin.offset),
              'webhook.delivery.id': job.deliveryId,
              'webhook.round': job.round,
              'webhook.attempt': job.attempt,
            },
            () => this.options.handle(job),
          );
          return true;
        } catch (error) {
          this.log.error(
            { err: error, deliveryId: job.deliveryId, retryInMs: delay },
            'attempt could not be made or recorded; retrying',
          );
          const cause = holdCauseOf(error);
          this.options.holds?.hold(holdKey, {
            group: this.options.groupId,
            topic,
            partition,
            ...cause,
            reason: `attempt ${job.attempt} of delivery ${job.deliveryId} could not be made or recorded: ${cause.reason}`,
          });
          // Waits in short steps, so a stop does not sit out the backoff.
          for (const until = Date.now() + delay; Date.now() < until;) {
            if (this.stopping) return false;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      }
    } finally {
      this.options.holds?.release(holdKey);
    }
  }

  private async commit(topic: string, partition: number, progress: PartitionProgress): Promise<void> {
    const offset = progress.toCommit();
    if (offset === undefined) return;
    await this.consumer
      .commitOffsets([{ topic, partition, offset: offset.toString() }])
      .then(() => progress.committed(offset))
      .catch((error) =>
        this.log.debug({ err: error, topic, partition }, 'commit of attempt offsets failed (rebalance?)'),
      );
  }

  private async commitAll(): Promise<void> {
    const offsets = [...this.progress].flatMap(([key, progress]) => {
      const offset = progress.toCommit();
      const at = key.lastIndexOf(':');
      return offset === undefined
        ? []
        : [{ topic: key.slice(0, at), partition: Number(key.slice(at + 1)), offset: offset.toString() }];
    });
    if (offsets.length > 0) await this.consumer.commitOffsets(offsets);
  }
}
