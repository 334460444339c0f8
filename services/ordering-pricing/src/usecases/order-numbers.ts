import { isDuplicateKeyError } from '@marketplace/store';
import type { OrderingCollections } from '../adapters/store';

/** Order numbers start here, so that every number has four digits at least. */
export const FIRST_ORDER_NUMBER = 1001;
/** The counter document is written every this many numbers: a restart probes at most this far. */
const COUNTER_EVERY = 10;

/**
 * Order numbers: a tenant's orders are numbered 1001, 1002, … (the order number is a string of
 * digits). Each number is claimed by a unique insert, which decides races between instances
 * exactly. Where to start looking comes from this process's memory, else from the tenant's
 * counter document, which is only a starting point (written every tenth number, so most orders
 * cost one write here). A number claimed by a request that then failed stays unused: gaps are
 * possible, duplicates are not.
 */
export class OrderNumbers {
  private readonly last = new Map<string, number>();

  constructor(private readonly store: OrderingCollections) {}

  async claim(tenantId: string, orderId: string): Promise<string> {
    let start = this.last.get(tenantId);
    if (start === undefined) start = Math.max((await this.store.orderCounters.findOne({ _id: tenantId }))?.last ?? 0, FIRST_ORDER_NUMBER - 1);
    for (let n = start + 1; ; n++) {
      try {
        await this.store.orderNumbers.insertOne({ _id: `${tenantId}:${n}`, orderId });
      } catch (error) {
        if (isDuplicateKeyError(error)) continue;
        throw error;
      }
      if ((this.last.get(tenantId) ?? 0) < n) this.last.set(tenantId, n);
      if (n % COUNTER_EVERY === 0) await this.store.orderCounters.updateOne({ _id: tenantId }, { $max: { last: n } }, { upsert: true }).catch(() => undefined);
      return String(n);
    }
  }
}
