import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { createAjv } from './validation';
import type { TopicCatalog } from './catalog';
import { registryAuthorization, type RegistryConnection } from './registry-connection';

/**
 * Values are encoded in the Confluent wire format (magic byte, 4-byte schema id, JSON) through a
 * Confluent-compatible registry; each topic's schema is registered under the subject
 * `<topic>-value` (TopicNameStrategy), so any Confluent-aware consumer can read our topics.
 */
export class EventSchemas {
  private registry: SchemaRegistry;
  private readonly ids = new Map<string, number>();
  private readonly url: string;
  private readonly authorization: string | undefined;

  /** `connection` is the registry's URL alone, or with its credentials. */
  constructor(
    connection: RegistryConnection | string,
    private readonly catalog: TopicCatalog,
  ) {
    const { url, ...rest } = typeof connection === 'string' ? { url: connection } : connection;
    this.url = url;
    this.authorization = registryAuthorization({ url, ...rest });
    this.registry = this.client();
  }

  private client(): SchemaRegistry {
    const authorization = this.authorization;
    // Basic and bearer alike go as one header on every request the library makes (a mappersmith middleware).
    const middlewares = authorization
      ? [
          () => ({
            request: (request: { enhance(o: object): unknown }) => request.enhance({ headers: { authorization } }),
          }),
        ]
      : [];
    return new SchemaRegistry(
      {
        host: this.url,
        retry: { retries: 2, initialRetryTimeInSecs: 0.2, maxRetryTimeInSecs: 2 },
        middlewares: middlewares as never,
      },
      // The library validates with ajv too (on encode against the registered schema, on decode
      // against the writer's schema); give it the same formats as ours. Each schema version gets
      // its own ajv: versions of one schema share its `$id`, and one ajv refuses a second schema
      // under an `$id` it holds, so reading a message of version 1 and writing version 2 (a
      // topic whose schema grew, read from the beginning) would fail. The library caches the
      // compiled validator per schema id, so this runs once per version.
      { [SchemaType.JSON]: { ajvInstance: { compile: (schema: object) => createAjv().compile(schema) } as never } },
    );
  }

  static subjectOf(topic: string): string {
    return `${topic}-value`;
  }

  /** Registers (or finds) the schema of each topic; safe to repeat, the registry dedupes. */
  async register(topics: readonly string[]): Promise<void> {
    for (const topic of topics) {
      if (this.ids.has(topic)) continue;
      const schema = JSON.stringify(this.catalog.get(topic).schema);
      try {
        const { id } = await this.registry.register(
          { type: SchemaType.JSON, schema },
          { subject: EventSchemas.subjectOf(topic) },
        );
        this.ids.set(topic, id);
      } catch (error) {
        // The library compiles the schema into its ajv (keyed by $id) before the registry
        // answers; after a failed answer, a retry on the same client would fail for good with
        // "schema ... already exists". Start the retry on a fresh client.
        this.registry = this.client();
        this.ids.clear();
        throw error;
      }
    }
  }

  async encode(topic: string, value: unknown): Promise<Buffer> {
    await this.register([topic]);
    return this.registry.encode(this.ids.get(topic)!, value);
  }

  decode(buffer: Buffer): Promise<unknown> {
    return this.registry.decode(buffer);
  }

  /**
   * Readiness: the registry answers its global configuration (a few bytes, where the subjects
   * listing grows with every topic). The body is always read: an unread body keeps its
   * connection from going back to the pool, so each probe would hold one more socket.
   */
  async ping(timeoutMs = 2000): Promise<void> {
    const res = await fetch(`${this.url.replace(/\/$/, '')}/config`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: this.authorization ? { authorization: this.authorization } : {},
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`schema registry answered ${res.status}`);
  }
}
