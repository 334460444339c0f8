import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage } from '@marketplace/store';
import type { AccountOwner } from '../domain/platform-account';

/** A platform API key as stored: the secret only as its keyed hash. `_id` is the key id. */
export interface PlatformApiKeyDoc {
  _id: string;
  accountId: string;
  hash: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** What the rest of the service sees of a key. */
export interface StoredApiKey {
  keyId: string;
  accountId: string;
  hash: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

const keyOf = ({ _id, ...rest }: PlatformApiKeyDoc): StoredApiKey => ({ keyId: _id, ...rest });

/** The platform accounts' API keys, collection `platform_api_keys`. */
export class ApiKeysRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'platform_api_keys',
    indexes: [
      // The unique `_id` (implicit) serves insert, findByIdAcrossAccounts, find and revoke.
      // listForAccount and expireOthers: the account's keys, newest first.
      { key: { accountId: 1, createdAt: -1 }, name: 'account_created' },
    ],
  };

  private readonly keys: Collection<PlatformApiKeyDoc>;

  constructor(db: Db) {
    this.keys = db.collection(ApiKeysRepository.storage.collection);
  }

  async insert(owner: AccountOwner, key: Omit<StoredApiKey, 'accountId'>): Promise<void> {
    const { keyId, ...rest } = key;
    await this.keys.insertOne({ _id: keyId, ...rest, accountId: owner.accountId });
  }

  /**
   * Authentication: the key id is all a request brings (the key says whose it is) and it is
   * globally unique, so this lookup has no owner.
   */
  async findByIdAcrossAccounts(keyId: string): Promise<StoredApiKey | undefined> {
    const doc = await this.keys.findOne({ _id: keyId });
    return doc ? keyOf(doc) : undefined;
  }

  async find(owner: AccountOwner, keyId: string): Promise<StoredApiKey | undefined> {
    const doc = await this.keys.findOne({ _id: keyId, accountId: owner.accountId });
    return doc ? keyOf(doc) : undefined;
  }

  /** The account's keys, newest first (at most 1,000: keys are minted by hand). */
  async listForAccount(owner: AccountOwner): Promise<StoredApiKey[]> {
    const docs = await this.keys.find({ accountId: owner.accountId }).sort({ createdAt: -1 }).limit(1_000).toArray();
    return docs.map(keyOf);
  }

  /** Revokes the key if it is not revoked yet; false when it was revoked already or is not the account's. */
  async revoke(owner: AccountOwner, keyId: string, revokedAt: Date): Promise<boolean> {
    const { matchedCount } = await this.keys.updateOne(
      { _id: keyId, accountId: owner.accountId, revokedAt: null },
      { $set: { revokedAt } },
    );
    return matchedCount === 1;
  }

  /**
   * Rotation: every unrevoked key of the account but `except` expires at `end`, or keeps its own
   * earlier expiry. The keys ended since are left alone.
   */
  async expireOthers(owner: AccountOwner, except: string, end: Date): Promise<void> {
    const others = { accountId: owner.accountId, _id: { $ne: except }, revokedAt: null };
    await this.keys.updateMany({ ...others, expiresAt: null }, { $set: { expiresAt: end } });
    await this.keys.updateMany({ ...others, expiresAt: { $gt: end } }, { $set: { expiresAt: end } });
  }
}
