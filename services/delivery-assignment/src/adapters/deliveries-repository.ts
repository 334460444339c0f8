import type { Collection, Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, type OutboxFields } from '@marketplace/outbox';
import {
  isDuplicateKeyError,
  type InstallationOwner,
  type RepositoryStorage,
  type TenantOwner,
} from '@marketplace/store';
import type { Delivery } from '../domain/delivery';
import type { PartnerRequest } from '../domain/partner-requests';

/** An order's delivery as stored, carrying its unpublished events (outbox). */
export type DeliveryDoc = Delivery & OutboxFields;

const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } } as const;

/**
 * One document per order of the tenant (`_id` the order id): the order's facts, its live assignment
 * and the ended ones. Every query names the tenant, so another tenant's order is not found. Every
 * change is a compare-and-set on `version`, so two changes of one order never both apply.
 */
export class DeliveriesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'deliveries',
    // Every order's query goes by `_id` (the order id). A partner's Idempotency-Key is looked up
    // across the orders (the key is the installation's, not the order's): multikey on the records'
    // id; the sweep of expired records by their expiry. No TTL index: the service prunes.
    indexes: [
      { key: { 'partnerRequests.id': 1 }, name: 'partner_requests' },
      { key: { 'partnerRequests.expiresAt': 1 }, name: 'partner_requests_expiry' },
    ],
  };

  private readonly deliveries: Collection<DeliveryDoc>;

  constructor(db: Db) {
    this.deliveries = db.collection(DeliveriesRepository.storage.collection);
  }

  async findByOrder(owner: TenantOwner, orderId: string): Promise<Delivery | undefined> {
    return (await this.deliveries.findOne({ _id: orderId, tenantId: owner.tenantId }, WITHOUT_OUTBOX)) ?? undefined;
  }

  /**
   * The installation's unexpired record of a partner request (`id` from partnerRequestId, which
   * holds the installation), on whichever of the tenant's orders it was made.
   */
  async findPartnerRequest(owner: InstallationOwner, id: string, now: Date): Promise<PartnerRequest | undefined> {
    if (!id.startsWith(`${owner.installationId}:`)) throw new Error('the request id belongs to another installation');
    const doc = await this.deliveries.findOne(
      { 'partnerRequests.id': id, tenantId: owner.tenantId },
      { projection: { partnerRequests: 1 } },
    );
    return doc?.partnerRequests?.find((r) => r.id === id && r.expiresAt > now);
  }

  /**
   * The periodic sweep of every tenant's partner requests past their retention: a system task, no
   * owner. It leaves `version` alone: a change decided before it writes the records it read back,
   * expired ones included, which lookups ignore and the next write or sweep drops.
   */
  async deleteExpiredPartnerRequests(now: Date): Promise<number> {
    const { modifiedCount } = await this.deliveries.updateMany(
      { 'partnerRequests.expiresAt': { $lte: now } },
      { $pull: { partnerRequests: { expiresAt: { $lte: now } } } },
    );
    return modifiedCount;
  }

  /** Stores the delivery of an order seen for the first time; false when it is stored already. */
  async insert(owner: TenantOwner, delivery: Delivery): Promise<boolean> {
    if (delivery.tenantId !== owner.tenantId) throw new Error('the delivery belongs to another tenant');
    try {
      await this.deliveries.insertOne(delivery);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /**
   * Writes `next` and stages its events if the stored delivery is still at `next.version - 1`;
   * false when another change came first (read again and decide again).
   */
  async replaceIfUnchanged(
    owner: TenantOwner,
    next: Delivery,
    events: readonly OutgoingEvent[],
    now: Date,
  ): Promise<boolean> {
    if (next.tenantId !== owner.tenantId) throw new Error('the delivery belongs to another tenant');
    const { _id, ...fields } = next;
    const { matchedCount } = await this.deliveries.updateOne(
      { _id, tenantId: owner.tenantId, version: next.version - 1 },
      updateWithOutbox<DeliveryDoc>({ $set: fields }, events, now),
    );
    return matchedCount === 1;
  }
}
