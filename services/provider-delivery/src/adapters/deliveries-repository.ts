import type { Collection, Db } from 'mongodb';
import type { ProviderStatusName } from '@marketplace/contracts';
import type { RepositoryStorage } from '@marketplace/store';
import type { AccountOwner } from '../domain/platform-account';

/**
 * A delivery received through the provider contract, as far as this issue goes: its account, its
 * status and when we observed it. Creating deliveries arrives with its own issue; until then the
 * collection is empty and every read is a 404.
 */
export interface DeliveryDoc {
  /** Our providerDeliveryId. */
  _id: string;
  accountId: string;
  status: ProviderStatusName;
  statusEventTimeUtc: Date;
}

export interface DeliveryStatus {
  providerDeliveryId: string;
  status: ProviderStatusName;
  eventTimeUtc: Date;
}

/** Collection `deliveries`: every read names the account, so another account's delivery is not found. */
export class DeliveriesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'deliveries',
    // Every query goes by `_id` (with the account): no other index.
    indexes: [],
  };

  private readonly deliveries: Collection<DeliveryDoc>;

  constructor(db: Db) {
    this.deliveries = db.collection(DeliveriesRepository.storage.collection);
  }

  async findStatus(owner: AccountOwner, providerDeliveryId: string): Promise<DeliveryStatus | undefined> {
    const doc = await this.deliveries.findOne({ _id: providerDeliveryId, accountId: owner.accountId });
    return doc ? { providerDeliveryId: doc._id, status: doc.status, eventTimeUtc: doc.statusEventTimeUtc } : undefined;
  }
}
