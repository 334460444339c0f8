import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';

/**
 * A payment processor's notification as it was answered, so that the same event sent again (the
 * processor retries until it gets a 2xx, and may retry after one) gets the same answer and changes
 * nothing. Kept as long as the order: one small document per payment.
 */
export interface PaymentNotificationDoc {
  /** `<tenantId>:<eventId>`: the processor's event ids are unique per processor, so per tenant. */
  _id: string;
  tenantId: string;
  eventId: string;
  orderId: string;
  /** Of the notification's canonical JSON: the same id with another body is refused (409). */
  fingerprint: string;
  status: number;
  body: Record<string, unknown>;
  receivedAt: Date;
}

export type StoredAnswer = Pick<PaymentNotificationDoc, 'fingerprint' | 'status' | 'body'>;

/** The tenant's payment processor notifications, by event id. */
export class PaymentNotificationsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'payment_notifications',
    // Both methods go by `_id` (tenant and event id).
    indexes: [],
  };

  private readonly notifications: Collection<PaymentNotificationDoc>;

  constructor(db: Db) {
    this.notifications = db.collection(PaymentNotificationsRepository.storage.collection);
  }

  async find(owner: TenantOwner, eventId: string): Promise<StoredAnswer | undefined> {
    const doc = await this.notifications.findOne({ _id: `${owner.tenantId}:${eventId}`, tenantId: owner.tenantId });
    return doc ? { fingerprint: doc.fingerprint, status: doc.status, body: doc.body } : undefined;
  }

  /**
   * Stores the answer given to the event; when one was stored first (the same event handled at the
   * same moment for another order, which the order lock does not serialize), answers that one.
   */
  async save(
    owner: TenantOwner,
    record: Omit<PaymentNotificationDoc, '_id' | 'tenantId'>,
  ): Promise<StoredAnswer | undefined> {
    try {
      await this.notifications.insertOne({
        _id: `${owner.tenantId}:${record.eventId}`,
        tenantId: owner.tenantId,
        ...record,
      });
      return undefined;
    } catch (error) {
      if (isDuplicateKeyError(error)) return this.find(owner, record.eventId);
      throw error;
    }
  }
}
