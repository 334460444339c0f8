import type { Collection, Db } from 'mongodb';
import type { InstallationOwner, RepositoryStorage } from '@marketplace/store';
import type { ApiKeyDoc } from './documents';

/** The installations' API keys, collection `api_keys` (`_id` is the key id; the secret is only hashed). */
export class ApiKeysRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'api_keys',
    indexes: [
      // The unique `_id` (implicit) serves insert, findByIdAcrossTenants and revoke (`$in` on `_id`).
      // listActiveIds, listActive and expire: the installation's active keys.
      { key: { installationId: 1, status: 1 }, name: 'installation_status' },
    ],
  };

  private readonly keys: Collection<ApiKeyDoc>;

  constructor(db: Db) {
    this.keys = db.collection(ApiKeysRepository.storage.collection);
  }

  async insert(owner: InstallationOwner, key: Omit<ApiKeyDoc, 'tenantId' | 'installationId'>): Promise<void> {
    await this.keys.insertOne({ ...key, tenantId: owner.tenantId, installationId: owner.installationId });
  }

  /**
   * Authentication: the key id is all a request brings (the key says whose it is), and it is
   * globally unique, so this lookup has no owner.
   */
  async findByIdAcrossTenants(keyId: string): Promise<ApiKeyDoc | undefined> {
    return (await this.keys.findOne({ _id: keyId })) ?? undefined;
  }

  /** The ids of the installation's active keys, but `except`. */
  async listActiveIds(owner: InstallationOwner, except?: string): Promise<string[]> {
    const keys = await this.keys
      .find(
        { installationId: owner.installationId, tenantId: owner.tenantId, status: 'active' },
        { projection: { _id: 1 } },
      )
      .toArray();
    return keys.map((k) => k._id).filter((id) => id !== except);
  }

  /** The installation's active keys (some may have an expiry, after a rotation with an overlap). */
  async listActive(owner: InstallationOwner): Promise<ApiKeyDoc[]> {
    return this.keys
      .find({ installationId: owner.installationId, tenantId: owner.tenantId, status: 'active' })
      .toArray();
  }

  /**
   * These active keys of the installation stop working at `end`, or at their own earlier expiry:
   * only a key without an expiry or with a later one is changed. Returns how many changed.
   */
  async expire(owner: InstallationOwner, keyIds: readonly string[], end: Date): Promise<number> {
    if (keyIds.length === 0) return 0;
    const { modifiedCount } = await this.keys.updateMany(
      {
        _id: { $in: [...keyIds] },
        installationId: owner.installationId,
        tenantId: owner.tenantId,
        status: 'active',
        $or: [{ expiresAt: null }, { expiresAt: { $gt: end } }],
      },
      { $set: { expiresAt: end } },
    );
    return modifiedCount;
  }

  /** Marks these keys of the installation revoked. */
  async revoke(owner: InstallationOwner, keyIds: readonly string[], revokedAt: Date): Promise<number> {
    if (keyIds.length === 0) return 0;
    const { matchedCount } = await this.keys.updateMany(
      { _id: { $in: [...keyIds] }, installationId: owner.installationId, tenantId: owner.tenantId },
      { $set: { status: 'revoked', revokedAt } },
    );
    return matchedCount;
  }
}
