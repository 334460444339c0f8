import {
  KafkaJSError,
  type Consumer,
  type EachMessagePayload,
  type IHeaders,
  type Kafka,
  type KafkaMessage,
  type Producer,
} from 'kafkajs';
import { context, trace } from '@opentelemetry/api';
import type { Logger } from '@marketplace/logging';
import type { TopicCatalog } from './catalog';
import { EventDecoder } from './decoder';
import {
  DeadLetter,
  STOPPING_MESSAGE,
  deadLetterMessage,
  isPermanent,
  nextBackoff,
  shouldRetry,
  toDeadLetter,
} from './failure';
import { consumerGroupConfig, DEFAULT_GROUP_TIMINGS, type GroupTimings } from './group-timings';
import { HEADER, extractTraceContext, headerText } from './headers';
import { holdCauseOf, type HoldWatch } from './holds';
import type { EventSchemas } from './registry';
import type { PlatformTopics, TopicMap, TopicOf } from './topics';
import type { SchemaValidator } from './validation';

/** One message as a handler receives it: `data` of type T, from `topic`, with event type `type`. */
export interface ConsumedEvent<T = unknown, Topic extends string = string, Type extends string = string> {
  topic: Topic;
  partition: number;
  offset: string;
  key: string | null;
  eventId: string;
  /** One of the event types the catalog declares for the topic (others are dead letters). */
  type: Type;
  occurredAt: string | undefined;
  /** The value, validated against the topic's schema. */
  data: T;
  headers: IHeaders;
  log: Logger;
}

/**
 * What a consumer of the topics T receives: one member per topic, told apart by `event.topic`,
 * each with its topic's data and event types. For `['orders', 'installations']`:
 * `ConsumedEvent<OrderEvent, 'orders', …> | ConsumedEvent<InstallationChanged, 'installations', …>`.
 */
export type EventOf<M extends TopicMap = PlatformTopics, T extends TopicOf<M> = TopicOf<M>> = {
  [K in T]: ConsumedEvent<M[K]['data'], K, M[K]['type']>;
}[T];

/** Event ids are UUIDs when we publish; others' ids are accepted within these bounds. */
const EVENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type EventHandler<M extends TopicMap = PlatformTopics, T extends TopicOf<M> = TopicOf<M>> = (
  event: EventOf<M, T>,
) => Promise<void>;

/** Remembers which event ids a consumer group has handled (MongoDB in services). */
export interface ProcessedEvents {
  has(eventId: string): Promise<boolean>;
  add(eventId: string): Promise<void>;
}

export interface ConsumerOptions<M extends TopicMap = PlatformTopics, T extends TopicOf<M> = TopicOf<M>> {
  groupId: string;
  topics: readonly T[];
  handler: EventHandler<M, T>;
  processed: ProcessedEvents;
  /** Attempts for an error that is neither marked retriable nor permanent (a bug, say). */
  unknownErrorAttempts?: number;
  /** Backoff between attempts of a retriable failure, doubled up to the maximum. */
  retryBackoffMs?: { initial: number; max: number };
  fromBeginning?: boolean;
  /** Partitions handled at the same time (each in order); 3 by default. */
  partitionsConcurrently?: number;
  /** Told the outcome of every message (for metrics); a dead letter's with its error code. */
  onOutcome?: (outcome: ConsumeOutcome, topic: string, code?: string) => void;
  /** Where a message retried in place is reported while it waits (alarm, metric, readiness). */
  holds?: HoldWatch;
  /** Session timeout, heartbeats and rebalance timeout of the group (DEFAULT_GROUP_TIMINGS if not given). */
  groupTimings?: GroupTimings;
}

/** Where a message is: what a hold names. */
interface MessagePlace {
  topic: string;
  partition: number;
  offset: string;
  eventId: string | undefined;
}

export type ConsumeOutcome = 'handled' | 'duplicate' | 'dead_lettered';

