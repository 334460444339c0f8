import type { Delivery } from '../domain/delivery';
import type { RecentDeliveries } from '../usecases/ports';

/**
 * The deliveries this process wrote last, by order id: a change reads its delivery from here and
 * saves the database read (a provider acts on one order several times in a row: accept, driver,
 * ETA, tracking, status). Never trusted alone: a write from here is a compare-and-set on the
 * version, which fails if another process changed the delivery since, and a refusal decided on
 * it is decided again on the database's copy (usecases/change-delivery.ts). Bounded: the oldest
 * entry goes first.
 */
export class RecentDeliveryCache implements RecentDeliveries {
  private readonly entries = new Map<string, Delivery>();

  constructor(private readonly capacity = 10_000) {}

  get(tenantId: string, orderId: string): Delivery | undefined {
    const delivery = this.entries.get(orderId);
    return delivery?.tenantId === tenantId ? delivery : undefined;
  }

  remember(delivery: Delivery): void {
    this.entries.delete(delivery._id); // re-inserted as the newest
    this.entries.set(delivery._id, delivery);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(orderId: string): void {
    this.entries.delete(orderId);
  }
}
