import { TOPICS, type EventTypeOf, type OrderEvent as OrderEventData } from '@marketplace/contracts';
import type { Order } from './order';
import { paymentStatusName, statusName, type OrderStatus } from './order-status';

/**
 * One event to stage in the outbox: the shape `@marketplace/events` publishes on the orders topic
 * (its `OutgoingEvent<PlatformTopics, 'orders'>`), spelled out here from the contracts so that the
 * domain loads no Kafka client; the use cases hand it to the outbox. Its data is the schema's type:
 * an event that drifts from schemas/orders.schema.json does not compile.
 */
export interface OrderEvent {
  topic: typeof TOPICS.orders;
  key: string;
  type: EventTypeOf<typeof TOPICS.orders>;
  data: OrderEventData;
}

/** What every order event carries (see `event`); the rest depends on the event type. */
type Identifiers = 'tenantId' | 'orderId' | 'orderNumber' | 'status' | 'sourceInstallationId' | 'externalOrderId';

/**
 * Events of the `orders` topic (schemas/orders.schema.json), keyed by order id so that one order's
 * events stay in order. Statuses travel as names, as in webhooks; money in minor units with the
 * currency code, as on every topic.
 */
const event = (order: Order, type: OrderEvent['type'], data: Omit<OrderEventData, Identifiers>): OrderEvent => ({
  topic: TOPICS.orders,
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

/**
 * Broadcast to every subscribed installation of the tenant (webhook orders.created). A Delivery
 * order carries its drop-off sealed (`dropoffSealed`, made by the use case with the transport key):
 * what delivery-assignment hands a delivery provider, unreadable to anyone else on the topic.
 */
export function orderCreated(order: Order, dropoffSealed?: string): OrderEvent {
  const t = order.totals;
  return event(order, 'orders.created', {
    ...(dropoffSealed === undefined ? {} : { dropoffSealed }),
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
export function orderCancelled(order: Order, previous: OrderStatus, by: 'source' | 'tenant', at: Date): OrderEvent {
  return event(order, 'orders.cancelled', {
    previousStatus: statusName(previous),
    cancelledBy: by,
    // The orders topic names the assignment only; its status and pickup are delivery-assignment's.
    liveAssignment: order.liveAssignment && {
      installationId: order.liveAssignment.installationId,
      assignmentId: order.liveAssignment.assignmentId,
    },
    changedAt: at.toISOString(),
  });
}

/**
 * Accepted, Rejected or Completed by the tenant, or Completed by a delivery: for internal
 * consumers; no webhook (partners poll).
 */
export function orderStatusChanged(order: Order, previous: OrderStatus, at: Date): OrderEvent {
  return event(order, 'orders.status-changed', { previousStatus: statusName(previous), changedAt: at.toISOString() });
}

/**
 * The tenant's payment processor confirmed the order's payment, for the first time (webhook
 * payment.completed, broadcast: the Partner API's gateway-confirmed payment transition).
 */
export function paymentCompleted(order: Order, at: Date): OrderEvent {
  return event(order, 'payment.completed', {
    paymentStatus: paymentStatusName(order.paymentStatus),
    paymentMethod: order.paymentMethod,
    currencyCode: order.currencyCode,
    grandTotalMinor: order.totals.grandTotalMinor,
    changedAt: at.toISOString(),
  });
}
