import type { OutgoingEvent } from '@marketplace/events';
import type { Category } from '../domain/model';
import type { TenantScope } from '../domain/tenant-scope';
import type { CatalogContext } from './context';
import { deleteCategory } from './delete-category';

// A delete leaves a tombstone carrying the last event; while something still uses the resource it
// is refused (409 catalog.in_use) and nothing is written: run on in-memory ports.
const tenant: TenantScope = { tenantId: 't-1', currencyCode: 'EUR', decimals: 2, defaultLanguage: 'de' };
const now = new Date('2026-01-01T12:00:00Z');
const category: Category = {
  _id: 'c-1',
  tenantId: 't-1',
  deleted: false,
  createdAt: new Date('2025-12-01T00:00:00Z'),
  updatedAt: new Date('2025-12-01T00:00:00Z'),
  seq: 2,
  name: 'Drinks',
  translations: {},
  sortOrder: 0,
};

function fakeContext(productsInCategory: string[]) {
  const deleted: { id: string; seq: number; events: OutgoingEvent[] }[] = [];
  const flushed: string[] = [];
  const categories = {
    collectionName: 'categories',
    findLive: async (_owner: unknown, id: string) => (id === category._id ? category : null),
    markDeleted: async (_owner: unknown, id: string, seq: number, events: OutgoingEvent[]) => {
      deleted.push({ id, seq, events });
      return true;
    },
  };
  const store = {
    locks: { runExclusive: <T>(_owner: unknown, work: () => Promise<T>) => work() },
    meta: { startChange: async () => 5, finishChange: async () => undefined },
    products: { liveIdsInCategory: async () => productsInCategory },
  };
  const ctx = {
    store,
    resources: { category: categories },
    outbox: { flush: async (collection: string, id: string) => void flushed.push(`${collection}/${id}`) },
    now: () => now,
  } as unknown as CatalogContext;
  return { ctx, deleted, flushed };
}

describe('deleteCategory', () => {
  it('refuses while a product is in the category, naming it, and writes nothing', async () => {
    const { ctx, deleted, flushed } = fakeContext(['p-1']);
    await expect(deleteCategory(ctx, tenant, 'c-1')).rejects.toMatchObject({
      kind: 'conflict',
      code: 'catalog.in_use',
      details: { usedBy: ['p-1'] },
    });
    expect(deleted).toEqual([]);
    expect(flushed).toEqual([]);
  });

  it('leaves a tombstone with the deleted event and publishes it', async () => {
    const { ctx, deleted, flushed } = fakeContext([]);
    await deleteCategory(ctx, tenant, 'c-1');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ id: 'c-1', seq: 5 });
    expect(deleted[0]!.events[0]).toMatchObject({
      type: 'catalog.category.changed',
      data: {
        entity: 'category',
        id: 'c-1',
        deleted: true,
        sequence: 5,
        state: { id: 'c-1', updatedAt: now.toISOString() },
      },
    });
    expect(flushed).toEqual(['categories/c-1']);
  });

  it('answers 404 for a category the tenant does not have', async () => {
    const { ctx } = fakeContext([]);
    await expect(deleteCategory(ctx, tenant, 'c-2')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
