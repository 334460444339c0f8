import {
  connectMongo,
  ensureIndexes,
  isDuplicateKeyError,
  processedEvents,
  pruneProcessedEvents,
  type IndexPlan,
  type MongoStore,
} from '@marketplace/store';
import { quietLogger, stackEnv, uniqueName } from '@marketplace/testing';

let store: MongoStore;

beforeAll(async () => {
  store = await connectMongo({
    url: stackEnv().MONGO_URL,
    database: uniqueName('store_it').replace(/-/g, '_'),
    logger: quietLogger(),
  });
  await ensureIndexes(store.db, {
    installations: [{ key: { tenantId: 1, externalId: 1 }, name: 'tenant_external', unique: true }],
  });
});

afterAll(async () => {
  await store.db.dropDatabase();
  await store.close();
});

describe('MongoDB wire protocol (mongo-java-server locally, MongoDB 7 deployed)', () => {
  it('writes and reads a document back unchanged', async () => {
    const doc = {
      _id: 'i-1',
      tenantId: 't-1',
      externalId: 'e-1',
      scopes: ['Orders.Create'],
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
      totalMinor: 1250,
    };
    await store.db.collection('installations').insertOne(doc as never);
    expect(await store.db.collection('installations').findOne({ _id: 'i-1' } as never)).toEqual(doc);
  });

  it('rejects a duplicate through a unique index, and only within the indexed scope', async () => {
    const installations = store.db.collection('installations');
    await installations.insertOne({ _id: 'i-2', tenantId: 't-2', externalId: 'dup' } as never);
    const duplicate = await installations
      .insertOne({ _id: 'i-3', tenantId: 't-2', externalId: 'dup' } as never)
      .catch((error: unknown) => error);
    expect(isDuplicateKeyError(duplicate)).toBe(true);
    await expect(
      installations.insertOne({ _id: 'i-4', tenantId: 't-3', externalId: 'dup' } as never),
    ).resolves.toBeTruthy();
  });

  it('creates indexes idempotently at every start', async () => {
    await ensureIndexes(store.db, {
      installations: [{ key: { tenantId: 1, externalId: 1 }, name: 'tenant_external', unique: true }],
    });
    const names = (await store.db.collection('installations').indexes()).map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(['_id_', 'tenant_external']));
  });

  it('starts again on a database whose indexes exist, and adds the new ones', async () => {
    const plan: IndexPlan = {
      slots: [
        { key: { tenantId: 1, appId: 1, slot: 1 }, name: 'one_live_per_app', unique: true },
        { key: { tenantId: 1 }, name: 'tenant' },
      ],
    };
    await ensureIndexes(store.db, plan);
    await ensureIndexes(store.db, plan); // a restart
    await ensureIndexes(store.db, { slots: [...plan.slots!, { key: { appId: 1 }, name: 'app' }] }); // a new index in a later release
    const names = (await store.db.collection('slots').indexes()).map((i) => i.name);
    expect(names.sort()).toEqual(['_id_', 'app', 'one_live_per_app', 'tenant']);
  });

  it('upserts and returns the updated document with findOneAndUpdate', async () => {
    const counters = store.db.collection<{ _id: string; value: number }>('counters');
    const first = await counters.findOneAndUpdate(
      { _id: 'orders' },
      { $inc: { value: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    const second = await counters.findOneAndUpdate(
      { _id: 'orders' },
      { $inc: { value: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect([first, second]).toEqual([
      { _id: 'orders', value: 1 },
      { _id: 'orders', value: 2 },
    ]);
  });

  it('remembers processed event ids per consumer group', async () => {
    const a = processedEvents(store.db, 'group-a');
    const b = processedEvents(store.db, 'group-b');
    await a.add('e-1');
    await a.add('e-1'); // a second add is harmless
    expect(await a.has('e-1')).toBe(true);
    expect(await b.has('e-1')).toBe(false);
  });

  it('forgets processed event ids older than the retention', async () => {
    const group = processedEvents(store.db, 'group-prune');
    await group.add('old');
    await store.db
      .collection('processed_events')
      .updateOne({ _id: 'group-prune:old' } as never, { $set: { processedAt: new Date('2020-01-01') } });
    await group.add('recent');
    expect(await pruneProcessedEvents(store.db, new Date(Date.now() - 3_600_000))).toBe(1);
    expect([await group.has('old'), await group.has('recent')]).toEqual([false, true]);
  });

  it('answers ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

// Concurrency-critical steps (dedupe, claims) rest on unique inserts, exact on every engine; the
// local engine and MongoDB 7 also isolate concurrent updates of one document (FerretDB, which the
// local stack ran before, did not: 50 concurrent $inc gave 2 to 9).
describe('the concurrency primitives', () => {
  it('lets exactly one of many concurrent inserts of one key win', async () => {
    const claims = store.db.collection<{ _id: string; by: number }>('claims');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, by) => claims.insertOne({ _id: 'order-1:cancel', by })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => isDuplicateKeyError(r.reason))).toBe(true);
  });

  it('applies every one of 50 concurrent increments of one document', async () => {
    const counters = store.db.collection<{ _id: string; value: number }>('isolation');
    await counters.insertOne({ _id: 'counter', value: 0 });
    await Promise.all(Array.from({ length: 50 }, () => counters.updateOne({ _id: 'counter' }, { $inc: { value: 1 } })));
    expect((await counters.findOne({ _id: 'counter' }))?.value).toBe(50);
  });

  it('lets exactly one of 50 concurrent compare-and-set updates win', async () => {
    const flags = store.db.collection<{ _id: string; state: string; by?: number }>('isolation');
    await flags.insertOne({ _id: 'flag', state: 'open' });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, by) =>
        flags.updateOne({ _id: 'flag', state: 'open' }, { $set: { state: 'taken', by } }),
      ),
    );
    expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
  });
});
