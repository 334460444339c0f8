import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage } from '@marketplace/store';
import type { AccountOwner } from '../domain/provider-callback';

/**
 * The sender's copy of a platform account's webhook signing secret, as provider-delivery hands it
 * over on `provider-events`: sealed under WEBHOOK_SECRET_TRANSPORT_KEY (bound to the account), with
 * the time it was set. Opened for each attempt only.
 */
export interface AccountSecretCopy {
  /** The account id. */
  _id: string;
  sealed: string;
  rotatedAt: Date;
}

/** The copies of the platform accounts' signing secrets (collection `provider_account_secrets`). */
export class AccountSecretsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'provider_account_secrets',
    // The unique `_id` (the account id, implicit) serves findForAccount and saveIfNewer; nothing else is asked.
    indexes: [],
  };

  private readonly secrets: Collection<AccountSecretCopy>;

  constructor(db: Db) {
    this.secrets = db.collection(AccountSecretsRepository.storage.collection);
  }

  /**
   * Keeps the account's secret: it replaces the held copy only when set later (`rotatedAt`), so a
   * replay, a duplicate or an older event read after a newer one changes nothing; the first copy is
   * inserted. True when stored. Events of one account come on several partitions (each delivery's
   * own, and the account's for a rotation), so the update and the insert may race: the unique `_id`
   * keeps one, and the loser tries the update again, which keeps the newer.
   */
  async saveIfNewer(owner: AccountOwner, secret: { sealed: string; rotatedAt: Date }): Promise<boolean> {
    const copy: AccountSecretCopy = { _id: owner.accountId, sealed: secret.sealed, rotatedAt: secret.rotatedAt };
    const replace = async () =>
      (
        await this.secrets.updateOne(
          { _id: copy._id, rotatedAt: { $lt: copy.rotatedAt } },
          { $set: { sealed: copy.sealed, rotatedAt: copy.rotatedAt } },
        )
      ).matchedCount > 0;
    if (await replace()) return true;
    try {
      await this.secrets.insertOne(copy);
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return replace(); // held already: by an older copy (an insert that won the race) or a newer one
    }
  }

  /** The account's newest known secret, undefined when no event of the account was seen yet. */
  async findForAccount(owner: AccountOwner): Promise<AccountSecretCopy | undefined> {
    return (await this.secrets.findOne({ _id: owner.accountId })) ?? undefined;
  }
}
