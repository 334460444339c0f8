import { isDuplicateKeyError } from '@marketplace/store';
import type { OrderingCollections } from '../adapters/store';

/** Order numbers start here, so that every number has four digits at least. */
export const FIRST_ORDER_NUMBER = 1001;

/**
 * Order numbers: a tenant's orders are numbered 1001, 1002, … (the order number is a string of
 * digits). Each number is claimed by a unique insert, which decides races between instances
 * exactly; the counter document only says where to start looking, so a lost counter update costs
 * a retry, never a duplicate. A number claimed by a request that then failed stays unused (gaps
 * are possible; duplicates are not).
 */
export async function claimOrderNumber(store: OrderingCollections, tenantId: string, orderId: string): Promise<string> {
  const counter = await store.orderCounters.findOne({ _id: tenantId });
  for (let n = Math.max(counter?.last ?? 0, FIRST_ORDER_NUMBER - 1) + 1; ; n++) {
    try {
      await store.orderNumbers.insertOne({ _id: `${tenantId}:${n}`, orderId });
    } catch (error) {
      if (isDuplicateKeyError(error)) continue;
      throw error;
    }
    await store.orderCounters.updateOne({ _id: tenantId }, { $max: { last: n } }, { upsert: true }).catch(() => undefined);
    return String(n);
  }
}
