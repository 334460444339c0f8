import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';

/** Per tenant: the change sequence, the revision partner reads are cached under, and whether a write is under way. */
export interface TenantMetaDoc {
  _id: string;
  seq: number;
  revision: string;
  /** Set while a write is being applied: reads in that window are not cached. */
  dirtyUntil: Date | null;
}

export type CatalogRevision = Pick<TenantMetaDoc, 'revision' | 'dirtyUntil'>;

/** A tenant's change sequence and catalog revision: one document per tenant (`_id` is the tenant id). */
export class TenantMetaRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'tenant_meta',
    // No index of its own: `_id` serves startChange, finishChange and findRevision.
    indexes: [],
  };

  private readonly collection: Collection<TenantMetaDoc>;

  constructor(db: Db) {
    this.collection = db.collection(TenantMetaRepository.storage.collection);
  }

  /**
   * Starts a change: the next sequence number, a new revision, and the mark that a write is under
   * way until `dirtyUntil`. Returns the change's sequence.
   */
  async startChange(owner: TenantOwner, dirtyUntil: Date): Promise<number> {
    const meta = await this.collection.findOneAndUpdate(
      { _id: owner.tenantId },
      { $inc: { seq: 1 }, $set: { revision: randomUUID(), dirtyUntil } },
      { upsert: true, returnDocument: 'after' },
    );
    return meta!.seq;
  }

  /** Ends a change: reads may be cached again. */
  async finishChange(owner: TenantOwner): Promise<void> {
    await this.collection.updateOne({ _id: owner.tenantId }, { $set: { dirtyUntil: null } });
  }

  /** The tenant's current revision and write mark, or null before its first change. */
  async findRevision(owner: TenantOwner): Promise<CatalogRevision | null> {
    return this.collection.findOne({ _id: owner.tenantId }, { projection: { _id: 0, revision: 1, dirtyUntil: 1 } });
  }
}
