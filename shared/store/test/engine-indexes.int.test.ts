import type { Collection, Document, Sort } from 'mongodb';
import {
  connectMongo,
  DocumentLock,
  ensureIndexes,
  processedEvents,
  pruneProcessedEvents,
  type MongoStore,
} from '@marketplace/store';
import { AppError } from '@marketplace/errors';
import {
  describeTimings,
  fillTo,
  growsWithData,
  quietLogger,
  stackEnv,
  timeLookups,
  uniqueName,
} from '@marketplace/testing';

// The local engine serves filters from indexes through our launcher (scripts/stack/mongo/):
// unique indexes for equality on all their fields (more fields allowed), non-unique ones for
// equality on a leading part of their fields, or a range on a one-field index. An index only
// narrows the candidates; the engine matches each against the whole filter. These tests check
// that answers are the same with and without the indexes, and that the shared packages' own
// queries (processed events, document locks, the outbox sweep) stay index lookups as data grows.

let store: MongoStore;

beforeAll(async () => {
  store = await connectMongo({
    url: stackEnv().MONGO_URL,
    database: uniqueName('engine_it').replace(/-/g, '_'),
    logger: quietLogger(),
  });
});

afterAll(async () => {
  await store.db.dropDatabase();
  await store.close();
});

interface Doc {
  _id: string;
  tenantId: string;
  status: string;
  n: number;
  createdAt: Date;
  tags: string[];
  variants: { groupIds: string[] }[];
  _outboxSince?: Date;
  pad: string;
}

type Loose = { _id: string } & Document;

function doc(i: number): Doc {
  return {
    _id: `d-${i}`,
    tenantId: `t-${i % 50}`,
    status: ['Pending', 'Accepted', 'Cancelled'][i % 3]!,
    n: i % 7 === 0 ? 3 : 3.5,
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    tags: i % 5 === 0 ? ['x', 'y'] : ['z'],
    variants: [{ groupIds: [`g-${i % 11}`] }, { groupIds: [] }],
    ...(i % 20 === 0 ? { _outboxSince: new Date(Date.UTC(2026, 0, 1) + i) } : {}),
    pad: 'p'.repeat(300),
  };
}

describe('answers with indexes equal answers without', () => {
  // Untyped filters: the driver's Filter<T> over a document with arrays of documents takes the
  // type checker minutes to expand.
  let indexed: Collection<Loose>;
  let plain: Collection<Loose>;

  beforeAll(async () => {
    indexed = store.db.collection<Loose>('indexed');
    plain = store.db.collection<Loose>('plain');
    await ensureIndexes(store.db, {
      indexed: [
        { key: { tenantId: 1, createdAt: -1 }, name: 'tenant_recent' },
        { key: { _outboxSince: 1 }, name: 'outbox_pending', sparse: true },
        { key: { tags: 1 }, name: 'tags' },
        { key: { 'variants.groupIds': 1 }, name: 'groups' },
        { key: { n: 1 }, name: 'n' },
        { key: { tenantId: 1, status: 1 }, name: 'tenant_status_unique_per_id', unique: false },
      ],
    });
    const docs = Array.from({ length: 3_000 }, (_, i) => doc(i));
    await indexed.insertMany(docs.map((d) => ({ ...d })));
    await plain.insertMany(docs.map((d) => ({ ...d })));
  });

  // Every row has its three values: jest passes a `done` callback in place of a missing one.
  const filters: [string, Document, Sort | null][] = [
    ['_id with the owner', { _id: 'd-77', tenantId: 't-27' }, null],
    ['_id with another owner', { _id: 'd-77', tenantId: 't-28' }, null],
    ['_id $in with the owner', { _id: { $in: ['d-1', 'd-51', 'd-2'] }, tenantId: 't-1' }, null],
    ['owner prefix, sorted', { tenantId: 't-5' }, { createdAt: -1 }],
    ['owner and status', { tenantId: 't-5', status: 'Accepted' }, null],
    ['owner and $ne', { tenantId: 't-5', status: { $ne: 'Accepted' } }, null],
    ['owner and exact time', { tenantId: 't-1', createdAt: new Date(Date.UTC(2026, 0, 1) + 51_000) }, null],
    ['sparse range below', { _outboxSince: { $lte: new Date(Date.UTC(2026, 0, 1) + 500) } }, null],
    ['sparse range above', { _outboxSince: { $gt: new Date(Date.UTC(2026, 0, 1) + 500) } }, null],
    ['sparse exists', { _outboxSince: { $exists: true } }, null],
    ['array element', { tags: 'x', tenantId: 't-10' }, null],
    ['nested array element', { 'variants.groupIds': 'g-3', tenantId: 't-3' }, null],
    ['number as integer and double', { n: 3 }, null],
    ['number as double', { n: 3.5, tenantId: 't-2' }, null],
    ['both bounds', { n: { $gt: 3, $lt: 4 } }, null],
  ];

  it.each(filters)('%s', async (_name, filter, sort) => {
    const read = async (c: Collection<Loose>) =>
      (await c.find(filter, sort ? { sort } : {}).toArray()).map((d) => d._id);
    const [a, b] = [await read(indexed), await read(plain)];
    expect(sort ? a : a.sort()).toEqual(sort ? b : b.sort());
  });

  it('follows updates, unsets and deletes', async () => {
    for (const c of [indexed, plain]) {
      await c.updateMany({ tenantId: 't-3' }, { $set: { tenantId: 't-4' } });
      await c.updateMany({ _outboxSince: { $exists: true }, tenantId: 't-0' }, { $unset: { _outboxSince: '' } });
      await c.deleteMany({ tenantId: 't-6' });
    }
    for (const filter of [
      { tenantId: 't-3' },
      { tenantId: 't-4' },
      { tenantId: 't-6' },
      { _outboxSince: { $lte: new Date(Date.UTC(2027, 0, 1)) } },
    ] as Document[]) {
      const [a, b] = [await indexed.find(filter).toArray(), await plain.find(filter).toArray()];
      expect(a.map((d) => d._id).sort()).toEqual(b.map((d) => d._id).sort());
    }
    expect(await indexed.countDocuments({ tenantId: 't-4' })).toBe(120);
  });
});

