import type { ResolvedLine } from './order-lines';
import type { ORDER_MODE, OrderStatus, OrderStatusName, PaymentStatus } from './order-status';
import type { PriceBreakdown, PricedLine, PromotionEffect } from './pricing';

/** An order. Money in integer minor units of `currencyCode`; `_id` is the order id, as stored. */
export interface Order {
  _id: string;
  tenantId: string;
  branchId: string;
  orderNumber: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  /** DineIn exists but is refused on creation: an order is Delivery or Pickup. */
  orderMode: typeof ORDER_MODE.Delivery | typeof ORDER_MODE.Pickup;
  paymentMethod: number;
  /** The installation that created the order through POST /orders, and its own id for it. */
  source: { installationId: string; appId: string; externalOrderId: string; idempotencyKey: string };
  customer: { name: string; phone: string; email: string | null; notes: string | null };
  deliveryZoneId: string | null;
  deliveryAddress: {
    label: string | null;
    addressLine: string;
    latitude: number;
    longitude: number;
    notes: string | null;
  } | null;
  /** The branch as it was when the order was placed (pickup information for drivers). */
  branch: {
    name: string;
    address: string;
    latitude: number | null;
    longitude: number | null;
    externalLocationId: string | null;
  };
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

/** The branch's address as one line, for pickup. */
export function addressLine(
  address: { line1: string; line2: string | null; city: string; postalCode: string | null; countryCode: string } | null,
): string {
  if (!address) return '';
  return [
    address.line1,
    address.line2,
    [address.postalCode, address.city].filter(Boolean).join(' '),
    address.countryCode,
  ]
    .filter(Boolean)
    .join(', ');
}
