import { AppError } from '@marketplace/errors';
import type { Order } from '../../domain/order';
import { orderCancelled, orderStatusChanged } from '../../domain/order-events';
import { ORDER_STATUS, statusName, transition, type OrderAction } from '../../domain/order-status';
import type { OrderingContext, TenantScope } from '../context';
import { changeOrder } from './change-order';

const illegalTransition = (order: Order, action: string) =>
  new AppError(
    'conflict',
    'order.invalid_transition',
    `The order cannot be ${action} in status ${statusName(order.status)}.`,
    { details: { status_detail: { status: statusName(order.status) } } },
  );

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
