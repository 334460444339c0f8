import type { Collection, Db } from 'mongodb';
import type { InstallationOwner, RepositoryStorage } from '@marketplace/store';
import { idempotencyRecordId } from '../../domain/ids';
import type { IdempotencyRecordDoc } from './documents';

/** What a record stores: the request's fingerprint and the response to replay. */
export type IdempotencyRecordContent = Pick<
  IdempotencyRecordDoc,
  'fingerprint' | 'status' | 'headers' | 'body' | 'createdAt' | 'expiresAt'
>;

/** Stored Partner API responses for replay, collection `idempotency_records`. */
export class IdempotencyRecordsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'idempotency_records',
    indexes: [
      // The unique `_id` (implicit) serves findUnexpired and save.
      // deleteExpired (a range on one field). No TTL index: the service prunes (usecases/prune-expired-records.ts).
      { key: { expiresAt: 1 }, name: 'expires' },
    ],
  };

  private readonly records: Collection<IdempotencyRecordDoc>;

  constructor(db: Db) {
    this.records = db.collection(IdempotencyRecordsRepository.storage.collection);
  }

  /** The installation's record for this key, unless it has expired (awaiting the sweep). */
  async findUnexpired(owner: InstallationOwner, keyHash: string, now: Date): Promise<IdempotencyRecordDoc | undefined> {
    const filter = {
      _id: idempotencyRecordId(owner, keyHash),
      installationId: owner.installationId,
      tenantId: owner.tenantId,
      expiresAt: { $gt: now },
    };
    return (await this.records.findOne(filter)) ?? undefined;
  }

  /**
   * Stores the record, replacing an expired one with the same id. By `_id` alone (it holds the
   * installation): a record written before records carried the tenant is replaced, not collided with.
   * Called under the key's lock.
   */
  async save(owner: InstallationOwner, keyHash: string, content: IdempotencyRecordContent): Promise<void> {
    await this.records.replaceOne(
      { _id: idempotencyRecordId(owner, keyHash) },
      { installationId: owner.installationId, tenantId: owner.tenantId, ...content },
      { upsert: true },
    );
  }

  /** The periodic sweep of every installation's expired records: a system task, no owner. */
  async deleteExpired(now: Date): Promise<number> {
    const { deletedCount } = await this.records.deleteMany({ expiresAt: { $lte: now } });
    return deletedCount;
  }
}
