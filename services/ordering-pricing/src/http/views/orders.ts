import type {
  BranchPickupInfo,
  CreateOrderResponse,
  OrderCancellationResponse,
  OrderResponse,
} from '@marketplace/contracts';
import { fromMinorUnits } from '@marketplace/money';
import { pickupBranch, type PickupSnapshot } from '../../domain/delivery';
import type { Order } from '../../domain/order';
import { paymentStatusName, refundDueMinor, statusName } from '../../domain/order-status';

const money = (order: Order, minor: number) => fromMinorUnits(minor, order.decimals);

/** Spec: Create order response. */
export function createdView(order: Order): CreateOrderResponse {
  const t = order.totals;
  return {
    orderId: order._id,
    orderNumber: order.orderNumber,
    status: order.status,
    paymentStatus: order.paymentStatus,
    currencyCode: order.currencyCode,
    subtotal: money(order, t.subtotalMinor),
    discountTotal: money(order, t.discountMinor),
    taxTotal: money(order, t.taxTotalMinor),
    deliveryFee: money(order, t.deliveryFeeMinor),
    serviceFee: money(order, t.serviceFeeMinor),
    grandTotal: money(order, t.grandTotalMinor),
    externalOrderId: order.source.externalOrderId,
  };
}

/**
 * Spec: Order (read) response, with the branch given. `financial` false is the
 * delivery-assignment-owned read: the seven fields the spec lists are null (grandTotal stays: a
 * driver may collect cash).
 */
function orderBody(order: Order, financial: boolean, branch: BranchPickupInfo): OrderResponse {
  const t = order.totals;
  const orFinancial = <T>(value: T) => (financial ? value : null);
  return {
    orderId: order._id,
    orderNumber: order.orderNumber,
    status: order.status,
    orderMode: order.orderMode,
    tableNumber: null,
    customerName: order.customer.name,
    customerPhone: order.customer.phone,
    grandTotal: money(order, t.grandTotalMinor),
    currencyCode: order.currencyCode,
    items: order.lines.map((line) => ({
      productName: line.productName,
      variantName: line.variantName,
      quantity: line.quantity,
      lineTotal: money(order, line.priced.lineTotalMinor),
      modifiers: line.modifiers.map((m, i) => ({
        modifierGroupName: m.modifierGroupName,
        modifierOptionName: m.modifierOptionName,
        quantity: line.quantity,
        totalPrice: money(order, line.priced.modifierTotalsMinor[i]!),
      })),
    })),
    deliveryAddress: order.deliveryAddress && {
      label: order.deliveryAddress.label,
      addressLine: order.deliveryAddress.addressLine,
      latitude: order.deliveryAddress.latitude,
      longitude: order.deliveryAddress.longitude,
      instructions: order.deliveryAddress.notes,
    },
    branch,
    paymentStatus: orFinancial(order.paymentStatus),
    externalOrderId: orFinancial(order.source.externalOrderId),
    subtotal: orFinancial(money(order, t.subtotalMinor)),
    discountTotal: orFinancial(money(order, t.discountMinor)),
    taxTotal: orFinancial(money(order, t.taxTotalMinor)),
    deliveryFee: orFinancial(money(order, t.deliveryFeeMinor)),
    serviceFee: orFinancial(money(order, t.serviceFeeMinor)),
  };
}

/**
 * The source-owned read: everything, the branch as it was when the order was placed (with its
 * coordinates, always: an order is refused at a branch without them).
 */
export function orderView(order: Order): OrderResponse {
  return orderBody(order, true, order.branch);
}

/**
 * The delivery-assignment-owned read: no financial fields, and the branch as it was when the order
 * was assigned (the pickup the provider was sent), not as it was when it was placed.
 */
export function deliveryOrderView(order: Order, pickup: PickupSnapshot): OrderResponse {
  const branch: BranchPickupInfo = pickupBranch(pickup);
  return orderBody(order, false, branch);
}

/** Spec: Order cancellation response. */
export function cancellationView(order: Order): OrderCancellationResponse {
  return {
    orderId: order._id,
    orderNumber: order.orderNumber,
    status: order.status,
    externalOrderId: order.source.externalOrderId,
  };
}

/**
 * What the tenant sees: the whole order, statuses as integers with their names, and what it owes
 * the customer back (a Paid order that was cancelled or rejected; domain/order-status.ts).
 */
export function tenantOrderView(order: Order) {
  return {
    ...orderView(order),
    statusName: statusName(order.status),
    paymentStatusName: paymentStatusName(order.paymentStatus),
    refundDue: money(order, refundDueMinor(order.status, order.paymentStatus, order.totals.grandTotalMinor)),
    paymentMethod: order.paymentMethod,
    branchId: order.branchId,
    deliveryZoneId: order.deliveryZoneId,
    customerEmail: order.customer.email,
    customerNotes: order.customer.notes,
    promotionCode: order.promotion?.code ?? null,
    sourceInstallationId: order.source.installationId,
    history: order.history.map((h) => ({ status: h.status, at: h.at.toISOString(), by: h.by })),
    // How it was paid: a processor's confirmations and the tenant's records by hand, oldest first.
    paymentRecords: (order.paymentRecords ?? []).map((r) =>
      r.by === 'processor'
        ? {
            by: r.by,
            at: r.at.toISOString(),
            eventId: r.eventId,
            paymentReference: r.paymentReference,
            amount: money(order, r.amountMinor),
            occurredAt: r.occurredAt.toISOString(),
          }
        : { by: r.by, at: r.at.toISOString(), reason: r.reason },
    ),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}
