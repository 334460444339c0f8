/**
 * Order and payment statuses: their integer values (REST) and names (webhooks, logs), and every
 * allowed transition. The spec fixes Pending 1, Completed 6, Rejected 7 and Cancelled 8 and names
 * Accepted; we give Accepted 2. Values 3 to 5 are left free for kitchen states a later version
 * may add, so that the spec's values never move.
 */
export const ORDER_STATUS = { Pending: 1, Accepted: 2, Completed: 6, Rejected: 7, Cancelled: 8 } as const;
export type OrderStatusName = keyof typeof ORDER_STATUS;
export type OrderStatus = (typeof ORDER_STATUS)[OrderStatusName];

/** Unpaid 1 is what a new order has (the spec shows 1 on a new order); Paid 2 once recorded. */
export const PAYMENT_STATUS = { Unpaid: 1, Paid: 2 } as const;
export type PaymentStatusName = keyof typeof PAYMENT_STATUS;
export type PaymentStatus = (typeof PAYMENT_STATUS)[PaymentStatusName];

export const ORDER_MODE = { Delivery: 1, Pickup: 2, DineIn: 3 } as const;
export const PAYMENT_METHOD = { Cash: 1, CardOnDelivery: 2, CardOnline: 3 } as const;

const NAMES = new Map<number, OrderStatusName>(
  Object.entries(ORDER_STATUS).map(([name, value]) => [value, name as OrderStatusName]),
);
export const statusName = (status: OrderStatus): OrderStatusName => NAMES.get(status)!;
export const paymentStatusName = (status: PaymentStatus): PaymentStatusName =>
  status === PAYMENT_STATUS.Paid ? 'Paid' : 'Unpaid';

/** What can happen to an order, and who does it. */
export type OrderAction = 'accept' | 'reject' | 'complete' | 'cancelByTenant' | 'cancelBySource' | 'completeByDelivery';

/**
 * The whole state machine. A source may cancel only while Pending (spec); once the tenant acted,
 * only the tenant can cancel, and the tenant may cancel from any state (spec: "any | tenant
 * cancels"), Completed and Rejected included, so that a restaurant can void an order after the
 * fact (a complaint, a mistake). Cancelled itself is not cancelled again: the tenant API has no
 * Idempotency-Key and every other repeated tenant action is a 409, so is this one, and no second
 * orders.cancelled goes out. A delivery reported Delivered completes its order whether or not the
 * tenant accepted it first: the food has reached the customer, so holding the order open would
 * only leave it for the tenant to close by hand. Completed and Rejected are final for every other
 * action; Cancelled is final for all.
 */
const TRANSITIONS: Record<OrderAction, { from: readonly OrderStatus[]; to: OrderStatus }> = {
  accept: { from: [ORDER_STATUS.Pending], to: ORDER_STATUS.Accepted },
  reject: { from: [ORDER_STATUS.Pending], to: ORDER_STATUS.Rejected },
  complete: { from: [ORDER_STATUS.Accepted], to: ORDER_STATUS.Completed },
  cancelByTenant: {
    from: [ORDER_STATUS.Pending, ORDER_STATUS.Accepted, ORDER_STATUS.Completed, ORDER_STATUS.Rejected],
    to: ORDER_STATUS.Cancelled,
  },
  cancelBySource: { from: [ORDER_STATUS.Pending], to: ORDER_STATUS.Cancelled },
  completeByDelivery: { from: [ORDER_STATUS.Pending, ORDER_STATUS.Accepted], to: ORDER_STATUS.Completed },
};

/** The status after the action, or undefined when the action is not allowed from `current`. */
export function transition(current: OrderStatus, action: OrderAction): OrderStatus | undefined {
  const rule = TRANSITIONS[action];
  return rule.from.includes(current) ? rule.to : undefined;
}

/** Statuses from which the action is allowed (for documentation and error messages). */
export const allowedFrom = (action: OrderAction): readonly OrderStatus[] => TRANSITIONS[action].from;

/**
 * Payment can be recorded once, on an order that is still going ahead (Pending, Accepted or
 * Completed): a rejected or cancelled order takes no payment.
 */
export function canRecordPayment(status: OrderStatus, payment: PaymentStatus): boolean {
  return (
    payment === PAYMENT_STATUS.Unpaid &&
    (status === ORDER_STATUS.Pending || status === ORDER_STATUS.Accepted || status === ORDER_STATUS.Completed)
  );
}

/**
 * What the restaurant owes the customer back, in minor units: the grand total of a Paid order that
 * did not go ahead (Cancelled, from any state, or Rejected), else 0. The platform moves no money
 * (payment is cash or card on delivery, recorded by the tenant), so a cancel keeps the payment as
 * recorded (Paid stays Paid: the money was taken) and this amount tells the tenant a refund is
 * due; refunding happens outside the platform. Derived, not stored: no payment can be recorded on
 * a Rejected or Cancelled order (canRecordPayment), so the amount cannot go stale.
 */
export function refundDueMinor(status: OrderStatus, payment: PaymentStatus, grandTotalMinor: number): number {
  const ended = status === ORDER_STATUS.Cancelled || status === ORDER_STATUS.Rejected;
  return ended && payment === PAYMENT_STATUS.Paid ? grandTotalMinor : 0;
}
