import { AppError, notFound } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import type { Order } from '../../domain/order';
import { orderCancelled } from '../../domain/order-events';
import { statusName, transition } from '../../domain/order-status';
import type { OrderingContext } from '../context';
import { changeOrder } from './change-order';

const notCancellable = (order: Order) =>
  new AppError(
    'conflict',
    'tenancy.partner_api.order_not_cancellable',
    'The order can no longer be cancelled by its source.',
    { details: { status_detail: { status: statusName(order.status) } } },
  );

/**
 * POST /orders/{orderId}/cancel by the source: only the installation that created the order (any
 * other is told the order does not exist), only while Pending. The same request repeated (same
 * Idempotency-Key) after it succeeded answers the same again.
 */
export async function cancelBySource(ctx: OrderingContext, caller: PartnerIdentity, orderId: string): Promise<Order> {
  return changeOrder(ctx, caller.tenantId, orderId, (order, now) => {
    if (order.source.installationId !== caller.installationId) throw notFound();
    const repeat =
      order.cancellation?.by === 'source' &&
      caller.idempotencyKey !== undefined &&
      order.cancellation.idempotencyKey === caller.idempotencyKey;
    if (repeat) return 'unchanged';
    const next = transition(order.status, 'cancelBySource');
    if (next === undefined) throw notCancellable(order);
    const updated = { ...order, status: next };
    return {
      set: { status: next, cancellation: { by: 'source', idempotencyKey: caller.idempotencyKey ?? null, at: now } },
      events: [orderCancelled(updated, order.status, 'source', now)],
      by: 'source',
    };
  });
}