/**
 * The one consumer loop every service uses. For each message, in order within its partition:
 * skip it if its event id was already handled; check that its event type is one the catalog
 * declares for the topic; decode it through the registry and validate it against the topic's
 * schema (which gives it the topic's type in M); run the handler in the producer's trace context;
 * remember the event id; then commit the offset. Nothing is committed before it is handled. A
 * retriable failure is retried with backoff without committing (the partition waits, order is
 * kept); a message that can never be handled (no event id, undeclared event type, undecodable, invalid, permanent handler
 * error) goes to `<topic>.dlt` with the reason in its headers, and the consumer moves on.
 *
 * M says what the topics carry (the platform's topics by default; the catalog given must be the one
 * M describes), T which of them this consumer reads: its handler receives `EventOf<M, T>`.
 */
export class EventConsumer<M extends TopicMap = PlatformTopics, T extends TopicOf<M> = TopicOf<M>> {
  private readonly consumer: Consumer;
  private stopping = false;
  /** Ends the retry waits in progress (one per partition at most), so a stop sits out no backoff. */
  private readonly wakers = new Set<() => void>();
  private readonly log: Logger;
  private readonly decoder: EventDecoder<M>;
  private readonly subscribed: ReadonlySet<string>;
  private readonly timings: GroupTimings;

