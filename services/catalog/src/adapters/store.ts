import type { Db } from 'mongodb';
import { indexPlanOf, type DocumentLockOptions, type IndexPlan } from '@marketplace/store';
import type { Branch, Category, ManagedKind, ManagedResources, TaxCategory } from '../domain/model';
import { AvailabilityRepository } from './availability-repository';
import { ModifierGroupRepository } from './modifier-group-repository';
import { ProductRepository } from './product-repository';
import { RESOURCE_STORAGE, ResourceRepository } from './resource-repository';
import { TenantLockRepository } from './tenant-lock-repository';
import { TenantMetaRepository } from './tenant-meta-repository';

/**
 * Everything catalog stores, one repository per collection. Every method on a tenant's data takes
 * the tenant first and filters by it: one tenant's catalog is one index range.
 */
export interface CatalogStore {
  taxCategories: ResourceRepository<TaxCategory>;
  branches: ResourceRepository<Branch>;
  categories: ResourceRepository<Category>;
  products: ProductRepository;
  modifierGroups: ModifierGroupRepository;
  availability: AvailabilityRepository;
  meta: TenantMetaRepository;
  /** A tenant's write lock: one change at a time per tenant. */
  locks: TenantLockRepository;
}

/** The repository of each kind the tenant manages one by one. */
export type ResourceRepositories = { [K in ManagedKind]: ResourceRepository<ManagedResources[K]> };

export function catalogStore(db: Db, lock: DocumentLockOptions): CatalogStore {
  return {
    taxCategories: new ResourceRepository<TaxCategory>(db, RESOURCE_STORAGE.taxCategories),
    branches: new ResourceRepository<Branch>(db, RESOURCE_STORAGE.branches),
    categories: new ResourceRepository<Category>(db, RESOURCE_STORAGE.categories),
    products: new ProductRepository(db),
    modifierGroups: new ModifierGroupRepository(db),
    availability: new AvailabilityRepository(db),
    meta: new TenantMetaRepository(db),
    locks: new TenantLockRepository(db, lock),
  };
}

/** The store's repositories of the managed kinds, by kind: how the tenant API's shared routes reach them. */
export function resourceRepositories(store: CatalogStore): ResourceRepositories {
  return {
    'tax-category': store.taxCategories,
    branch: store.branches,
    category: store.categories,
    'modifier-group': store.modifierGroups,
    product: store.products,
  };
}

/** Collections whose documents carry events (the outbox). */
export const RESOURCE_COLLECTIONS = [
  RESOURCE_STORAGE.taxCategories.collection,
  RESOURCE_STORAGE.branches.collection,
  RESOURCE_STORAGE.categories.collection,
  ProductRepository.storage.collection,
  ModifierGroupRepository.storage.collection,
  AvailabilityRepository.storage.collection,
];

/** The indexes of every repository (created at start; proven by test/repositories.int.test.ts). */
export const catalogIndexes: IndexPlan = indexPlanOf(
  RESOURCE_STORAGE.taxCategories,
  RESOURCE_STORAGE.branches,
  RESOURCE_STORAGE.categories,
  ProductRepository.storage,
  ModifierGroupRepository.storage,
  AvailabilityRepository.storage,
  TenantMetaRepository.storage,
  TenantLockRepository.storage,
);
