import type { Db } from 'mongodb';
import {
  DocumentLock,
  type DocumentLockOptions,
  type LockDoc,
  type RepositoryStorage,
  type TenantOwner,
} from '@marketplace/store';

/**
 * A tenant's write lock: one change of its catalog at a time, on every instance. Taken by
 * inserting a document under the tenant's id (the shared DocumentLock: a claim by unique insert,
 * exact on every engine); a lock whose holder died expires.
 */
export class TenantLockRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'tenant_locks',
    // No index of its own: `_id` serves runExclusive (insert, release by id and token, expiry by id).
    indexes: [],
  };

  private readonly lock: DocumentLock;

  constructor(db: Db, options: DocumentLockOptions) {
    this.lock = new DocumentLock(db.collection<LockDoc>(TenantLockRepository.storage.collection), options);
  }

  /** Runs `work` holding the owner's lock; waits for it at most `waitMs`, then fails with `busy()`. */
  async runExclusive<T>(owner: TenantOwner, work: () => Promise<T>): Promise<T> {
    return this.lock.run(owner.tenantId, work);
  }
}
