import type { OutgoingEvent } from '@marketplace/events';
import type { OrderDoc } from './order';
import { paymentStatusName, statusName, type OrderStatus } from './order-status';

export const ORDERS_TOPIC = 'orders';

/**
 * Events of the `orders` topic (schemas/orders.schema.json), keyed by order id so that one order's
 * events stay in order. Statuses travel as names, as in webhooks; money in minor units with the
 * currency code, as on every topic.
 */
const event = (order: OrderDoc, type: string, data: Record<string, unknown>): OutgoingEvent => ({
  topic: ORDERS_TOPIC,
  key: order._id,
  type,
  data: {
    tenantId: order.tenantId,
    orderId: order._id,
    orderNumber: order.orderNumber,
    status: statusName(order.status),
    sourceInstallationId: order.source.installationId,
    externalOrderId: order.source.externalOrderId,
    ...data,
  },
});

/** Broadcast to every subscribed installation of the tenant (webhook orders.created). */
export function orderCreated(order: OrderDoc): OutgoingEvent {
  const t = order.totals;
  return event(order, 'orders.created', {
    branchId: order.branchId,
    orderMode: order.orderMode,
    paymentMethod: order.paymentMethod,
    paymentStatus: paymentStatusName(order.paymentStatus),
    currencyCode: order.currencyCode,
    subtotalMinor: t.subtotalMinor,
    discountMinor: t.discountMinor,
    taxTotalMinor: t.taxTotalMinor,
    deliveryFeeMinor: t.deliveryFeeMinor,
    serviceFeeMinor: t.serviceFeeMinor,
    grandTotalMinor: t.grandTotalMinor,
    createdAt: order.createdAt.toISOString(),
  });
}

/**
 * The order became Cancelled: the source installation is told (webhook orders.cancelled) and the
 * delivery feature ends a live assignment (the assigned installation gets delivery.cancelled).
 */
export function orderCancelled(order: OrderDoc, previous: OrderStatus, by: 'source' | 'tenant', at: Date): OutgoingEvent {
  return event(order, 'orders.cancelled', { previousStatus: statusName(previous), cancelledBy: by, liveAssignment: order.liveAssignment, changedAt: at.toISOString() });
}

/** Accepted, Rejected or Completed by the tenant: for internal consumers; no webhook (partners poll). */
export function orderStatusChanged(order: OrderDoc, previous: OrderStatus, at: Date): OutgoingEvent {
  return event(order, 'orders.status-changed', { previousStatus: statusName(previous), changedAt: at.toISOString() });
}

/** The tenant recorded the payment (webhook payment.completed, broadcast). */
export function paymentCompleted(order: OrderDoc, at: Date): OutgoingEvent {
  return event(order, 'payment.completed', {
    paymentStatus: paymentStatusName(order.paymentStatus),
    paymentMethod: order.paymentMethod,
    currencyCode: order.currencyCode,
    grandTotalMinor: order.totals.grandTotalMinor,
    changedAt: at.toISOString(),
  });
}
