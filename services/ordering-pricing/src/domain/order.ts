import type { LiveAssignment } from './delivery';
import type { OrderRequest } from './order-request';
import type { TenantScope } from './tenant-scope';
import type { ResolvedLine } from './order-lines';
import type { PaymentRecord } from './payment-record';
import {
  ORDER_STATUS,
  PAYMENT_STATUS,
  type ORDER_MODE,
  type OrderStatus,
  type OrderStatusName,
  type PaymentStatus,
} from './order-status';
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

/** A request checked and priced (usecases/orders/price-request.ts): what the new order keeps of it. */
export interface PricedOrder {
  lines: Order['lines'];
  totals: Order['totals'];
  /** The promotion applied, with its usage limit (a use is taken before the order is stored). */
  promotion: (NonNullable<Order['promotion']> & { usageLimit: number | null }) | null;
  branch: Order['branch'];
}

/** What a new order is made of: the request as checked and priced, its ids, and who placed it. */
export interface NewOrder {
  orderId: string;
  orderNumber: string;
  tenant: TenantScope;
  source: Order['source'];
  request: OrderRequest;
  priced: PricedOrder;
  now: Date;
}

/** A new order, Pending and unpaid, as its source placed it. */
export function newOrder({ orderId, orderNumber, tenant, source, request, priced, now }: NewOrder): Order {
  return {
    _id: orderId,
    tenantId: tenant.tenantId,
    branchId: request.branchId,
    orderNumber,
    status: ORDER_STATUS.Pending,
    paymentStatus: PAYMENT_STATUS.Unpaid,
    orderMode: request.orderMode,
    paymentMethod: request.paymentMethod,
    source,
    customer: {
      name: request.customerName,
      phone: request.customerPhone,
      email: request.customerEmail ?? null,
      notes: request.customerNotes ?? null,
    },
    deliveryZoneId: request.deliveryZoneId ?? null,
    deliveryAddress: request.deliveryAddress
      ? {
          label: request.deliveryAddress.label ?? null,
          addressLine: request.deliveryAddress.addressLine,
          latitude: request.deliveryAddress.latitude,
          longitude: request.deliveryAddress.longitude,
          notes: request.deliveryAddress.notes ?? null,
        }
      : null,
    branch: priced.branch,
    currencyCode: tenant.currencyCode,
    decimals: tenant.decimals,
    lines: priced.lines,
    promotion: priced.promotion && {
      id: priced.promotion.id,
      code: priced.promotion.code,
      effect: priced.promotion.effect,
    },
    totals: priced.totals,
    liveAssignment: null,
    deliveryRevision: 0,
    cancellation: null,
    history: [{ status: 'Pending', at: now, by: 'source' }],
    createdAt: now,
    updatedAt: now,
  };
}
