import { HEADER } from './headers';
import type { TopicCatalog, TopicSpec } from './catalog';

/**
 * The platform's Kafka topics as an AsyncAPI 3.0 document, built from schemas/ (the topic catalog
 * and each topic's JSON Schema), for the teams that read our topics: one channel per topic (its
 * partitions and retention as Kafka bindings), one message per event type with the headers every
 * message carries and the key, and the topic's schema as the payload. The value on the wire is the
 * schema registry's framing (a magic byte and the schema id) around the JSON: a registry-aware
 * deserializer, or the 5 bytes skipped, gives the payload described here.
 */
export function asyncApiDocument(catalog: TopicCatalog): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const topic of [...catalog.topics.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    schemas[topic.name] = { schemaFormat: 'application/schema+json;version=draft-07', schema: topic.schema };
    Object.assign(messages, messagesOf(topic));
    const channelMessages = Object.fromEntries(
      topic.eventTypes.map((type) => [type, { $ref: `#/components/messages/${topic.name}.${type}` }]),
    );
    channels[topic.name] = channelOf(topic, channelMessages);
    operations[`${topic.name}.publish`] = publishOperationOf(topic, Object.keys(channelMessages));
  }
  return {
    asyncapi: '3.0.0',
    info: infoOf(catalog.deadLetter),
    defaultContentType: 'application/json',
    servers: {
      cluster: {
        host: '{brokers}',
        protocol: 'kafka',
        description: "The deployment's brokers (KAFKA_BROKERS).",
        variables: { brokers: { default: '127.0.0.1:19092', description: 'A broker, host:port.' } },
      },
    },
    channels,
    operations,
    components: { schemas, messages },
  };
}

/** The document's info: what the topics are, their wire format, the dead-letter topics, dedupe. */
function infoOf({ suffix, partitions, retentionMs }: TopicCatalog['deadLetter']): Record<string, unknown> {
  return {
    title: 'Marketplace platform topics',
    version: '1.0.0',
    description:
      'The Kafka topics of the marketplace platform, generated from schemas/ (`npm run docs:export`). Values are JSON ' +
      "in the schema registry's wire format (a magic byte 0 and a 4-byte schema id, then the JSON). Every topic has " +
      `a dead-letter topic \`<topic>${suffix}\` (${partitions} partition, kept ${Math.round(retentionMs / 86_400_000)} days) ` +
      'carrying a message its consumer could not handle, with `dlt-*` headers saying why. Delivery is at least once: ' +
      'deduplicate by the `event-id` header.',
  };
}

/** The topic's channel: its address, its messages (references) and its Kafka bindings. */
function channelOf(topic: TopicSpec, channelMessages: Record<string, unknown>): Record<string, unknown> {
  return {
    address: topic.name,
    description: topic.description,
    messages: channelMessages,
    bindings: {
      kafka: {
        topic: topic.name,
        partitions: topic.partitions,
        topicConfiguration: { 'retention.ms': topic.retentionMs },
        bindingVersion: '0.5.0',
      },
    },
  };
}

/** The platform's one operation on a topic: it publishes every event type of it. */
function publishOperationOf(topic: TopicSpec, types: string[]): Record<string, unknown> {
  return {
    action: 'send',
    channel: { $ref: `#/channels/${topic.name}` },
    summary: `The platform publishes on ${topic.name}.`,
    messages: types.map((type) => ({ $ref: `#/channels/${topic.name}/messages/${type}` })),
  };
}

/** One component message per event type of the topic (`<topic>.<type>`): headers, key, payload schema. */
function messagesOf(topic: TopicSpec): Record<string, unknown> {
  const messages: Record<string, unknown> = {};
  for (const type of topic.eventTypes) {
    messages[`${topic.name}.${type}`] = {
      name: type,
      title: `${type} on ${topic.name}`,
      contentType: 'application/json',
      headers: headersOf(type),
      payload: { $ref: `#/components/schemas/${topic.name}` },
      bindings: {
        kafka: {
          key: { type: 'string', description: `The message key: ${topic.key}.` },
          bindingVersion: '0.5.0',
        },
      },
    };
  }
  return messages;
}

function headersOf(type: string): Record<string, unknown> {
  const text = (description: string) => ({ type: 'string', description });
  return {
    type: 'object',
    required: [HEADER.eventId, HEADER.eventType, HEADER.occurredAt, HEADER.producer],
    properties: {
      [HEADER.eventId]: text('The event id (a UUID): the same on every copy of the event; deduplicate by it.'),
      [HEADER.eventType]: { type: 'string', const: type, description: 'The event type.' },
      [HEADER.occurredAt]: text('When it happened (ISO 8601).'),
      [HEADER.producer]: text('The service that published it.'),
      [HEADER.traceparent]: text('W3C trace context, when the event was published within a trace.'),
      [HEADER.tracestate]: text('W3C trace state, with traceparent.'),
    },
  };
}
