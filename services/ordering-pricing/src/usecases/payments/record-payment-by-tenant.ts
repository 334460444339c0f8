import { AppError } from '@marketplace/errors';
import type { Order } from '../../domain/order';
import { canRecordPayment, PAYMENT_STATUS, statusName } from '../../domain/order-status';
import type { PaymentRecord } from '../../domain/payment';
import type { OrderingContext, TenantScope } from '../context';
import { changeOrder } from '../orders/change-order';

/**
 * The tenant records a payment by hand (cash, or a card payment its processor did not confirm),
 * once, on an order still going ahead; the reason is kept with the order (and the gateway's audit
 * log holds the request). It claims no gateway confirmation, so no `payment.completed` goes out.
 */
export async function recordPaymentByTenant(
  ctx: OrderingContext,
  tenant: TenantScope,
  orderId: string,
  reason: string,
): Promise<Order> {
  return changeOrder(ctx, tenant.tenantId, orderId, (order, now) => {
    if (!canRecordPayment(order.status, order.paymentStatus)) {
      throw new AppError(
        'conflict',
        'order.payment_not_recordable',
        order.paymentStatus === PAYMENT_STATUS.Paid
          ? 'The payment was already recorded.'
          : `No payment can be recorded on an order in status ${statusName(order.status)}.`,
        { details: { status_detail: { status: statusName(order.status) } } },
      );
    }
    const record: PaymentRecord = { by: 'tenant', at: now, reason: reason.trim() };
    return {
      set: { paymentStatus: PAYMENT_STATUS.Paid, paymentRecords: [...(order.paymentRecords ?? []), record] },
      events: [],
    };
  });
}
