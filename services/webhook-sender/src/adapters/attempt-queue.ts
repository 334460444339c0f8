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
import { AttemptScheduler, type StartedAttempt } from '../domain/attempt-scheduler';
import { EndpointCircuits, type AttemptReach, type CircuitSettings } from '../domain/endpoint-circuit';
import { PartitionProgress } from '../domain/partition-progress';

/**
 * One scheduled attempt, as it waits on an attempt topic (schemas/webhook-attempts.schema.json):
 * its `installationId` is the endpoint's owner, an installation or a platform account.
 */
export type AttemptJob = WebhookAttempt;

/** The topics whose messages are attempts: `webhook-attempts` and its retry tiers. */
export type AttemptTopic = { [T in TopicName]: TopicPayloads[T] extends WebhookAttempt ? T : never }[TopicName];

/** How due attempts share the sender (domain/attempt-scheduler.ts) and when an endpoint's circuit opens. */
export interface DispatchSettings {
  /** Attempts in flight at once, in all. */
  overall: number;
  /** Attempts in flight at once to one healthy endpoint owner. */
  perEndpoint: number;
  circuit: CircuitSettings;
}

export interface AttemptQueueOptions {
  groupId: string;
  topics: readonly AttemptTopic[];
  /**
   * Attempts held in memory, in all partitions together: read ahead of their due time, or due and
   * not started (queued behind others of their endpoint, or parked behind an open circuit). Beyond
   * it a partition stops reading (a hold, alarmed when it lasts) until one is sent.
   */
  maxWaiting: number;
  /**
   * Room above `maxWaiting` kept for first attempts, so that retries filling the memory bound
   * (a storm to dead endpoints) never stop new events from being read.
   */
  firstAttemptRoom: number;
  /** Makes the attempt; what it learned of the endpoint feeds the endpoint's circuit. */
  handle(job: AttemptJob): Promise<AttemptReach>;
  /** Where what the queue holds back is reported (alarm, metric, readiness). */
  holds?: HoldWatch;
  /**
   * When this sender's database first started (usecases/claim-sending-since.ts): attempt
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

/** A due attempt in the scheduler: the job and where it came from. */
interface Queued {
  job: AttemptJob;
  origin: Origin;
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
 * Due messages go to the scheduler (domain/attempt-scheduler.ts) and the consumer reads on, never
 * waiting for a slot: attempts to a slow or dead endpoint hold up neither the partition nor the
 * next fetch, so a new event's first attempt is read and started while a storm of retries waits
 * (first attempts and healthy endpoints go first; an endpoint that cannot be reached trips its
 * circuit, which parks its attempts, in memory and uncommitted, until a probe is answered).
 * Offsets are committed in order all the same: a partition's commit
 * never passes its oldest unfinished attempt, waiting ones included, so a crash or a restart in
 * the middle of a wait loses nothing; it reads those messages again, and the delivery's attempt
 * number makes a message whose attempt was already made a no-op (at-least-once, no more).
 */
export class AttemptQueue {
  private readonly consumer: Consumer;
  private readonly progress = new Map<string, PartitionProgress>();
  private readonly waiting = new Map<string, Waiting>();
  /** Partitions that stopped reading because the memory bound was reached: resumed as room frees. */
  private readonly full = new Map<string, { topic: string; partition: number; limit: number }>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly scheduler: AttemptScheduler<Queued>;
  /** The timer that wakes the scheduler when an open circuit may probe, and when. */
  private wake: { timer: NodeJS.Timeout; at: number } | undefined;
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private readonly topics: ReadonlySet<string>;

  constructor(
    kafka: Kafka,
    /** Reads the values: decoded through the registry and checked against the topic's schema. */
    private readonly decoder: EventDecoder,
    dispatch: DispatchSettings,
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
    this.scheduler = new AttemptScheduler(
      { overall: dispatch.overall, perEndpoint: dispatch.perEndpoint },
      new EndpointCircuits(dispatch.circuit),
    );
    // After a rebalance, what this process read of partitions it lost is the new owner's to
    // read again: forget it (and its timers), so nothing is attempted twice by this process.
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => this.keepOnly(payload.memberAssignment));
  }

  /** Attempts waiting in memory for their due time (a gauge). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** Attempts due and not started: queued for a slot, or parked behind an open circuit (a gauge). */
  get queuedCount(): number {
    return this.scheduler.queued;
  }

  /** Endpoint owners whose circuit is open (a gauge). */
  get openCircuits(): number {
    return this.scheduler.circuits.openCount;
  }

