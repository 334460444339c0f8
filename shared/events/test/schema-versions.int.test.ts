import { stackEnv, uniqueName } from '@marketplace/testing';
import { createTopicCatalog } from '../src/catalog';
import { EventSchemas } from '../src/registry';
import { registryConnectionFromEnv } from '../src/registry-connection';

// A topic whose schema grew (a new optional property, as `installations` gained `scopes`): a
// consumer reading from the beginning decodes messages written with the first version, then a
// producer in the same process writes with the second. Both versions share the schema's `$id`;
// the registry client must not refuse the second for it ("schema ... already exists").

const topic = uniqueName('it-schema-versions');
const version = (properties: Record<string, unknown>) =>
  createTopicCatalog(
    new Map([
      [
        topic,
        {
          name: topic,
          partitions: 1,
          retentionMs: 60_000,
          schema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            $id: `https://schemas.test/${topic}.json`,
            type: 'object',
            additionalProperties: false,
            required: ['id'],
            properties: { id: { type: 'string' }, ...properties },
          },
          eventTypes: ['thing'],
          key: 'id',
          description: 'test',
        },
      ],
    ]),
    { suffix: '.dlt', partitions: 1, retentionMs: 60_000 },
  );

it('decodes a message of version 1 and encodes with version 2 of the same schema, in one client', async () => {
  const url = registryConnectionFromEnv(stackEnv());
  const first = new EventSchemas(url, version({}));
  const written = await first.encode(topic, { id: 'a' });

  const second = new EventSchemas(url, version({ scopes: { type: 'array', items: { type: 'string' } } }));
  expect(await second.decode(written)).toEqual({ id: 'a' });
  const newer = await second.encode(topic, { id: 'b', scopes: ['Orders.Read'] });
  expect(newer.readUInt32BE(1)).not.toBe(written.readUInt32BE(1)); // another schema id: version 2
  expect(await second.decode(newer)).toEqual({ id: 'b', scopes: ['Orders.Read'] });
  await expect(second.encode(topic, { id: 'c', unknown: true })).rejects.toThrow();
});
