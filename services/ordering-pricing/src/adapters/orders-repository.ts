import type { Collection, Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { LiveAssignment } from '../domain/delivery';
import type { Order } from '../domain/order';

/** An order as stored: the order itself, carrying its unpublished events (outbox). */
export type OrderDoc = Order & OutboxFields;

/** Reads leave the outbox out: it is the relay's business, not the order's. */
const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } } as const;

/**
 * The tenant's orders, each carrying its unpublished events (outbox). Every query names the tenant,
 * so another tenant's order is not found.
 */
export class OrdersRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'orders',
    indexes: [
      // listRecent (the tenant's orders, newest first, with or without a status); findById,
      // insertWithEvents, updateWithEvents and setLiveAssignment go by `_id`.
      { key: { tenantId: 1, createdAt: -1 }, name: 'tenant_recent' },
    ],
  };

  private readonly orders: Collection<OrderDoc>;

  constructor(db: Db) {
    this.orders = db.collection(OrdersRepository.storage.collection);
  }

  async findById(owner: TenantOwner, orderId: string): Promise<Order | undefined> {
    return (await this.orders.findOne({ _id: orderId, tenantId: owner.tenantId }, WITHOUT_OUTBOX)) ?? undefined;
  }

  /** The tenant's latest orders (of one status, if given), newest first. */
  async listRecent(owner: TenantOwner, options: { status?: Order['status']; limit: number }): Promise<Order[]> {
    const filter = { tenantId: owner.tenantId, ...(options.status !== undefined ? { status: options.status } : {}) };
    return this.orders.find(filter, WITHOUT_OUTBOX).sort({ createdAt: -1 }).limit(options.limit).toArray();
  }

  /**
   * Stores a new order with its events, in one write: the document as written (for the outbox's
   * flush without a read-back), or null when an order with this id exists already.
   */
  async insertWithEvents(
    owner: TenantOwner,
    order: Order,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<(Order & OutboxFields) | null> {
    if (order.tenantId !== owner.tenantId) throw new Error('the order belongs to another tenant');
    try {
      const written = withOutbox(order, events, now);
      await this.orders.insertOne(written);
      return written;
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  /**
   * Sets the order's live delivery assignment from a `deliveries` event of this revision, unless
   * the order holds this revision or a later one already: one conditional write, so a replayed,
   * repeated or late event changes nothing. False when nothing was set (no such order, or a later
   * revision held). Orders stored before the delivery feature have no revision: any event applies.
   */
  async setLiveAssignment(
    owner: TenantOwner,
    orderId: string,
    live: LiveAssignment | null,
    revision: number,
  ): Promise<boolean> {
    const { matchedCount } = await this.orders.updateOne(
      {
        _id: orderId,
        tenantId: owner.tenantId,
        $or: [{ deliveryRevision: { $lt: revision } }, { deliveryRevision: { $exists: false } }],
      },
      { $set: { liveAssignment: live, deliveryRevision: revision } },
    );
    return matchedCount === 1;
  }

  /** Sets fields of the tenant's order and stages its events, in one write; false when there is no such order. */
  async updateWithEvents(
    owner: TenantOwner,
    orderId: string,
    set: Partial<Order>,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<boolean> {
    // Without events, a plain write: staging none would still mark the outbox as waiting.
    const { matchedCount } = await this.orders.updateOne(
      { _id: orderId, tenantId: owner.tenantId },
      events.length === 0 ? { $set: set } : updateWithOutbox<OrderDoc>({ $set: set }, events, now),
    );
    return matchedCount === 1;
  }
}