  constructor(
    private readonly kafka: Kafka,
    private readonly catalog: TopicCatalog,
    schemas: EventSchemas,
    validator: SchemaValidator,
    private readonly deadLetters: Producer,
    private readonly options: ConsumerOptions<M, T>,
    logger: Logger,
  ) {
    this.decoder = new EventDecoder<M>(schemas, validator);
    this.subscribed = new Set<string>(options.topics);
    this.timings = options.groupTimings ?? DEFAULT_GROUP_TIMINGS;
    // A short fetch wait keeps a graceful stop short: disconnect waits for the fetch in flight.
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      ...consumerGroupConfig(this.timings),
      maxWaitTimeInMs: 1000,
    });
    this.log = logger.child({ consumerGroup: options.groupId });
  }

  async start(): Promise<void> {
    // A new group reading new messages only starts where the topic is when it joins: wait for the
    // join, so that what is published after start() returned is seen.
    const joined = this.options.fromBeginning === false ? this.joined(30_000) : undefined;
    await this.consumer.connect();
    for (const topic of this.options.topics)
      await subscribeWhenReady(this.consumer, topic, this.options.fromBeginning ?? true);
    // kafkajs resolves a message's offset only once eachMessage has returned, and commits resolved
    // offsets every second or 100 messages: nothing is committed before it is handled, and a crash
    // redelivers at most that much, which the dedupe absorbs. The partitions of one fetch run side
    // by side, each in order; but kafkajs fetches again from a broker only once every batch of the
    // last fetch is done, so a message retried in place holds up the partitions led by the same
    // broker. In-place retries are for failures that would hit every message (a database away);
    // per-message delays (a partner's endpoint failing) belong on retry topics.
    await this.consumer.run({
      autoCommit: true,
      autoCommitInterval: 1000,
      autoCommitThreshold: 100,
      partitionsConsumedConcurrently: this.options.partitionsConcurrently ?? 3,
      eachMessage: (payload) => this.handleMessage(payload),
    });
    await joined;
    if (this.options.fromBeginning === false)
      await this.pinStart().catch((error) =>
        this.log.warn({ err: error }, 'could not record where the new consumer group starts'),
      );
  }

  /**
   * A group that starts with new messages only starts there once: the partitions it has never
   * committed get their current end committed now, so that a restart resumes from here instead
   * of jumping to the end again (and skipping what was published while it was down).
   */
  private async pinStart(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      for (const topic of this.options.topics) {
        const [groups, ends] = await Promise.all([
          admin.fetchOffsets({ groupId: this.options.groupId, topics: [topic] }),
          admin.fetchTopicOffsets(topic),
        ]);
        const committed = new Map((groups[0]?.partitions ?? []).map((p) => [p.partition, p.offset]));
        const missing = ends.filter((end) => (committed.get(end.partition) ?? '-1') === '-1');
        if (missing.length > 0)
          await this.consumer.commitOffsets(
            missing.map((end) => ({ topic, partition: end.partition, offset: end.high })),
          );
      }
    } finally {
      await admin.disconnect();
    }
  }

  private joined(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn({ timeoutMs }, 'consumer group not joined yet; going on');
        resolve();
      }, timeoutMs);
      const remove = this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
        clearTimeout(timer);
        remove();
        resolve();
      });
    });
  }

  /** Finishes the message in hand (or abandons its retry wait, uncommitted) and leaves the group. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.wakers) wake();
    await this.consumer.disconnect();
  }

  /** Resolves once the consumer has joined its group and been given partitions. */
  onceJoined(timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out after ${timeoutMs} ms waiting for group ${this.options.groupId} to join`)),
        timeoutMs,
      );
      const remove = this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
        clearTimeout(timer);
        remove();
        resolve();
      });
    });
  }

  private async handleMessage(payload: EachMessagePayload): Promise<void> {
    const { topic, partition } = payload;
    // kafkajs heartbeats between messages only: a message in hand for longer than the session
    // timeout (a slow partner, a retry in place) would cost the member its partitions, and the
    // partitions their consumer until the next rebalance. Heartbeat while it is in hand. (A failed
    // heartbeat, a rebalance under way, is kafkajs's to act on after the message: it sees it too.)
    const beating = setInterval(
      () => void payload.heartbeat().catch(() => undefined),
      this.timings.heartbeatIntervalMs,
    );
    try {
      await this.handleOne(payload);
    } finally {
      clearInterval(beating);
      // Handled, dead-lettered or abandoned: whatever held this partition is over.
      this.options.holds?.release(this.holdKey(topic, partition));
    }
  }

  private holdKey(topic: string, partition: number): string {
    return `${this.options.groupId}:${topic}:${partition}`;
  }

  private async handleOne({ topic, partition, message }: EachMessagePayload): Promise<void> {
    const eventId = headerText(message.headers, HEADER.eventId);
    const place: MessagePlace = { topic, partition, offset: message.offset, eventId };
    const type = headerText(message.headers, HEADER.eventType);
    const traceContext = extractTraceContext(message.headers);
    const log = this.log.child({
      topic,
      partition,
      offset: message.offset,
      eventId,
      eventType: type ?? 'unknown',
      traceId: trace.getSpanContext(traceContext)?.traceId,
    });
    try {
      if (!eventId) throw new DeadLetter('the message has no event-id header', 'event.missing_id');
      if (!EVENT_ID.test(eventId))
        throw new DeadLetter('the event-id header is not 1 to 128 letters, digits or ._:-', 'event.invalid_id');
      if (await this.withRetries(log, place, () => this.options.processed.has(eventId))) {
        log.debug('duplicate event skipped');
        this.options.onOutcome?.('duplicate', topic);
      } else {
        if (!this.isSubscribed(topic))
          throw new DeadLetter(`${topic} is not a topic of this consumer`, 'event.unknown_topic');
        const event = await this.read(topic, partition, message, eventId, type, log);
        await context.with(traceContext, () => this.withRetries(log, place, () => this.options.handler(event)));
        this.options.onOutcome?.('handled', topic);
        // Handled: whatever happens to the bookkeeping now, this message is not a dead letter.
        await this.remember(eventId, log, place);
      }
    } catch (error) {
      if (this.stopping && !isPermanent(error)) {
        // Not handled: throwing keeps its offset unresolved, so it is never committed and the next
        // consumer of this partition gets it again (a KafkaJSError, which kafkajs does not log).
        log.info('consumer stopping; message left uncommitted');
        throw new KafkaJSError(STOPPING_MESSAGE, { retriable: false });
      }
      const dead = toDeadLetter(error);
      const letter = deadLetterMessage({ topic, partition, groupId: this.options.groupId, message }, dead);
      await this.withRetries(log, place, () =>
        this.deadLetters.send({ topic: this.catalog.deadLetterTopicOf(topic), acks: -1, messages: [letter] }),
      );
      log.warn({ reason: dead.reason, errorCode: dead.code }, 'event sent to the dead-letter topic');
      this.options.onOutcome?.('dead_lettered', topic, dead.code);
      if (eventId && EVENT_ID.test(eventId)) await this.remember(eventId, log, place);
    }
  }

  /** Records a handled (or dead-lettered) event id; a failure only costs a possible redelivery. */
  private async remember(eventId: string, log: Logger, place: MessagePlace): Promise<void> {
    try {
      await this.withRetries(log, place, () => this.options.processed.add(eventId));
    } catch (error) {
      log.warn({ err: error }, 'could not record the event id; a redelivery would be handled again');
    }
  }

  private isSubscribed(topic: string): topic is T {
    return this.subscribed.has(topic);
  }

  /** Whether the catalog declares this event type for the topic (as the publisher requires). */
  private declares<K extends T>(topic: K, type: string | undefined): type is M[K]['type'] {
    return type !== undefined && this.catalog.get(topic).eventTypes.includes(type);
  }

  /** The event a handler receives: its type checked against the catalog, its value against the topic's schema. */
  private async read<K extends T>(
    topic: K,
    partition: number,
    message: KafkaMessage,
    eventId: string,
    type: string | undefined,
    log: Logger,
  ): Promise<EventOf<M, K>> {
    if (!this.declares(topic, type))
      throw new DeadLetter(
        `the event type ${type ?? '(none)'} is not declared for ${topic} in the topic catalog`,
        'event.unknown_type',
      );
    const data = await this.decoder.decode(topic, message.value);
    const event: ConsumedEvent<M[K]['data'], K, M[K]['type']> = {
      topic,
      partition,
      offset: message.offset,
      key: message.key?.toString('utf8') ?? null,
      eventId,
      type,
      occurredAt: headerText(message.headers, HEADER.occurredAt),
      data,
      headers: message.headers ?? {},
      log,
    };
    return event;
  }

  /** Retries retriable failures with backoff for as long as the consumer runs; an unknown error a
   * few times; a permanent error (AppError that is not retriable, or DeadLetter) not at all. */
  private async withRetries<T>(log: Logger, place: MessagePlace, operation: () => Promise<T>): Promise<T> {
    const { initial, max } = this.options.retryBackoffMs ?? { initial: 200, max: 30_000 };
    const unknownAttempts = this.options.unknownErrorAttempts ?? 3;
    let delay = initial;
    for (let attempt = 1; ; attempt++) {
      try {
        return await operation();
      } catch (error) {
        if (!shouldRetry(error, attempt, unknownAttempts) || this.stopping) throw error;
        // The partition waits on this message: said once here, then by the hold watch (an error
        // log, a metric and a degraded readiness check) if it waits too long.
        this.options.holds?.hold(this.holdKey(place.topic, place.partition), {
          group: this.options.groupId,
          ...place,
          ...holdCauseOf(error),
        });
        if (attempt === 1) log.warn({ err: error, attempt, retryInMs: delay }, 'event handling failed; retrying');
        else log.debug({ err: error, attempt, retryInMs: delay }, 'event handling failed again; retrying');
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.wakers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, delay);
          this.wakers.add(wake);
        });
        if (this.stopping) throw error;
        delay = nextBackoff(delay, max);
      }
    }
  }
}

/**
 * Subscribes, waiting out a topic that another process has just created: its partitions may not
 * be known to the broker's metadata yet ("does not host this topic-partition"), which kafkajs
 * reports at once instead of retrying.
 */
export async function subscribeWhenReady(
  consumer: Consumer,
  topic: string,
  fromBeginning: boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    try {
      await consumer.subscribe({ topic, fromBeginning });
      return;
    } catch (error) {
      const retriable =
        (error as { retriable?: boolean }).retriable === true ||
        (error as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION';
      if (!retriable || Date.now() + delay > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
