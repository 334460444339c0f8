import { AppError, notFound } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import type { Order } from '../domain/order';
import { orderCancelled, orderStatusChanged } from '../domain/order-events';
import { ORDER_STATUS, statusName, transition, type OrderAction } from '../domain/order-status';
import { changeOrder } from './change-order';
import type { OrderingContext, TenantScope } from './context';

const notCancellable = (order: Order) =>
  new AppError(
    'conflict',
    'tenancy.partner_api.order_not_cancellable',
    'The order can no longer be cancelled by its source.',
    { details: { status_detail: { status: statusName(order.status) } } },
  );

const illegalTransition = (order: Order, action: string) =>
  new AppError(
    'conflict',
    'order.invalid_transition',
    `The order cannot be ${action} in status ${statusName(order.status)}.`,
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

/** Tenant order actions, with the words used in their error messages. */
const TENANT_ACTIONS: Record<'accept' | 'reject' | 'complete' | 'cancel', { action: OrderAction; words: string }> = {
  accept: { action: 'accept', words: 'accepted' },
  reject: { action: 'reject', words: 'rejected' },
  complete: { action: 'complete', words: 'completed' },
  cancel: { action: 'cancelByTenant', words: 'cancelled' },
};

export type TenantAction = keyof typeof TENANT_ACTIONS;

/**
 * Accept, reject, complete or cancel, by the tenant (see domain/order-status.ts for what is allowed
 * when; a cancel is allowed from any state but Cancelled). A cancel sends orders.cancelled whatever
 * the previous status; delivery-assignment ends a live assignment on it. The payment is left as
 * recorded (the tenant view shows the refund due).
 */
export async function actAsTenant(
  ctx: OrderingContext,
  tenant: TenantScope,
  orderId: string,
  name: TenantAction,
): Promise<Order> {
  const { action, words } = TENANT_ACTIONS[name];
  return changeOrder(ctx, tenant.tenantId, orderId, (order, now) => {
    const next = transition(order.status, action);
    if (next === undefined) throw illegalTransition(order, words);
    const updated = { ...order, status: next };
    const event =
      next === ORDER_STATUS.Cancelled
        ? orderCancelled(updated, order.status, 'tenant', now)
        : orderStatusChanged(updated, order.status, now);
    return {
      set: {
        status: next,
        ...(next === ORDER_STATUS.Cancelled
          ? { cancellation: { by: 'tenant' as const, idempotencyKey: null, at: now } }
          : {}),
      },
      events: [event],
      by: 'tenant',
    };
  });
}

/**
 * The order's delivery was Delivered: a Pending or Accepted order becomes Completed, by `delivery`,
 * with orders.status-changed. Any other status stays: Completed (by the tenant, or by this same
 * event handled before: a replay changes nothing), Rejected or Cancelled (final; delivery-assignment
 * ends the assignment of such an order itself). Payment is not touched: recording it stays the
 * tenant's and its processor's (usecases/payments.ts). Answers the order's status before, and whether it changed.
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
