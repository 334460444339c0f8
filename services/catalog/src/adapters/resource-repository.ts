import type { Collection, Db, Filter, IndexDescription, OptionalUnlessRequiredId, UpdateFilter } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { BranchDoc, CategoryDoc, TaxCategoryDoc } from '../domain/model';

/** What every catalog resource document has (see domain/model). */
export interface ResourceDoc {
  _id: string;
  tenantId: string;
  seq: number;
  deleted: boolean;
  createdAt: Date;
  updatedAt: Date;
}

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
export function liveOf<D>(owner: TenantOwner, more: Record<string, unknown> = {}): Filter<D & OutboxFields> {
  return { tenantId: owner.tenantId, deleted: false, ...more } as unknown as Filter<D & OutboxFields>;
}

export type TaxCategoryRepository = ResourceRepository<TaxCategoryDoc>;
export type BranchRepository = ResourceRepository<BranchDoc>;
export type CategoryRepository = ResourceRepository<CategoryDoc>;

/**
 * Create, read, replace and delete of one kind of catalog resource, the same way for each: every
 * query names the tenant, so another tenant's resource is not found; a write carries its change's
 * event in the same document write (the outbox). Deleted resources stay as tombstones
 * (`deleted: true`) that no read returns.
 */
export class ResourceRepository<D extends ResourceDoc> {
  protected readonly collection: Collection<D & OutboxFields>;
  readonly collectionName: string;

  constructor(
    db: Db,
    readonly storage: RepositoryStorage,
  ) {
    this.collectionName = storage.collection;
    this.collection = db.collection<D & OutboxFields>(storage.collection);
  }

  /** The owner's live resource with this id, or null (another tenant's or a deleted one too). */
  async findLive(owner: TenantOwner, id: string): Promise<D | null> {
    return (await this.collection.findOne(liveOf<D>(owner, { _id: id }), WITHOUT_OUTBOX)) as D | null;
  }

  /** Whether the owner has a live resource with this id. */
  async existsLive(owner: TenantOwner, id: string): Promise<boolean> {
    return (await this.collection.findOne(liveOf<D>(owner, { _id: id }), { projection: { _id: 1 } })) !== null;
  }

  /** Every live resource of the owner. */
  async listLive(owner: TenantOwner): Promise<D[]> {
    return (await this.collection.find(liveOf<D>(owner), WITHOUT_OUTBOX).toArray()) as D[];
  }

  /** Stores a new resource of the owner with its events. */
  async insertWithEvents(owner: TenantOwner, doc: D, events: OutgoingEvent[], now: Date): Promise<void> {
    await this.collection.insertOne(withOutbox({ ...doc, tenantId: owner.tenantId }, events, now) as OptionalUnlessRequiredId<D & OutboxFields>);
  }

  /** Replaces the fields of the owner's live resource, with its events; false when there is none. */
  async replaceLive(owner: TenantOwner, id: string, fields: Partial<D>, seq: number, events: OutgoingEvent[], now: Date): Promise<boolean> {
    const result = await this.collection.updateOne(liveOf<D>(owner, { _id: id }), updateWithOutbox({ $set: { ...fields, seq, updatedAt: now } } as UpdateFilter<D & OutboxFields>, events, now));
    return result.matchedCount > 0;
  }

  /** Makes the owner's live resource a tombstone carrying its last events; false when there is none. */
  async markDeleted(owner: TenantOwner, id: string, seq: number, events: OutgoingEvent[], now: Date): Promise<boolean> {
    const result = await this.collection.updateOne(liveOf<D>(owner, { _id: id }), updateWithOutbox({ $set: { deleted: true, seq, updatedAt: now } } as UpdateFilter<D & OutboxFields>, events, now));
    return result.matchedCount > 0;
  }
}
