import type { Order } from '../../domain/order';
import { orderStatusChanged } from '../../domain/order-events';
import { ORDER_STATUS, transition } from '../../domain/order-status';
import type { OrderingContext } from '../context';
import { changeOrder } from './change-order';

/**
 * The order's delivery was Delivered: a Pending or Accepted order becomes Completed, by `delivery`,
 * with orders.status-changed. Any other status stays: Completed (by the tenant, or by this same
 * event handled before: a replay changes nothing), Rejected or Cancelled (final; delivery-assignment
 * ends the assignment of such an order itself). Payment is not touched: recording it stays the
 * tenant's and its processor's (usecases/payments/). Answers the order's status before, and whether it changed.
 */
export async function completeByDelivery(
  ctx: OrderingContext,
  owner: { tenantId: string },
  orderId: string,
): Promise<{ previous: Order['status']; completed: boolean }> {
  // What the decision saw, kept for the caller's log (the decision runs under the lock).
  const outcome = { previous: ORDER_STATUS.Pending as Order['status'], completed: false };
  await changeOrder(ctx, owner.tenantId, orderId, (order, now) => {
    outcome.previous = order.status;
    const next = transition(order.status, 'completeByDelivery');
    if (next === undefined) return 'unchanged';
    outcome.completed = true;
    return {
      set: { status: next },
      events: [orderStatusChanged({ ...order, status: next }, order.status, now)],
      by: 'delivery',
    };
  });
  return outcome;
}
