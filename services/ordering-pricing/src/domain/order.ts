import type { LiveAssignment } from './delivery';
import type { ResolvedLine } from './order-lines';
import type { PaymentRecord } from './payment-record';
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
    latitude: number;
    longitude: number;
    externalLocationId: string | null;
  };
  currencyCode: string;
  decimals: number;
  lines: Array<ResolvedLine & { priced: PricedLine }>;
  promotion: { id: string; code: string; effect: PromotionEffect } | null;
  totals: Omit<PriceBreakdown, 'lines'>;
  /**
   * The delivery assignment live on this order, copied from delivery-assignment's events (topic
   * `deliveries`); its holder may read the order (delivery-assignment-owned read).
   */
  liveAssignment: LiveAssignment | null;
  /**
   * The revision of the latest `deliveries` event applied to the order (0 before the first). Kept
   * apart from `liveAssignment` because an event that ends the live assignment (null) still has a
   * revision, and an older event replayed after it must not bring the assignment back.
   */
  deliveryRevision: number;
  /** Set by a cancel, so that the same request repeated is answered the same way. */
  cancellation: { by: 'source' | 'tenant'; idempotencyKey: string | null; at: Date } | null;
  /**
   * How the order was paid (domain/payment.ts), oldest first; absent on orders stored before payment
   * records existed (read as none).
   */
  paymentRecords?: PaymentRecord[];
  /** `delivery`: completed because its delivery was Delivered. */
  history: Array<{ status: OrderStatusName; at: Date; by: 'source' | 'tenant' | 'delivery' }>;
  createdAt: Date;
  updatedAt: Date;
}
