import type { Collection, Db } from 'mongodb';
import type { IndexPlan, LockDoc } from '@marketplace/store';
import type { AvailabilityDoc, BranchDoc, CategoryDoc, ModifierGroupDoc, ProductDoc, TaxCategoryDoc } from '../domain/model';

/** Per tenant: the change sequence, the revision partner reads are cached under, and whether a write is under way. */
export interface TenantMetaDoc {
  _id: string;
  seq: number;
  revision: string;
  /** Set while a write is being applied: reads in that window are not cached. */
  dirtyUntil: Date | null;
}


export interface CatalogCollections {
  taxCategories: Collection<TaxCategoryDoc>;
  branches: Collection<BranchDoc>;
  categories: Collection<CategoryDoc>;
  products: Collection<ProductDoc>;
  modifierGroups: Collection<ModifierGroupDoc>;
  availability: Collection<AvailabilityDoc>;
  meta: Collection<TenantMetaDoc>;
  /** A tenant's write lock: one change at a time per tenant. */
  locks: Collection<LockDoc>;
}

/** Collections whose documents carry events (the outbox). */
export const RESOURCE_COLLECTIONS = ['tax_categories', 'branches', 'categories', 'products', 'modifier_groups', 'availability'];

export function catalogCollections(db: Db): CatalogCollections {
  return {
    taxCategories: db.collection('tax_categories'),
    branches: db.collection('branches'),
    categories: db.collection('categories'),
    products: db.collection('products'),
    modifierGroups: db.collection('modifier_groups'),
    availability: db.collection('availability'),
    meta: db.collection('tenant_meta'),
    locks: db.collection('tenant_locks'),
  };
}

// Every query names the tenant first: one tenant's catalog is one index range.
const byTenant = { key: { tenantId: 1, deleted: 1 }, name: 'tenant_live' };
export const catalogIndexes: IndexPlan = {
  tax_categories: [byTenant],
  branches: [byTenant],
  categories: [byTenant],
  products: [byTenant, { key: { tenantId: 1, categoryId: 1 }, name: 'tenant_category' }],
  modifier_groups: [byTenant],
  availability: [byTenant],
};
