import { randomUUID } from 'node:crypto';
import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import { AppError } from '@marketplace/errors';
import type { TopicCatalog } from './catalog';
import { HEADER, injectTraceContext } from './headers';
import type { EventSchemas } from './registry';
import type { SchemaValidator } from './validation';

/** An event to publish. `eventId` and `occurredAt` are fixed by the caller when it must be stable
 * (the outbox assigns them when the state change is written, so a republish keeps them). */
export interface OutgoingEvent<T = unknown> {
  topic: string;
  key: string;
  type: string;
  data: T;
  eventId?: string;
  occurredAt?: string;
  /** W3C trace headers captured when the event was staged; the active context otherwise. */
  trace?: Record<string, string>;
}

export interface PublishedEvent {
  topic: string;
  eventId: string;
}

/**
 * Validates each event against its topic's schema, encodes it through the registry and sends it
 * with acks from all in-sync replicas and the idempotent producer (no duplicates from retries).
 */
export class EventPublisher {
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
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
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

  async publish(events: OutgoingEvent[]): Promise<PublishedEvent[]> {
    const byTopic = new Map<string, { key: string; value: Buffer; headers: Record<string, string> }[]>();
    const published: PublishedEvent[] = [];
    for (const event of events) {
      const message = await this.encode(event);
      const list = byTopic.get(event.topic) ?? [];
      list.push(message);
      byTopic.set(event.topic, list);
      published.push({ topic: event.topic, eventId: message.headers[HEADER.eventId]! });
    }
    await this.producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    return published;
  }

  private async encode(event: OutgoingEvent) {
    const spec = this.catalog.get(event.topic);
    if (!spec.eventTypes.includes(event.type)) {
      throw new AppError('internal', 'event.unknown_type', `event type ${event.type} is not declared for topic ${event.topic}`);
    }
    const problems = this.validator.problems(event.topic, event.data);
    if (problems.length > 0) {
      throw new AppError('internal', 'event.schema_violation', `event ${event.type} does not match the schema of ${event.topic}: ${problems.join('; ')}`);
    }
    const headers: Record<string, string> = {
      [HEADER.eventId]: event.eventId ?? randomUUID(),
      [HEADER.eventType]: event.type,
      [HEADER.occurredAt]: event.occurredAt ?? new Date().toISOString(),
      [HEADER.producer]: this.producerName,
    };
    if (event.trace) {
      for (const name of [HEADER.traceparent, HEADER.tracestate]) if (event.trace[name]) headers[name] = event.trace[name];
    } else {
      injectTraceContext(headers);
    }
    return { key: event.key, value: await this.schemas.encode(event.topic, event.data), headers };
  }
}
