import { notFound } from '@marketplace/errors';
import type { OutgoingEvent } from '@marketplace/events';
import type { Order } from '../../domain/order';
import { statusName } from '../../domain/order-status';
import type { OrderingContext } from '../context';

/** What a decision changes: fields, the events to publish with them, and who changed the status (history). */
export interface OrderChange {
  set: Partial<Order>;
  events: OutgoingEvent[];
  /** Who made a status change (the order's history); a change of no status needs none. */
  by?: Order['history'][number]['by'];
}

/**
 * Changes an order under its lock (see adapters/order-lock.ts): the decision is taken on the order
 * as read, so no other change may come between the read and the write. The change and its events
 * are one write (outbox), published right after.
 */
export async function changeOrder(
  ctx: OrderingContext,
  tenantId: string,
  orderId: string,
  decide: (order: Order, now: Date) => OrderChange | 'unchanged',
): Promise<Order> {
  return ctx.orderLock.run(orderId, async () => {
    const order = await ctx.store.orders.findById({ tenantId }, orderId);
    if (!order) throw notFound();
    const now = ctx.now();
    const decision = decide(order, now);
    if (decision === 'unchanged') return order;
    const next: Order = { ...order, ...decision.set, updatedAt: now };
    if (decision.set.status !== undefined) {
      if (!decision.by) throw new Error('a status change must name who made it');
      next.history = [...order.history, { status: statusName(next.status), at: now, by: decision.by }];
    }
    await ctx.store.orders.updateWithEvents(
      { tenantId },
      orderId,
      { ...decision.set, updatedAt: now, history: next.history },
      decision.events,
      now,
    );
    if (decision.events.length > 0) await ctx.orderOutbox.flush(orderId);
    return next;
  });
}
