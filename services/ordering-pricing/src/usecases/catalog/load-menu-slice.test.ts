import type { TenantOwner } from '@marketplace/store';
import type { CatalogCopyDoc } from '../../adapters/catalog-copy-repository';
import type { CopyReader } from '../ports';
import { loadMenuSlice } from './load-menu-slice';

// The menu slice of an order while the store fails: the request fails with the store's error, and
// no load started on the way is left to reject unhandled (Node ends the process on one).

const TENANT = 'tenant-1';
const doc = (entity: string, id: string, state: Record<string, unknown>): CatalogCopyDoc =>
  ({
    _id: `${TENANT}:${entity}:${id}`,
    tenantId: TENANT,
    entity,
    sequence: 1,
    deleted: false,
    state,
  }) as CatalogCopyDoc;

const PRODUCT = doc('product', 'p1', {
  id: 'p1',
  taxCategoryId: 't1',
  variants: [{ id: 'v1', modifierGroupIds: ['g1'] }],
});

/** The store holds the product; every later read fails, the tax read last of all. */
function failingAfterProducts(): CopyReader {
  const reader: CopyReader = {
    session: () => reader,
    load: async (_owner: TenantOwner, ids: string[]) => {
      if (ids.some((id) => id.includes(':product:'))) return new Map(ids.map((id) => [id, PRODUCT]));
      if (ids.some((id) => id.includes(':tax-category:'))) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('store away (taxes)');
      }
      if (ids.some((id) => id.includes(':modifier-group:'))) throw new Error('store away (groups)');
      return new Map(ids.map((id) => [id, null]));
    },
  };
  return reader;
}

describe('loading the menu slice of an order', () => {
  it('fails with the store, leaving no load to reject unhandled', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      await expect(
        loadMenuSlice(failingAfterProducts(), TENANT, 'b1', [
          { productId: 'p1', variantId: 'v1', quantity: 1, modifierSelections: [] },
        ] as never),
      ).rejects.toThrow('store away');
      await new Promise((resolve) => setTimeout(resolve, 50)); // past the tax read's failure
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
