import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The topic catalog: every topic the platform owns, its partitions, retention, schema and meaning,
 * declared once in `schemas/topics.json`. Topic creation, schema registration and validation all
 * read it, and it is the index that outside consumers read.
 */
export interface TopicSpec {
  name: string;
  partitions: number;
  retentionMs: number;
  /** JSON Schema of the message value. */
  schema: Record<string, unknown>;
  /** Values allowed in the event-type header. */
  eventTypes: string[];
  /** What the message key is (for example "orderId"), for readers. */
  key: string;
  description: string;
}

export interface TopicCatalog {
  topics: Map<string, TopicSpec>;
  deadLetter: { suffix: string; partitions: number; retentionMs: number };
  get(name: string): TopicSpec;
  deadLetterTopicOf(name: string): string;
}

interface CatalogFile {
  defaults: { partitions: number; retentionMs: number };
  deadLetter: { suffix: string; partitions: number; retentionMs: number };
  topics: Record<
    string,
    {
      schema: string;
      eventTypes: string[];
      key: string;
      description: string;
      partitions?: number;
      retentionMs?: number;
    }
  >;
}

/** The repository's `schemas/` folder, found from the working directory or from this file. */
export function defaultSchemasDir(): string {
  return process.env.SCHEMAS_DIR ?? resolve(__dirname, '../../../schemas');
}

export function loadTopicCatalog(dir = defaultSchemasDir(), file = 'topics.json'): TopicCatalog {
  const raw = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CatalogFile;
  const topics = new Map<string, TopicSpec>();
  for (const [name, entry] of Object.entries(raw.topics)) {
    topics.set(name, {
      name,
      partitions: entry.partitions ?? raw.defaults.partitions,
      retentionMs: entry.retentionMs ?? raw.defaults.retentionMs,
      schema: JSON.parse(readFileSync(join(dir, entry.schema), 'utf8')) as Record<string, unknown>,
      eventTypes: entry.eventTypes,
      key: entry.key,
      description: entry.description,
    });
  }
  return createTopicCatalog(topics, raw.deadLetter);
}

export function createTopicCatalog(
  topics: Map<string, TopicSpec>,
  deadLetter: TopicCatalog['deadLetter'],
): TopicCatalog {
  return {
    topics,
    deadLetter,
    get(name) {
      const spec = topics.get(name);
      if (!spec) throw new Error(`topic ${name} is not in the topic catalog`);
      return spec;
    },
    deadLetterTopicOf: (name) => `${name}${deadLetter.suffix}`,
  };
}
