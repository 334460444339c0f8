import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { InstallationFacts } from '../domain/installation';

/** What assigning needs of an installation (from the installations topic). */
export interface InstallationCopyDoc extends InstallationFacts {
  /** The installation id. */
  _id: string;
  tenantId: string;
  revision: number;
}

/** The tenant's installations, as the installations topic last described each. */
export class InstallationCopiesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'installation_copies',
    // find and saveIfNewer go by `_id`.
    indexes: [],
  };

  private readonly installations: Collection<InstallationCopyDoc>;

  constructor(db: Db) {
    this.installations = db.collection(InstallationCopiesRepository.storage.collection);
  }

  async find(owner: TenantOwner, installationId: string): Promise<InstallationCopyDoc | undefined> {
    return (await this.installations.findOne({ _id: installationId, tenantId: owner.tenantId })) ?? undefined;
  }

  /**
   * Keeps the snapshot unless a later revision is held (replays change nothing). One
   * installation's events come in order on one partition, so the update and the insert below
   * never race each other.
   */
  async saveIfNewer(owner: TenantOwner, doc: InstallationCopyDoc): Promise<void> {
    if (doc.tenantId !== owner.tenantId) throw new Error('the installation belongs to another tenant');
    const { _id, ...fields } = doc;
    const { matchedCount } = await this.installations.updateOne(
      { _id, tenantId: owner.tenantId, revision: { $lt: doc.revision } },
      { $set: fields },
    );
    if (matchedCount === 1) return;
    // Held already (with this revision or a later one), or new: insert it. A racing insert of the
    // same snapshot (a rebalance handing the partition over) is the same write.
    await this.installations
      .updateOne({ _id, tenantId: owner.tenantId }, { $setOnInsert: fields }, { upsert: true })
      .catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error;
      });
  }
}
