import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage } from '@marketplace/store';

/** Facts about this sender's database (`sending-since`: when it first started). */
export interface MetaDoc {
  _id: string;
  at: Date;
}

const SENDING_SINCE = 'sending-since';

/** Facts about the sender's own database (collection `meta`): owned by the service, not by a tenant. */
export class MetaRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'meta',
    // The unique `_id` (implicit) serves claimSendingSince; nothing else is asked.
    indexes: [],
  };

  private readonly meta: Collection<MetaDoc>;

  constructor(db: Db) {
    this.meta = db.collection(MetaRepository.storage.collection);
  }

  /**
   * When this sender (its database) first started: `now` on the first start, claimed by a unique
   * insert, so that two instances starting together agree; every later start reads it back.
   */
  async claimSendingSince(now: Date): Promise<Date> {
    try {
      await this.meta.insertOne({ _id: SENDING_SINCE, at: now });
      return now;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return (await this.meta.findOne({ _id: SENDING_SINCE }))!.at;
    }
  }
}
