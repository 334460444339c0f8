import type { Collection, Db } from 'mongodb';
import type { InstallationOwner, RepositoryStorage } from '@marketplace/store';
import type { OAuthStateDoc } from './documents';

/** Pending OAuth2 authorizations, collection `oauth_states` (`_id` is the state's SHA-256). */
export class OAuthStatesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'oauth_states',
    indexes: [
      // The unique `_id` (implicit) serves insert and takeByStateHashAcrossTenants.
      // deleteExpired (a range on one field). No TTL index: the service prunes (usecases/prune-expired-records.ts).
      { key: { expiresAt: 1 }, name: 'expires' },
      // deleteForInstallation.
      { key: { installationId: 1 }, name: 'installation' },
    ],
  };

  private readonly states: Collection<OAuthStateDoc>;

  constructor(db: Db) {
    this.states = db.collection(OAuthStatesRepository.storage.collection);
  }

  async insert(owner: InstallationOwner, state: Omit<OAuthStateDoc, 'tenantId' | 'installationId'>): Promise<void> {
    await this.states.insertOne({ ...state, tenantId: owner.tenantId, installationId: owner.installationId });
  }

  /**
   * Single use: removes the state and returns it. The partner's callback brings only the state
   * (a secret, globally unique), which names its installation, so this lookup has no owner.
   */
  async takeByStateHashAcrossTenants(stateHash: string): Promise<OAuthStateDoc | undefined> {
    return (await this.states.findOneAndDelete({ _id: stateHash })) ?? undefined;
  }

  /** Ends the installation's pending authorizations (disconnect, uninstall). */
  async deleteForInstallation(owner: InstallationOwner): Promise<number> {
    const { deletedCount } = await this.states.deleteMany({
      installationId: owner.installationId,
      tenantId: owner.tenantId,
    });
    return deletedCount;
  }

  /** The periodic sweep of every installation's expired states: a system task, no owner. */
  async deleteExpired(now: Date): Promise<number> {
    const { deletedCount } = await this.states.deleteMany({ expiresAt: { $lte: now } });
    return deletedCount;
  }
}
