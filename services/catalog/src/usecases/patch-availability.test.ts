import { AppError } from '@marketplace/errors';
import type { OutgoingEvent } from '@marketplace/events';
import type { AvailabilityResource } from '../domain/model';
import type { TenantScope } from '../domain/tenant-scope';
import type { CatalogContext } from './context';
import { patchAvailability } from './patch-availability';

// patchAvailability merges a patch into the branch's overrides (0 clears one), refuses ids that are
// not this tenant's, and publishes the change's event after the write: run on in-memory ports.
const tenant: TenantScope = { tenantId: 't-1', currencyCode: 'EUR', decimals: 2, defaultLanguage: 'de' };
const now = new Date('2026-01-01T12:00:00Z');

function fakeContext(stored: AvailabilityResource | null) {
  const saved: { entries: unknown; events: OutgoingEvent[] }[] = [];
  const flushed: string[] = [];
  const store = {
    locks: { runExclusive: <T>(_owner: unknown, work: () => Promise<T>) => work() },
    meta: { startChange: async () => 7, finishChange: async () => undefined },
    branches: { existsLive: async (_owner: unknown, id: string) => id === 'b-1' },
    products: { liveProductAndVariantIds: async () => [{ id: 'p-1', variantIds: ['v-1'] }] },
    modifierGroups: { liveOptionIds: async () => ['o-1'] },
    availability: {
      collectionName: 'availability',
      findOfBranch: async () => stored,
      saveOfBranch: async (_o: unknown, _b: string, entries: unknown, _s: number, events: OutgoingEvent[]) => {
        saved.push({ entries, events });
      },
    },
  };
  const ctx = {
    store,
    outbox: { flush: async (collection: string, id: string) => void flushed.push(`${collection}/${id}`) },
    now: () => now,
  } as unknown as CatalogContext;
  return { ctx, saved, flushed };
}

const earlier: AvailabilityResource = {
  _id: 'b-1',
  tenantId: 't-1',
  deleted: false,
  createdAt: new Date('2025-12-01T00:00:00Z'),
  updatedAt: new Date('2025-12-01T00:00:00Z'),
  seq: 3,
  products: { 'p-1': 1 },
  variants: {},
  modifierOptions: { 'o-1': 2 },
};

describe('patchAvailability', () => {
  it('merges the patch into the stored overrides, 0 clearing one, and publishes the whole of it', async () => {
    const { ctx, saved, flushed } = fakeContext(earlier);
    const result = await patchAvailability(ctx, tenant, 'b-1', {
      variants: { 'V-1': 2 },
      modifierOptions: { 'o-1': 0 },
    });
    expect(result).toMatchObject({
      products: { 'p-1': 1 },
      variants: { 'v-1': 2 },
      modifierOptions: {},
      seq: 7,
      createdAt: earlier.createdAt,
      updatedAt: now,
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]!.events[0]).toMatchObject({
      key: 't-1',
      type: 'catalog.availability.changed',
      data: { sequence: 7, entity: 'availability', id: 'b-1', deleted: false },
    });
    expect(flushed).toEqual(['availability/b-1']);
  });

  it("refuses an id that is not one of the tenant's, writing nothing", async () => {
    const { ctx, saved, flushed } = fakeContext(null);
    const refused = patchAvailability(ctx, tenant, 'b-1', { products: { 'p-1': 1, 'p-9': 2 } });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ fieldErrors: { 'products.p-9': [expect.any(String)] } });
    expect(saved).toEqual([]);
    expect(flushed).toEqual([]);
  });

  it('answers 404 for a branch the tenant does not have', async () => {
    const { ctx } = fakeContext(null);
    await expect(patchAvailability(ctx, tenant, 'b-2', { products: { 'p-1': 1 } })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});
