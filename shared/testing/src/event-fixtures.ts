import {
  EventPublisher,
  EventSchemas,
  SchemaValidator,
  createKafka,
  createTopicCatalog,
  type AnyTopics,
  type TopicCatalog,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
} from '@marketplace/events';
import type { Logger } from '@marketplace/logging';
import { stackEnv } from './stack';
import { uniqueName } from './wait';

/** A small schema used by the infrastructure tests: an order-ish event with a uuid and money. */
export const testEventSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Test order event',
  type: 'object',
  additionalProperties: false,
  required: ['orderId', 'status', 'totalMinor'],
  properties: {
    orderId: { type: 'string', format: 'uuid' },
    status: { type: 'integer', minimum: 1, maximum: 8 },
    totalMinor: { type: 'integer', minimum: 0 },
    note: { type: ['string', 'null'], maxLength: 200 },
  },
};

/** A catalog with one uniquely named topic (and its dead-letter topic), isolated per test file. */
export function testCatalog(prefix = 'it'): { catalog: TopicCatalog; topic: string } {
  const topic = uniqueName(`${prefix}.orders`);
  const catalog = createTopicCatalog(
    new Map([
      [
        topic,
        {
          name: topic,
          partitions: 3,
          retentionMs: 3_600_000,
          schema: testEventSchema,
          eventTypes: ['test.order.created', 'test.order.cancelled'],
          key: 'orderId',
          description: 'test',
        },
      ],
    ]),
    { suffix: '.dlt', partitions: 1, retentionMs: 3_600_000 },
  );
  return { catalog, topic };
}

/** Everything an events test needs around one fresh topic: Kafka client, registry serde, publisher. */
export function testEvents(prefix: string, logger: Logger) {
  const env = stackEnv();
  const { catalog, topic } = testCatalog(prefix);
  const kafka = createKafka({ connection: kafkaConnectionFromEnv(env), clientId: `${prefix}-it`, logger });
  const schemas = new EventSchemas(registryConnectionFromEnv(env), catalog);
  const validator = new SchemaValidator([[topic, catalog.get(topic).schema]]);
  const publisher = new EventPublisher<AnyTopics>(kafka, catalog, schemas, validator, `${prefix}-it`); // the test topic: values unknown to the compiler
  return { env, catalog, topic, kafka, schemas, validator, publisher };
}
