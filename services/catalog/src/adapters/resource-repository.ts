import type { Collection, Db, Filter, IndexDescription, OptionalUnlessRequiredId, UpdateFilter } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { Branch, CatalogResource, Category, TaxCategory } from '../domain/model';

/**
 * A catalog resource as stored: the resource (domain/model.ts) with the events waiting in it to be
 * published (the outbox fields), which no read returns.
 */
export type ResourceDoc<R extends CatalogResource = CatalogResource> = R & OutboxFields;
export type TaxCategoryDoc = ResourceDoc<TaxCategory>;
export type BranchDoc = ResourceDoc<Branch>;
export type CategoryDoc = ResourceDoc<Category>;

/** Reads leave the outbox (events waiting to be published) in the database. */
export const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } };

/**
 * A tenant's live resources, one index range: serves `listLive` (the menu load and the tenant
 * API's lists) and every other per-tenant question of the subclasses.
 */
export const TENANT_LIVE: IndexDescription = { key: { tenantId: 1, deleted: 1 }, name: 'tenant_live' };

/** The resource collections that need no more than `_id` and `tenant_live`. */
export const RESOURCE_STORAGE = {
  // tenant_live: listLive. `_id` (with the tenant checked on the document): findLive, existsLive, insertWithEvents, replaceLive, markDeleted.
  taxCategories: { collection: 'tax_categories', indexes: [TENANT_LIVE] },
  // tenant_live: listLive. `_id`: the rest.
  branches: { collection: 'branches', indexes: [TENANT_LIVE] },
  // tenant_live: listLive. `_id`: the rest.
  categories: { collection: 'categories', indexes: [TENANT_LIVE] },
} as const satisfies Record<string, RepositoryStorage>;

/** The filter of the owner's live resources, with more conditions (a function, not a method: only queries are methods). */
export function liveOf<R extends CatalogResource>(
  owner: TenantOwner,
  more: Record<string, unknown> = {},
): Filter<ResourceDoc<R>> {
  return { tenantId: owner.tenantId, deleted: false, ...more } as unknown as Filter<ResourceDoc<R>>;
}

export type TaxCategoryRepository = ResourceRepository<TaxCategory>;
export type BranchRepository = ResourceRepository<Branch>;
export type CategoryRepository = ResourceRepository<Category>;

/**
 * Create, read, replace and delete of one kind of catalog resource, the same way for each: every
 * query names the tenant, so another tenant's resource is not found; a write carries its change's
 * event in the same document write (the outbox). Deleted resources stay as tombstones
 * (`deleted: true`) that no read returns.
 */
export class ResourceRepository<R extends CatalogResource> {
  protected readonly collection: Collection<ResourceDoc<R>>;
  readonly collectionName: string;

  constructor(
    db: Db,
    readonly storage: RepositoryStorage,
  ) {
    this.collectionName = storage.collection;
    this.collection = db.collection<ResourceDoc<R>>(storage.collection);
  }

  /** The owner's live resource with this id, or null (another tenant's or a deleted one too). */
  async findLive(owner: TenantOwner, id: string): Promise<R | null> {
    return (await this.collection.findOne(liveOf<R>(owner, { _id: id }), WITHOUT_OUTBOX)) as R | null;
  }

  /** Whether the owner has a live resource with this id. */
  async existsLive(owner: TenantOwner, id: string): Promise<boolean> {
    return (await this.collection.findOne(liveOf<R>(owner, { _id: id }), { projection: { _id: 1 } })) !== null;
  }

  /** Every live resource of the owner. */
  async listLive(owner: TenantOwner): Promise<R[]> {
    return (await this.collection.find(liveOf<R>(owner), WITHOUT_OUTBOX).toArray()) as R[];
  }

  /** Stores a new resource of the owner with its events. */
  async insertWithEvents(owner: TenantOwner, doc: R, events: OutgoingEvent[], now: Date): Promise<void> {
    await this.collection.insertOne(
      withOutbox({ ...doc, tenantId: owner.tenantId }, events, now) as OptionalUnlessRequiredId<ResourceDoc<R>>,
    );
  }

  /** Replaces the fields of the owner's live resource, with its events; false when there is none. */
  async replaceLive(
    owner: TenantOwner,
    id: string,
    fields: Partial<R>,
    seq: number,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<boolean> {
    const result = await this.collection.updateOne(
      liveOf<R>(owner, { _id: id }),
      updateWithOutbox({ $set: { ...fields, seq, updatedAt: now } } as UpdateFilter<ResourceDoc<R>>, events, now),
    );
    return result.matchedCount > 0;
  }

  /** Makes the owner's live resource a tombstone carrying its last events; false when there is none. */
  async markDeleted(owner: TenantOwner, id: string, seq: number, events: OutgoingEvent[], now: Date): Promise<boolean> {
    const result = await this.collection.updateOne(
      liveOf<R>(owner, { _id: id }),
      updateWithOutbox({ $set: { deleted: true, seq, updatedAt: now } } as UpdateFilter<ResourceDoc<R>>, events, now),
    );
    return result.matchedCount > 0;
  }
}
