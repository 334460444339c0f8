#!/usr/bin/env node
// Measures how the MongoDB-protocol server isolates concurrent writes to one document, the fact
// the platform's concurrency design rests on (see scripts/stack/README.md, "The local MongoDB-wire engine").
//
//   node scripts/stack/check-update-isolation.mjs [mongodb-url]     (default: .stack/stack.env)
//
// MongoDB 7 and the local engine print 50 / 50 / 1 / 1. FerretDB 1.x, which the local stack ran
// before, printed fewer increments and several compare-and-set winners.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { MongoClient } = createRequire(join(root, 'package.json'))('mongodb');
const url = process.argv[2] ?? /^MONGO_URL=(.*)$/m.exec(readFileSync(join(root, '.stack', 'stack.env'), 'utf8'))[1];
const N = 50;

const client = await new MongoClient(url, { serverSelectionTimeoutMS: 5000 }).connect();
const db = client.db(`isolation_check_${Date.now()}`);
try {
  const docs = db.collection('docs');
  await docs.insertOne({ _id: 'counter', value: 0 });
  await Promise.all(Array.from({ length: N }, () => docs.updateOne({ _id: 'counter' }, { $inc: { value: 1 } })));
  const increments = (await docs.findOne({ _id: 'counter' })).value;

  await docs.insertOne({ _id: 'flag', state: 'open' });
  const cas = await Promise.all(
    Array.from({ length: N }, () => docs.updateOne({ _id: 'flag', state: 'open' }, { $set: { state: 'taken' } })),
  );
  const casWinners = cas.filter((r) => r.modifiedCount === 1).length;

  const claims = await Promise.allSettled(
    Array.from({ length: N }, (_, i) => db.collection('claims').insertOne({ _id: 'claim', by: i })),
  );
  const insertWinners = claims.filter((r) => r.status === 'fulfilled').length;

  console.log(`${N} concurrent $inc on one document: value ${increments} (isolated: ${N})`);
  console.log(`${N} concurrent compare-and-set updates: ${casWinners} winner(s) (isolated: 1)`);
  console.log(`${N} concurrent inserts of one _id: ${insertWinners} winner(s) (isolated: 1)`);
} finally {
  await db.dropDatabase();
  await client.close();
}
