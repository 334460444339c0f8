import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentFileText, exportedDocuments } from './exported-documents';

// docs/api/ holds every API document as the code serves it: a change to a document without
// `npm run docs:export` fails here, and so does a file left over from a document that is gone.
const DIR = join(__dirname, '..', '..', '..', '..', '..', 'docs', 'api');
const documents = exportedDocuments();

it.each(documents.map((d) => [d.file, d] as const))('docs/api/%s is the document the code serves', (file, d) => {
  const path = join(DIR, file);
  if (!existsSync(path)) throw new Error(`docs/api/${file} is missing: run npm run docs:export`);
  const stale = readFileSync(path, 'utf8') !== documentFileText(d.document);
  if (stale) throw new Error(`docs/api/${file} is stale: run npm run docs:export`);
});

it('holds no other document', () => {
  const expected = documents.map((d) => d.file).sort();
  expect(
    readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .sort(),
  ).toEqual(expected);
});

it('describes every topic and event type of schemas/ in AsyncAPI 3.0', () => {
  const asyncapi = documents.find((d) => d.file.includes('asyncapi'))!.document as {
    asyncapi: string;
    channels: Record<string, { messages: Record<string, unknown> }>;
  };
  expect(asyncapi.asyncapi).toBe('3.0.0');
  expect(Object.keys(asyncapi.channels)).toEqual(
    expect.arrayContaining(['catalog', 'orders', 'deliveries', 'installations', 'provider-events']),
  );
  expect(Object.keys(asyncapi.channels.orders!.messages).sort()).toEqual(
    ['orders.cancelled', 'orders.created', 'orders.status-changed', 'payment.completed'].sort(),
  );
});
