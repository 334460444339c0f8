import { PAYMENT_SUCCEEDED, type ProcessorNotification } from '@marketplace/contracts';
import { AppError } from '@marketplace/errors';
import { requestFingerprint } from '@marketplace/http';
import type { StoredAnswer } from '../../adapters/payment-notifications-repository';
import type { Order } from '../../domain/order';
import { paymentCompleted } from '../../domain/order-events';
import { PAYMENT_STATUS } from '../../domain/order-status';
import {
  decideProcessorPayment,
  decisionRecorded,
  type PaymentRecord,
  type ProcessorDecision,
  type ProcessorRefusal,
} from '../../domain/payment';
import type { OrderingContext, TenantScope } from '../context';
import { changeOrder } from '../orders/change-order';

/**
 * Payments. The platform moves no money: customers pay cash or by card on delivery. A card payment
 * is confirmed by the tenant's payment processor (a signed notification, authenticated by the
 * gateway), which marks the order Paid and sends `payment.completed`, the Partner API's
 * "gateway-confirmed payment transition". The tenant may record a payment by hand, with a reason:
 * an audited override that marks the order Paid and sends nothing.
 */

/** The answer to a processor notification: what the processor gets back, the same every time it sends the event. */
export interface ProcessorAnswer {
  status: number;
  body: Record<string, unknown>;
}

const eventConflict = () =>
  new AppError(
    'conflict',
    'payment.event_conflict',
    'This event id was received before with another body; an event id names one notification.',
  );

/** A refusal as an error (422), each code spelled out so that the documents' code scan reads it. */
function refusalError(code: ProcessorRefusal, message: string): AppError {
  switch (code) {
    case 'payment.method_not_card':
      return new AppError('unprocessable', 'payment.method_not_card', message);
    case 'payment.currency_mismatch':
      return new AppError('unprocessable', 'payment.currency_mismatch', message);
    case 'payment.amount_mismatch':
      return new AppError('unprocessable', 'payment.amount_mismatch', message);
  }
}

/** A stored answer again: a refusal is thrown again, so it goes out in the same shape. */
function replay(stored: StoredAnswer, fingerprint: string): ProcessorAnswer {
  if (stored.fingerprint !== fingerprint) throw eventConflict();
  if (stored.status >= 400) {
    const { code, message } = stored.body as { code: ProcessorRefusal; message: string };
    throw refusalError(code, message);
  }
  return { status: stored.status, body: stored.body };
}

function answerOf(notification: ProcessorNotification, order: Order, decision: ProcessorDecision): ProcessorAnswer {
  if ('refused' in decision) return { status: 422, body: { code: decision.refused, message: decision.message } };
  return {
    status: 200,
    body: {
      eventId: notification.eventId,
      result: decision.result,
      orderId: order._id,
      orderNumber: order.orderNumber,
      paymentStatus: PAYMENT_STATUS.Paid,
    },
  };
}

/**
 * A notification from the tenant's payment processor (see ProcessorNotification). `payment.succeeded`
 * marks the order Paid; the first confirmation of an order sends `payment.completed` (with the order
 * change, in one write). Idempotent by the processor's event id: the answer is stored, and the same
 * event again gets it again; the same id with another body is 409. Every other type is acknowledged
 * and changes nothing (a processor sends many; none of them is ours to act on).
 */
export async function confirmPaymentByProcessor(
  ctx: OrderingContext,
  tenant: TenantScope,
  notification: ProcessorNotification,
): Promise<ProcessorAnswer> {
  if (notification.type !== PAYMENT_SUCCEEDED)
    return { status: 200, body: { eventId: notification.eventId, result: 'ignored' } };
  const owner = { tenantId: tenant.tenantId };
  const fingerprint = requestFingerprint('POST', 'processor-notification', notification);
  const stored = await ctx.store.paymentNotifications.find(owner, notification.eventId);
  if (stored) return replay(stored, fingerprint);

  const decided = await applyToOrder(ctx, tenant, notification);
  if (decided.status === 422 || (decided.body.result as string) === 'already_confirmed')
    ctx.logger.warn(
      {
        tenantId: tenant.tenantId,
        orderId: notification.orderId,
        eventId: notification.eventId,
        outcome: decided.body.code ?? decided.body.result,
      },
      'payment processor notification not applied as a first confirmation',
    );
  const first = await ctx.store.paymentNotifications.save(owner, {
    eventId: notification.eventId,
    orderId: notification.orderId,
    fingerprint,
    status: decided.status,
    body: decided.body,
    receivedAt: ctx.now(),
  });
  return replay(first ?? { fingerprint, ...decided }, fingerprint);
}

/** Decides on the order as read, under its lock, and writes the payment if it applies: the answer to give. */
async function applyToOrder(
  ctx: OrderingContext,
  tenant: TenantScope,
  notification: ProcessorNotification,
): Promise<ProcessorAnswer> {
  let answer: ProcessorAnswer | undefined;
  await changeOrder(ctx, tenant.tenantId, notification.orderId, (order, now) => {
    // The order holds this event already when an earlier try stopped before storing its answer.
    const recorded = decisionRecorded(order, notification.eventId);
    const decision = recorded ?? decideProcessorPayment(order, notification);
    answer = answerOf(notification, order, decision);
    if (recorded || 'refused' in decision) return 'unchanged';
    const record: PaymentRecord = {
      by: 'processor',
      at: now,
      eventId: notification.eventId,
      paymentReference: notification.paymentReference,
      amountMinor: notification.amountMinor,
      occurredAt: new Date(notification.occurredAt),
    };
    const paid: Order = { ...order, paymentStatus: PAYMENT_STATUS.Paid };
    return {
      set: { paymentStatus: PAYMENT_STATUS.Paid, paymentRecords: [...(order.paymentRecords ?? []), record] },
      events: decision.result === 'confirmed' ? [paymentCompleted(paid, now)] : [],
    };
  });
  return answer!;
}