  /** Attempts held in memory: waiting for their due time, or due and not started. */
  private get held(): number {
    return this.waiting.size + this.scheduler.queued;
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
   * Stops fetching (pauses everything), drops the waiting, queued and parked attempts (uncommitted:
   * the next consumer reads them again), lets the attempts in flight finish (each is bounded by its timeouts),
   * commits while still in the group, then leaves.
   */
  stop(): Promise<void> {
    return (this.stopped ??= this.stopOnce());
  }

  private async stopOnce(): Promise<void> {
    this.stopping = true;
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.scheduler.clear();
    if (this.wake) clearTimeout(this.wake.timer);
    this.wake = undefined;
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
      const limit =
        job?.attempt === 1 ? this.options.maxWaiting + this.options.firstAttemptRoom : this.options.maxWaiting;
      if (job && this.held >= limit) {
        // No room to hold more: this partition reads on from here once an attempt is started.
        this.stopReading(topic, partition, message.offset, limit);
        break;
      }
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
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    this.waiting.set(key, { timer, topic, partition });
  }

  /** Hands a due attempt to the scheduler, keyed by its endpoint's owner (`installationId`: an installation or a platform account). */
  private dispatch(job: AttemptJob, origin: Origin): void {
    this.scheduler.add({
      endpoint: job.installationId,
      first: job.attempt === 1,
      dueAt: Date.parse(job.dueAt),
      job: { job, origin },
    });
    this.pump();
  }

  /** Starts every attempt the scheduler lets start now, and wakes it when a parked endpoint may probe. */
  private pump(): void {
    if (this.stopping) return;
    const now = Date.now();
    for (let started = this.scheduler.next(now); started; started = this.scheduler.next(now)) this.launch(started);
    this.wakeForProbe(now);
    this.readOnWhereFull();
  }

  private launch(started: StartedAttempt<Queued>): void {
    const { job, origin } = started.attempt.job;
    const { topic, partition, offset } = origin;
    const progress = this.progressOf(topic, partition);
    const running: Promise<void> = this.handleUntilDone(job, origin).then((reach) => {
      this.scheduler.finished(started, reach ?? 'not-sent', Date.now());
      // Unfinished (the service is stopping mid-outage): the offset stays pending, nothing is
      // committed past it, and the next consumer makes the attempt.
      if (reach !== undefined) progress.end(offset);
      this.inFlight.delete(running);
      this.pump();
      return this.commit(topic, partition, progress);
    });
    this.inFlight.add(running);
  }

  /** A finished attempt pumps the scheduler; only a probe due later needs a timer. */
  private wakeForProbe(now: number): void {
    const at = this.scheduler.nextWakeAt();
    if (this.wake && this.wake.at === at) return;
    if (this.wake) clearTimeout(this.wake.timer);
    this.wake = undefined;
    if (at === undefined || at <= now) return;
    const timer = setTimeout(
      () => {
        this.wake = undefined;
        this.pump();
      },
      Math.min(at - now, MAX_TIMER_MS),
    );
    this.wake = { timer, at };
  }

  private stopReading(topic: string, partition: number, offset: string, limit: number): void {
    const key = `${topic}:${partition}`;
    this.consumer.pause([{ topic, partitions: [partition] }]);
    this.consumer.seek({ topic, partition, offset });
    this.full.set(key, { topic, partition, limit });
    this.options.holds?.hold(`attempts-full:${key}`, {
      group: this.options.groupId,
      topic,
      partition,
      offset,
      code: 'webhook.attempts_waiting_full',
      reason: `${this.held} attempts wait in memory for their due time, a slot or their endpoint's circuit (WEBHOOK_MAX_WAITING_ATTEMPTS); this partition reads on when one is sent`,
    });
  }

  private readOnWhereFull(): void {
    if (this.full.size === 0 || this.stopping) return;
    const held = this.held;
    for (const [key, { topic, partition, limit }] of this.full) {
      if (held >= limit) continue;
      this.full.delete(key);
      this.options.holds?.release(`attempts-full:${key}`);
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
    this.scheduler.remove(({ job }) => !kept.has(`${job.origin.topic}:${job.origin.partition}`));
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
  private async handleUntilDone(job: AttemptJob, origin: Origin): Promise<AttemptReach | undefined> {
    const { topic, partition } = origin;
    const holdKey = `attempts-retry:${job.deliveryId}:${job.round}:${job.attempt}`;
    try {
      for (let delay = 500; ; delay = Math.min(delay * 2, 30_000)) {
        try {
          // Each try is a span of the message's trace: the webhook's HTTP request beneath it, and
          // the next attempt it schedules (staged in this context) continuing the same trace.
          // Ids and numbers only: never the URL, a header or the body.
          return await inConsumerSpan(
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
            if (this.stopping) return undefined;
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
