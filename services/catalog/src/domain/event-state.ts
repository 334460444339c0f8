import type { CatalogChangeDefinitions as Catalog } from '@marketplace/contracts';
import type { CatalogResource, ManagedKind, ManagedResources } from './model';

type Stamps = { id: string; createdAt: string; updatedAt: string };

/**
 * The state a catalog event carries for each kind of resource, as the schema's definition of it
 * says (schemas/catalog.schema.json). The schema's state is one of these (`oneOf`, each closed),
 * but the compiler would take one kind's state for another's with the same fields (a product
 * passes for a category): each kind names its own.
 */
export interface CatalogEventStates {
  'tax-category': Catalog.TaxCategory & Stamps;
  branch: Catalog.Branch & Stamps;
  category: Catalog.Category & Stamps;
  'modifier-group': Catalog.ModifierGroup & Stamps;
  product: Catalog.Product & Stamps;
  availability: Catalog.Availability & Stamps;
}

/** A resource, with the outbox fields a document read back may carry. */
type StoredResource = CatalogResource & { _outbox?: unknown; _outboxSince?: unknown; _outboxVersion?: unknown };

/** The fields of D an event leaves out (the tenant's bookkeeping and the outbox), and those it renames or formats. */
type Bookkeeping =
  '_id' | 'tenantId' | 'seq' | 'deleted' | 'createdAt' | 'updatedAt' | '_outbox' | '_outboxSince' | '_outboxVersion';

export type EventState<D> = { id: string } & Omit<D, Bookkeeping> & { createdAt: string; updatedAt: string };

/**
 * The state an event carries: the stored resource as is (money in minor units), without the
 * tenant's bookkeeping, so a consumer can keep its own copy.
 */
export function eventState<D extends StoredResource>(doc: D): EventState<D> {
  const { _id, _outbox, _outboxSince, _outboxVersion, tenantId, seq, deleted, createdAt, updatedAt, ...fields } = doc;
  return { id: _id, ...fields, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/**
 * The event state of each managed kind, written out per kind so the compiler checks that the
 * stored resource of a kind gives the schema's state of that kind.
 */
export const MANAGED_EVENT_STATES: {
  [K in ManagedKind]: (doc: ManagedResources[K]) => CatalogEventStates[K];
} = {
  'tax-category': eventState,
  branch: eventState,
  category: eventState,
  'modifier-group': eventState,
  product: eventState,
};
