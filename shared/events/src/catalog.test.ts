import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSchemasDir, loadTopicCatalog } from './catalog';
import { SchemaValidator } from './validation';

describe('the topic catalog', () => {
  it("loads the repository's topics.json, every topic with a schema that compiles", () => {
    const catalog = loadTopicCatalog(defaultSchemasDir());
    expect(catalog.deadLetter.suffix).toBe('.dlt');
    expect(() => new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema]))).not.toThrow();
    for (const spec of catalog.topics.values()) {
      expect(spec.schema.$schema).toMatch(/json-schema\.org/); // Apicurio recognises JSON Schema by it
      expect(spec.eventTypes.length).toBeGreaterThan(0);
    }
  });

  it('applies defaults and per-topic overrides, and names dead-letter topics', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    writeFileSync(
      join(dir, 'a.schema.json'),
      JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }),
    );
    writeFileSync(
      join(dir, 'topics.json'),
      JSON.stringify({
        defaults: { partitions: 6, retentionMs: 1000 },
        deadLetter: { suffix: '.dlt', partitions: 1, retentionMs: 2000 },
        topics: {
          a: { schema: 'a.schema.json', key: 'id', eventTypes: ['a.created'], description: 'A', partitions: 12 },
          b: { schema: 'a.schema.json', key: 'id', eventTypes: ['b.created'], description: 'B' },
        },
      }),
    );
    const catalog = loadTopicCatalog(dir);
    expect(catalog.get('a')).toMatchObject({ partitions: 12, retentionMs: 1000, key: 'id' });
    expect(catalog.get('b')).toMatchObject({ partitions: 6 });
    expect(catalog.deadLetterTopicOf('a')).toBe('a.dlt');
    expect(() => catalog.get('c')).toThrow('topic c is not in the topic catalog');
  });
});

describe('SchemaValidator', () => {
  const validator = new SchemaValidator([
    [
      't',
      {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'at'],
        properties: { id: { type: 'string', format: 'uuid' }, at: { type: 'string', format: 'date-time' } },
      },
    ],
  ]);

  it('accepts a valid value', () => {
    expect(validator.problems('t', { id: '3b241101-e2bb-4255-8caf-4136c566a962', at: '2026-01-01T00:00:00Z' })).toEqual(
      [],
    );
  });

  it('reports every problem with its path', () => {
    expect(validator.problems('t', { id: 'nope', extra: 1 })).toEqual([
      "(root) must have required property 'at'",
      '(root) must NOT have additional properties (extra)',
      '/id must match format "uuid"',
    ]);
  });

  it('refuses a topic it has no schema for', () => {
    expect(validator.problems('unknown', {})).toEqual(['no schema for unknown']);
  });
});
