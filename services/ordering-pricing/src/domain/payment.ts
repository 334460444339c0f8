import type { ProcessorNotification } from '@marketplace/contracts';
import type { Order } from './order';
import { PAYMENT_METHOD } from './order-status';
import type { PaymentRecord } from './payment-record';

export type { PaymentRecord } from './payment-record';

/** What a `payment.succeeded` notification does to an order. */
export type ProcessorDecision =
  /** The first confirmation by the processor: the order is (or stays) Paid, and `payment.completed` goes out. */
  | { result: 'confirmed' }
  /** The processor had confirmed a payment of this order before, under another event id: kept, announced no more. */
  | { result: 'already_confirmed' }
  /** The notification does not fit the order: nothing changes (422 with this code). */
  | { refused: ProcessorRefusal; message: string };

export type ProcessorRefusal = 'payment.method_not_card' | 'payment.currency_mismatch' | 'payment.amount_mismatch';

export const processorRecords = (order: Pick<Order, 'paymentRecords'>) =>
  (order.paymentRecords ?? []).filter((r): r is Extract<PaymentRecord, { by: 'processor' }> => r.by === 'processor');

/**
 * Whether a processor's confirmation applies to the order. The processor is the one of the tenant's
 * card-on-delivery terminals, so a Cash order is not its to confirm (the tenant records cash by
 * hand); the amount must be the grand total in the order's currency, to the minor unit (a partial
 * or different capture is the tenant's to sort out with the processor, and is refused so that no
 * order shows Paid for less than it costs). The order's status does not matter: a capture is money
 * taken, so a Cancelled or Rejected order that is confirmed becomes Paid and shows its refund due.
 */
export function decideProcessorPayment(
  order: Pick<Order, 'paymentMethod' | 'currencyCode' | 'totals' | 'paymentRecords'>,
  notification: Pick<ProcessorNotification, 'amountMinor' | 'currencyCode'>,
): ProcessorDecision {
  if (order.paymentMethod !== PAYMENT_METHOD.CardOnDelivery)
    return {
      refused: 'payment.method_not_card',
      message: 'The order is not paid by card on delivery; its payment is recorded by the restaurant.',
    };
  if (notification.currencyCode !== order.currencyCode)
    return {
      refused: 'payment.currency_mismatch',
      message: `The order is in ${order.currencyCode}, the notification in ${notification.currencyCode}.`,
    };
  if (notification.amountMinor !== order.totals.grandTotalMinor)
    return {
      refused: 'payment.amount_mismatch',
      message: `The amount (${notification.amountMinor}) is not the order's grand total (${order.totals.grandTotalMinor}), in minor units.`,
    };
  return processorRecords(order).length > 0 ? { result: 'already_confirmed' } : { result: 'confirmed' };
}

/**
 * The decision already taken for a notification whose record the order holds (its processing
 * stopped after the order was written, before the notification was stored): the first processor
 * record was the confirmation, any later one a repeat.
 */
export function decisionRecorded(order: Pick<Order, 'paymentRecords'>, eventId: string): ProcessorDecision | undefined {
  const records = processorRecords(order);
  const index = records.findIndex((r) => r.eventId === eventId);
  if (index < 0) return undefined;
  return index === 0 ? { result: 'confirmed' } : { result: 'already_confirmed' };
}