describe('the shared queries as data grows', () => {
  it('stay index lookups: processed events, document locks, the outbox sweep', async () => {
    const db = store.db;
    await ensureIndexes(db, {
      processed_events: [{ key: { processedAt: 1 }, name: 'processedAt' }],
      outbox_docs: [{ key: { _outboxSince: 1 }, name: 'outbox_pending', sparse: true }],
    });
    const events = processedEvents(db, 'growth');
    await events.add('seen');
    const lock = new DocumentLock(db.collection('locks'), {
      ttlMs: 10_000,
      waitMs: 1_000,
      busy: () => new AppError('unavailable', 'test.busy', 'busy'),
    });
    const old = new Date(Date.UTC(2020, 0, 1));
    const grow = async (n: number) => {
      const filler = { pad: 'p'.repeat(500) };
      await fillTo(db.collection<{ _id: string } & Document>('processed_events'), n, (i) => ({
        _id: `other:${i}`,
        group: 'other',
        eventId: `${i}`,
        processedAt: new Date(),
        ...filler,
      }));
      await fillTo(db.collection<{ _id: string } & Document>('locks'), n, (i) => ({
        _id: `other-lock-${i}`,
        token: 't',
        expiresAt: new Date(Date.now() + 3_600_000),
        ...filler,
      }));
      await fillTo(db.collection<{ _id: string } & Document>('outbox_docs'), n, (i) => ({
        _id: `o-${i}`,
        ...(i % 1000 === 0 ? { _outboxSince: new Date() } : {}),
        ...filler,
      }));
    };
    let k = 0;
    const timings = await timeLookups(
      [
        { name: 'processedEvents.has', run: async () => expect(await events.has('seen')).toBe(true) },
        { name: 'processedEvents.add', run: () => events.add(`new-${k++}`) },
        { name: 'pruneProcessedEvents', run: () => pruneProcessedEvents(db, old) },
        { name: 'DocumentLock.run', run: () => lock.run(`lock-${k++ % 3}`, async () => undefined) },
        {
          name: 'outbox sweep',
          run: () =>
            db
              .collection('outbox_docs')
              .find({ _outboxSince: { $lte: new Date() } })
              .sort({ _outboxSince: 1 })
              .limit(100)
              .toArray(),
        },
      ],
      grow,
    );
    console.log(describeTimings(timings));
    expect(timings.filter(growsWithData)).toEqual([]);
  }, 180_000);
});
