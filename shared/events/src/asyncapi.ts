import { HEADER } from './headers';
import type { TopicCatalog } from './catalog';

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
    const channelMessages: Record<string, unknown> = {};
    for (const type of topic.eventTypes) {
      const id = `${topic.name}.${type}`;
      messages[id] = {
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
      channelMessages[type] = { $ref: `#/components/messages/${id}` };
    }
    channels[topic.name] = {
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
    operations[`${topic.name}.publish`] = {
      action: 'send',
      channel: { $ref: `#/channels/${topic.name}` },
      summary: `The platform publishes on ${topic.name}.`,
      messages: Object.keys(channelMessages).map((type) => ({ $ref: `#/channels/${topic.name}/messages/${type}` })),
    };
  }
  const { suffix, partitions, retentionMs } = catalog.deadLetter;
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Marketplace platform topics',
      version: '1.0.0',
      description:
        'The Kafka topics of the marketplace platform, generated from schemas/ (`npm run docs:export`). Values are JSON ' +
        "in the schema registry's wire format (a magic byte 0 and a 4-byte schema id, then the JSON). Every topic has " +
        `a dead-letter topic \`<topic>${suffix}\` (${partitions} partition, kept ${Math.round(retentionMs / 86_400_000)} days) ` +
        'carrying a message its consumer could not handle, with `dlt-*` headers saying why. Delivery is at least once: ' +
        'deduplicate by the `event-id` header.',
    },
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
