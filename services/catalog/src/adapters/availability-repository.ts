import type { Collection, Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, type OutboxFields } from '@marketplace/outbox';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { AvailabilityResource } from '../domain/model';
import { TENANT_LIVE, WITHOUT_OUTBOX } from './resource-repository';

/** A branch's availability as stored in `availability` (its outbox included). */
export type AvailabilityDoc = AvailabilityResource & OutboxFields;

export type AvailabilityEntries = Pick<AvailabilityResource, 'products' | 'variants' | 'modifierOptions'>;

/** A branch's availability overrides: one document per branch (`_id` is the branch id). */
export class AvailabilityRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'availability',
    // listLive (the menu load). `_id` (the tenant checked on the document): findOfBranch, saveOfBranch.
    indexes: [TENANT_LIVE],
  };

  private readonly collection: Collection<AvailabilityDoc>;
  /** Where a change's events wait to be published (the outbox relay flushes by collection). */
  readonly collectionName = AvailabilityRepository.storage.collection;

  constructor(db: Db) {
    this.collection = db.collection(AvailabilityRepository.storage.collection);
  }

  /** The branch's availability, or null when none was ever set. */
  async findOfBranch(owner: TenantOwner, branchId: string): Promise<AvailabilityResource | null> {
    return this.collection.findOne({ _id: branchId, tenantId: owner.tenantId }, WITHOUT_OUTBOX);
  }

  /** Every branch availability of the owner. */
  async listLive(owner: TenantOwner): Promise<AvailabilityResource[]> {
    return this.collection.find({ tenantId: owner.tenantId, deleted: false }, WITHOUT_OUTBOX).toArray();
  }

  /** Stores the branch's whole availability with its event, in one write (created on first use). */
  async saveOfBranch(
    owner: TenantOwner,
    branchId: string,
    entries: AvailabilityEntries,
    seq: number,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<void> {
    await this.collection.updateOne(
      { _id: branchId, tenantId: owner.tenantId },
      updateWithOutbox(
        { $set: { ...entries, seq, updatedAt: now, deleted: false }, $setOnInsert: { createdAt: now } },
        events,
        now,
      ),
      { upsert: true },
    );
  }
}
