import type { OrderEvent } from '@marketplace/contracts';
import type { Delivery } from '../domain/delivery';
import { orderStatusChanged } from '../domain/rules';
import { changeDelivery } from './change-delivery';
import type { DeliveryContext } from './context';

/** The order events this service reads. */
export type OrderEventType = 'orders.created' | 'orders.status-changed' | 'orders.cancelled' | 'payment.completed';

/**
 * The orders copy: orders.created stores the order's delivery; a later status may end its live
 * assignment. Idempotent by itself (an insert under the order id, a status already held), so
 * repeats change nothing.
 */
export async function applyOrderEvent(ctx: DeliveryContext, type: OrderEventType, order: OrderEvent): Promise<void> {
  if (type === 'orders.created') return storeDelivery(ctx, order);
  if (type === 'payment.completed') return;
  const tenant = { tenantId: order.tenantId };
  const decision = await changeDelivery<object, null>(ctx, tenant, order.orderId, (delivery, now) => {
    // An order created before this service read the topic (started at its end) has no delivery here.
    const change = delivery && orderStatusChanged(delivery, order.status, now);
    return change ?? { unchanged: null };
  });
  if ('next' in decision && decision.events.length > 0)
    ctx.logger.info(
      { orderId: order.orderId, status: order.status },
      'order ended: its live delivery assignment was terminated',
    );
}

/** A new order's delivery, not assigned yet; an order without a branch or mode cannot have one. */
async function storeDelivery(ctx: DeliveryContext, order: OrderEvent): Promise<void> {
  if (order.branchId === undefined || order.orderMode === undefined) {
    ctx.logger.warn({ orderId: order.orderId }, 'orders.created without branchId or orderMode: order not kept');
    return;
  }
  const at = new Date(order.createdAt ?? ctx.now());
  const delivery: Delivery = {
    _id: order.orderId,
    tenantId: order.tenantId,
    order: {
      orderNumber: order.orderNumber,
      branchId: order.branchId,
      orderMode: order.orderMode,
      status: order.status,
      // For a dispatch to a provider connection (the contract's create request).
      ...(order.paymentMethod === undefined ? {} : { paymentMethod: order.paymentMethod }),
      ...(order.currencyCode === undefined ? {} : { currencyCode: order.currencyCode }),
      ...(order.grandTotalMinor === undefined ? {} : { grandTotalMinor: order.grandTotalMinor }),
      ...(order.deliveryFeeMinor === undefined ? {} : { deliveryFeeMinor: order.deliveryFeeMinor }),
      ...(order.dropoffSealed === undefined ? {} : { dropoffSealed: order.dropoffSealed }),
    },
    live: null,
    history: [],
    version: 1,
    eventRevision: 0,
    createdAt: at,
    updatedAt: at,
  };
  await ctx.store.deliveries.insert({ tenantId: order.tenantId }, delivery);
}
