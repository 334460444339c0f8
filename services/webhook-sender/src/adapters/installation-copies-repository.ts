import type { Collection, Db } from 'mongodb';
import {
  isDuplicateKeyError,
  type InstallationOwner,
  type RepositoryStorage,
  type TenantOwner,
} from '@marketplace/store';
import type { InstallationCopy } from '../domain/installation';

/** An installation copy as stored: the domain's InstallationCopy, as it is. */
export type InstallationCopyDoc = InstallationCopy;

/** The sender's copy of the installations (collection `installations`, see domain/installation.ts). */
export class InstallationCopiesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'installations',
    indexes: [
      // The unique `_id` (implicit) serves findForTenant and saveIfNewer.
      // listForTenant: the tenant's installations.
      { key: { tenantId: 1 }, name: 'tenant' },
    ],
  };

  private readonly installations: Collection<InstallationCopyDoc>;

  constructor(db: Db) {
    this.installations = db.collection(InstallationCopiesRepository.storage.collection);
  }

  /**
   * Keeps a snapshot of the installation: it replaces the held copy unless that one has the same
   * or a higher revision (replays and duplicates change nothing); the first snapshot is inserted.
   * True when the snapshot was stored. One installation's events are on one partition, handled one
   * at a time, so the update and the insert never race; should they, the unique `_id` keeps one.
   */
  async saveIfNewer(owner: InstallationOwner, snapshot: Omit<InstallationCopy, '_id' | 'tenantId'>): Promise<boolean> {
    const copy: InstallationCopy = { ...snapshot, _id: owner.installationId, tenantId: owner.tenantId };
    const { matchedCount } = await this.installations.updateOne(
      { _id: copy._id, tenantId: copy.tenantId, revision: { $lt: copy.revision } },
      { $set: copy },
    );
    if (matchedCount > 0) return true;
    try {
      await this.installations.insertOne(copy);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false; // the same or a later revision is held already
      throw error;
    }
  }

  /** One installation of the tenant (another tenant's is undefined: the tenant is in the filter). */
  async findForTenant(owner: TenantOwner, installationId: string): Promise<InstallationCopy | undefined> {
    return (await this.installations.findOne({ _id: installationId, tenantId: owner.tenantId })) ?? undefined;
  }

  /** The sandbox's failures ahead (replacing what was left); only on a copy already held (no upsert). */
  async setSandboxFailures(owner: InstallationOwner, times: number): Promise<boolean> {
    const { matchedCount } = await this.installations.updateOne(
      { _id: owner.installationId, tenantId: owner.tenantId },
      { $set: { sandboxFailuresLeft: times } },
    );
    return matchedCount > 0;
  }

  async takeSandboxFailure(owner: InstallationOwner): Promise<boolean> {
    const { modifiedCount } = await this.installations.updateOne(
      { _id: owner.installationId, tenantId: owner.tenantId, sandboxFailuresLeft: { $gt: 0 } },
      { $inc: { sandboxFailuresLeft: -1 } },
    );
    return modifiedCount > 0;
  }

  /** Every installation of the tenant (a handful: the apps it installed). */
  async listForTenant(owner: TenantOwner): Promise<InstallationCopy[]> {
    return this.installations.find({ tenantId: owner.tenantId }).toArray();
  }
}
