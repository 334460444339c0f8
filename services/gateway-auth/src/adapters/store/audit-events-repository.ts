import type { Collection, Db, Filter } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { AuditEventDoc } from './documents';

/**
 * A page of the audit log: newest first, ids below `before` (the last event of the previous page:
 * its id, and its time, which the id encodes, for the index to narrow by).
 */
export interface AuditPage {
  before?: { id: string; at: Date };
  limit: number;
}

/**
 * The audit log of the administrator and tenant APIs, collection `audit_events`. Ids are UUID v7
 * of the event's `at` (time first), so the id order is the time order: pages go by `_id`.
 */
export class AuditEventsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'audit_events',
    indexes: [
      // The unique `_id` (implicit) serves append.
      // listForTenant: the tenant's events by id (time), newest first.
      { key: { tenantId: 1, _id: -1 }, name: 'tenant_recent' },
      // listAcrossTenants (a range below the page's start) and deleteOlderThan. The local engine
      // serves a range from a one-field index, not from `_id`; MongoDB 7 serves both from either.
      { key: { at: 1 }, name: 'at' },
    ],
  };

  private readonly events: Collection<AuditEventDoc>;

  constructor(db: Db) {
    this.events = db.collection(AuditEventsRepository.storage.collection);
  }

  async append(event: AuditEventDoc): Promise<void> {
    await this.events.insertOne(event);
  }

  /** The events concerning the tenant (its own actions and administrators' on it), newest first. */
  async listForTenant(owner: TenantOwner, page: AuditPage): Promise<AuditEventDoc[]> {
    const filter: Filter<AuditEventDoc> = { tenantId: owner.tenantId };
    if (page.before !== undefined) filter._id = { $lt: page.before.id };
    return this.events.find(filter).sort({ _id: -1 }).limit(page.limit).toArray();
  }

  /** The administrators' view of every event, newest first: admin-wide by nature. */
  async listAcrossTenants(page: AuditPage): Promise<AuditEventDoc[]> {
    const filter: Filter<AuditEventDoc> =
      page.before === undefined ? {} : { at: { $lte: page.before.at }, _id: { $lt: page.before.id } };
    return this.events.find(filter).sort({ _id: -1 }).limit(page.limit).toArray();
  }

  /** The retention sweep: removes every event older than `cutoff`. */
  async deleteOlderThan(cutoff: Date): Promise<number> {
    const { deletedCount } = await this.events.deleteMany({ at: { $lt: cutoff } });
    return deletedCount;
  }
}
