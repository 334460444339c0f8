import { randomUUID } from 'node:crypto';
import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import { context } from '@opentelemetry/api';
import { AppError } from '@marketplace/errors';
import type { TopicCatalog } from './catalog';
import { HEADER, injectTraceContext, storedTraceContext } from './headers';
import type { EventSchemas } from './registry';
import type { PlatformTopics, TopicMap, TopicOf } from './topics';
import type { SchemaValidator } from './validation';

/**
 * An event to publish, whatever the compiler knows of it: `data` is checked against the topic's
 * schema at run time, before it is sent. `eventId` and `occurredAt` are fixed by the caller when it
 * must be stable (the outbox assigns them when the state change is written, so a republish keeps
 * them).
 */
export interface StoredEvent<Topic extends string = string, Type extends string = string, T = unknown> {
  topic: Topic;
  key: string;
  type: Type;
  data: T;
  eventId?: string;
  occurredAt?: string;
  /** W3C trace headers captured when the event was staged; the active context otherwise. */
  trace?: Record<string, string>;
}

/**
 * An event built in code for one of the topics T: its type must be one the topic declares and its
 * data the topic's type, so a producer that drifts from the schema does not compile. One member
 * per topic (told apart by `topic`), e.g. `OutgoingEvent<PlatformTopics, 'orders'>` for an order
 * event.
 */
export type OutgoingEvent<M extends TopicMap = PlatformTopics, T extends TopicOf<M> = TopicOf<M>> = {
  [K in T]: StoredEvent<K, M[K]['type'], M[K]['data']>;
}[T];

export interface PublishedEvent {
  topic: string;
  eventId: string;
}

/**
 * Validates each event against its topic's schema, encodes it through the registry and sends it
 * with acks from all in-sync replicas, one request in flight per broker. M says what the topics
 * carry (the platform's topics by default).
 *
 * Not kafkajs's idempotent producer: its sequence numbers are taken per request and given back when
 * a request fails, so two sends to one partition while its leader moves (an outbox flush retrying
 * in the background, the next flush of the same document) can leave a later request with a
 * sequence the broker already holds; the broker answers "duplicate", kafkajs reports success, and
 * nothing was written. The fault proof on three brokers (one killed) saw an order's
 * orders.cancelled reach the topic before its orders.created that way (tulios/kafkajs#598 is the
 * same family). Without it a retry may write an event twice, which every consumer already takes
 * (each dedupes by event id or is idempotent by design), and a send reports success only once the
 * broker has the messages: the outbox's order (a document's pending events in one call, in order)
 * then holds on the topic.
 */
export class EventPublisher<M extends TopicMap = PlatformTopics> {
  private readonly producer: Producer;
  private connected = false;

  constructor(
    kafka: Kafka,
    private readonly catalog: TopicCatalog,
    private readonly schemas: EventSchemas,
    private readonly validator: SchemaValidator,
    private readonly producerName: string,
  ) {
    // The default (murmur2) partitioner places a key where Java clients would.
    this.producer = kafka.producer({
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  async connect(): Promise<void> {
    await this.producer.connect();
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    if (!this.connected) return;
    this.connected = false;
    await this.producer.disconnect();
  }

  /** Publishes events built in code: each one's data is of its topic's type. */
  publish(events: readonly OutgoingEvent<M>[]): Promise<PublishedEvent[]> {
    return this.publishStored(events);
  }

  /**
   * Publishes events read back from storage (the outbox): typed when they were staged, of unknown
   * shape once read back. They get the checks every event gets here (a declared event type, data
   * matching the topic's schema); one that fails them is refused, not sent.
   */
  async publishStored(events: readonly StoredEvent[]): Promise<PublishedEvent[]> {
    const published: PublishedEvent[] = [];
    // kafkajs's instrumentation parents every producer span of a send on the active context, and
    // writes that span's trace into the headers: each run of events staged in one trace is sent in
    // that trace's context, one run after the other (the order of a document's events is kept).
    // Events published as they are built (no `trace`) are one run in the active context.
    for (const run of runsByTrace(events)) {
      published.push(...(await context.with(storedTraceContext(run[0]!.trace), () => this.send(run))));
    }
    return published;
  }

  private async send(events: readonly StoredEvent[]): Promise<PublishedEvent[]> {
    const byTopic = new Map<string, { key: string; value: Buffer; headers: Record<string, string> }[]>();
    const published: PublishedEvent[] = [];
    for (const event of events) {
      const message = await this.encode(event);
      const list = byTopic.get(event.topic) ?? [];
      list.push(message);
      byTopic.set(event.topic, list);
      published.push({ topic: event.topic, eventId: message.headers[HEADER.eventId]! });
    }
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
    return published;
  }

  private async encode(event: StoredEvent) {
    const spec = this.catalog.get(event.topic);
    if (!spec.eventTypes.includes(event.type)) {
      throw new AppError(
        'internal',
        'event.unknown_type',
        `event type ${event.type} is not declared for topic ${event.topic}`,
      );
    }
    const problems = this.validator.problems(event.topic, event.data);
    if (problems.length > 0) {
      throw new AppError(
        'internal',
        'event.schema_violation',
        `event ${event.type} does not match the schema of ${event.topic}: ${problems.join('; ')}`,
      );
    }
    const headers: Record<string, string> = {
      [HEADER.eventId]: event.eventId ?? randomUUID(),
      [HEADER.eventType]: event.type,
      [HEADER.occurredAt]: event.occurredAt ?? new Date().toISOString(),
      [HEADER.producer]: this.producerName,
    };
    if (event.trace) {
      for (const name of [HEADER.traceparent, HEADER.tracestate])
        if (event.trace[name]) headers[name] = event.trace[name];
    } else {
      injectTraceContext(headers);
    }
    return { key: event.key, value: await this.schemas.encode(event.topic, event.data), headers };
  }
}

/** Consecutive events staged in the same trace (the same traceparent, or none), in their order. */
function runsByTrace(events: readonly StoredEvent[]): StoredEvent[][] {
  const runs: StoredEvent[][] = [];
  let last: string | undefined;
  for (const event of events) {
    const parent = event.trace?.[HEADER.traceparent] ?? '';
    if (runs.length === 0 || parent !== last) runs.push([]);
    runs.at(-1)!.push(event);
    last = parent;
  }
  return runs;
}
