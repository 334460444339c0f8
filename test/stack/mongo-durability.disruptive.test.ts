import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { repoRoot, stackEnv, uniqueName } from '@marketplace/testing';

// The local engine acknowledges a write only after committing it to its file (scripts/stack/mongo/
// DurableH2Backend.java). Here it is killed with SIGKILL while eight clients insert, restarted,
// and every acknowledged insert is looked up. With H2's own background commit it lost 294 of 300.

const WRITERS = 8;
const KILL_AFTER_MS = 2_000;

function stackUp(component: string) {
  const result = spawnSync('bash', [join(repoRoot, 'scripts/stack/stack.sh'), 'up', component], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.status !== 0) throw new Error(`stack up ${component} failed: ${result.stdout}${result.stderr}`);
}

function enginePid(): number {
  return Number(readFileSync(join(repoRoot, '.stack/run/mongo.pid'), 'utf8').trim());
}

it('loses no acknowledged write when the engine is killed under writes', async () => {
  const url = stackEnv().MONGO_URL;
  const dbName = uniqueName('it_durability');
  const writer = new MongoClient(url, { retryWrites: false, serverSelectionTimeoutMS: 2_000, socketTimeoutMS: 5_000 });
  await writer.connect();
  const acknowledged: string[] = [];
  let stop = false;
  const started = Date.now();
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    const docs = writer.db(dbName).collection<{ _id: string; pad: string }>('acked');
    for (let i = 0; !stop; i++) {
      const id = `${w}-${i}`;
      try {
        await docs.insertOne({ _id: id, pad: 'x'.repeat(1_000) });
        acknowledged.push(id);
      } catch {
        return; // the engine is gone: an unacknowledged write may or may not have landed
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
  process.kill(enginePid(), 'SIGKILL');
  stop = true;
  await Promise.all(writers);
  const seconds = (Date.now() - started) / 1000;
  await writer.close(true);

  stackUp('mongo');
  const reader = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    await reader.connect();
    const found = new Set(
      (
        await reader
          .db(dbName)
          .collection('acked')
          .find({}, { projection: { _id: 1 } })
          .toArray()
      ).map((d) => String(d._id)),
    );
    const lost = acknowledged.filter((id) => !found.has(id));
    console.log(
      `engine killed after ${acknowledged.length} acknowledged inserts (${Math.round(acknowledged.length / seconds)}/s from ${WRITERS} clients): ${lost.length} lost`,
    );
    expect(acknowledged.length).toBeGreaterThan(100); // the writers really wrote before the kill
    expect(lost).toEqual([]);
    await reader.db(dbName).dropDatabase();
  } finally {
    await reader.close();
  }
}, 240_000);
