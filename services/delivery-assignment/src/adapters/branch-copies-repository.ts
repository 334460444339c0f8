import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';

/** What a pickup snapshot needs of a branch (from the catalog topic). */
export interface BranchCopyDoc {
  /** The branch id. */
  _id: string;
  tenantId: string;
  /** The catalog's sequence of the change this copy is from. */
  sequence: number;
  deleted: boolean;
  name: string;
  /** One line (see branchAddressLine in @marketplace/contracts); '' without an address. */
  address: string;
  latitude: number | null;
  longitude: number | null;
  externalLocationId: string | null;
}

/** The tenant's branches, as the catalog topic last described each. */
export class BranchCopiesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'branch_copies',
    // find and saveIfNewer go by `_id`.
    indexes: [],
  };

  private readonly branches: Collection<BranchCopyDoc>;

  constructor(db: Db) {
    this.branches = db.collection(BranchCopiesRepository.storage.collection);
  }

  async find(owner: TenantOwner, branchId: string): Promise<BranchCopyDoc | undefined> {
    return (await this.branches.findOne({ _id: branchId, tenantId: owner.tenantId })) ?? undefined;
  }

  /** Keeps the branch unless a later catalog sequence is held (replays change nothing). */
  async saveIfNewer(owner: TenantOwner, doc: BranchCopyDoc): Promise<void> {
    if (doc.tenantId !== owner.tenantId) throw new Error('the branch belongs to another tenant');
    const { _id, ...fields } = doc;
    const { matchedCount } = await this.branches.updateOne(
      { _id, tenantId: owner.tenantId, sequence: { $lt: doc.sequence } },
      { $set: fields },
    );
    if (matchedCount === 1) return;
    // Held already (with this revision or a later one), or new: insert it. A racing insert of the
    // same snapshot (a rebalance handing the partition over) is the same write.
    await this.branches
      .updateOne({ _id, tenantId: owner.tenantId }, { $setOnInsert: fields }, { upsert: true })
      .catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error;
      });
  }
}
