import { DeadLetter, decodeFailure, isWireFormat } from './failure';
import type { EventSchemas } from './registry';
import type { PlatformTopics, TopicMap, TopicOf } from './topics';
import type { SchemaValidator } from './validation';

/**
 * Reads message values: decodes them through the registry and checks them against their topic's
 * schema, which is what gives them their topic's type. Every consumer reads through one (the
 * shared consumer loop, and loops of their own such as the webhook sender's attempt queue).
 */
export class EventDecoder<M extends TopicMap = PlatformTopics> {
  constructor(
    private readonly schemas: EventSchemas,
    private readonly validator: SchemaValidator,
  ) {}

  /**
   * The value of a message of `topic`. Throws a DeadLetter for a value that can never be read (not
   * in the wire format, undecodable, not matching the topic's schema), and the registry's error
   * when reading may succeed later (the registry unreachable).
   */
  async decode<K extends TopicOf<M>>(topic: K, value: Buffer | null): Promise<M[K]['data']> {
    if (!isWireFormat(value))
      throw new DeadLetter('the value is not in the schema-registry wire format', 'event.not_wire_format');
    let data: unknown;
    try {
      data = await this.schemas.decode(value);
    } catch (error) {
      const failure = decodeFailure(error);
      throw failure === 'retry' ? error : failure;
    }
    const problems = this.validator.problems(topic, data);
    if (problems.length > 0)
      throw new DeadLetter(
        `the value does not match the schema of ${topic}: ${problems.join('; ')}`,
        'event.schema_violation',
      );
    // The one place where a value read from Kafka gets a type, and why that is sound: it was just
    // validated against the schema of its topic in the catalog, and the topic's type in M was
    // generated from that very schema (PlatformTopics: `npm run contracts:generate` from
    // schemas/, which `loadTopicCatalog()` reads; `npm run contracts:check` fails when the two
    // differ). A map other than PlatformTopics must be built the same way, or use `unknown`
    // (AnyTopics).
    return data;
  }
}
