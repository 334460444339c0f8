import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTopicCatalog } from './catalog';
import { EventSchemas } from './registry';

// A registry that fails its first answer: the retry must succeed (the registry client compiles a
// schema before the registry answers, so a retry on the same client used to fail for good).
const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://schemas.test/thing.json',
  type: 'object',
};
const catalog = createTopicCatalog(
  new Map([
    [
      'things',
      {
        name: 'things',
        partitions: 1,
        retentionMs: 1000,
        schema,
        eventTypes: ['thing'],
        key: 'id',
        description: 'test',
      },
    ],
  ]),
  { suffix: '.dlt', partitions: 1, retentionMs: 1000 },
);

let server: Server;
let calls = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      res.setHeader('content-type', 'application/vnd.schemaregistry.v1+json');
      // The client tries three times itself: the first register call fails as a whole.
      if (calls <= 3) {
        res.statusCode = 500;
        res.end(JSON.stringify({ error_code: 50001, message: 'not ready' }));
      } else if (req.method === 'GET') {
        res.end(JSON.stringify({ compatibilityLevel: 'BACKWARD' }));
      } else {
        res.end(JSON.stringify({ id: 7 }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('registers on a retry after the registry failed the first attempt', async () => {
  const schemas = new EventSchemas(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, catalog);
  await expect(schemas.register(['things'])).rejects.toThrow();
  await expect(schemas.register(['things'])).resolves.toBeUndefined();
});
