import { fromMinorUnits } from '@marketplace/money';
import type { ResolvedLine } from './order-lines';
import { paymentStatusName, statusName, type OrderStatus, type OrderStatusName, type PaymentStatus } from './order-status';
import type { PriceBreakdown, PricedLine, PromotionEffect } from './pricing';

/** An order as stored. Money in integer minor units of `currencyCode`. */
export interface OrderDoc {
  _id: string;
  tenantId: string;
  branchId: string;
  orderNumber: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  orderMode: number;
  paymentMethod: number;
  /** The installation that created the order through POST /orders, and its own id for it. */
  source: { installationId: string; appId: string; externalOrderId: string; idempotencyKey: string };
  customer: { name: string; phone: string; email: string | null; notes: string | null };
  deliveryZoneId: string | null;
  deliveryAddress: { label: string | null; addressLine: string; latitude: number; longitude: number; notes: string | null } | null;
  /** The branch as it was when the order was placed (pickup information for drivers). */
  branch: { name: string; address: string; latitude: number | null; longitude: number | null; externalLocationId: string | null };
  currencyCode: string;
  decimals: number;
  lines: Array<ResolvedLine & { priced: PricedLine }>;
  promotion: { id: string; code: string; effect: PromotionEffect } | null;
  totals: Omit<PriceBreakdown, 'lines'>;
  /**
   * The delivery assignment live on this order, kept by the delivery feature from its events;
   * its holder may read the order (delivery-assignment-owned read).
   */
  liveAssignment: { installationId: string; assignmentId: string } | null;
  /** Set by a cancel, so that the same request repeated is answered the same way. */
  cancellation: { by: 'source' | 'tenant'; idempotencyKey: string | null; at: Date } | null;
  history: Array<{ status: OrderStatusName; at: Date; by: 'source' | 'tenant' }>;
  createdAt: Date;
  updatedAt: Date;
}

const money = (order: OrderDoc, minor: number) => fromMinorUnits(minor, order.decimals);

/** Spec: Create order response. */
export function createdView(order: OrderDoc) {
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
 * Spec: Order (read) response. `financial` false is the delivery-assignment-owned read: the seven
 * fields the spec lists are null (grandTotal stays: a driver may collect cash).
 */
export function orderView(order: OrderDoc, financial: boolean) {
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
    branch: order.branch,
    paymentStatus: orFinancial(order.paymentStatus),
    externalOrderId: orFinancial(order.source.externalOrderId),
    subtotal: orFinancial(money(order, t.subtotalMinor)),
    discountTotal: orFinancial(money(order, t.discountMinor)),
    taxTotal: orFinancial(money(order, t.taxTotalMinor)),
    deliveryFee: orFinancial(money(order, t.deliveryFeeMinor)),
    serviceFee: orFinancial(money(order, t.serviceFeeMinor)),
  };
}

/** Spec: Order cancellation response. */
export function cancellationView(order: OrderDoc) {
  return { orderId: order._id, orderNumber: order.orderNumber, status: order.status, externalOrderId: order.source.externalOrderId };
}

/** What the tenant sees: the whole order, statuses as integers with their names. */
export function tenantOrderView(order: OrderDoc) {
  return {
    ...orderView(order, true),
    statusName: statusName(order.status),
    paymentStatusName: paymentStatusName(order.paymentStatus),
    paymentMethod: order.paymentMethod,
    branchId: order.branchId,
    deliveryZoneId: order.deliveryZoneId,
    customerEmail: order.customer.email,
    customerNotes: order.customer.notes,
    promotionCode: order.promotion?.code ?? null,
    sourceInstallationId: order.source.installationId,
    history: order.history.map((h) => ({ status: h.status, at: h.at.toISOString(), by: h.by })),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

/** The branch's address as one line, for pickup. */
export function addressLine(address: { line1: string; line2: string | null; city: string; postalCode: string | null; countryCode: string } | null): string {
  if (!address) return '';
  return [address.line1, address.line2, [address.postalCode, address.city].filter(Boolean).join(' '), address.countryCode].filter(Boolean).join(', ');
}
