import { currencyDecimals } from '@marketplace/money';
import type { ProviderCreateDeliveryRequest } from '@marketplace/contracts';
import type { OrderFacts, Pickup } from '../delivery';

/** The customer and address a provider needs (opened from the order's sealed drop-off). */
export interface Dropoff {
  customerName: string;
  customerPhone: string;
  addressLine: string;
  latitude: number;
  longitude: number;
  addressNotes: string | null;
  customerNotes: string | null;
}

/** The contract's field limits this builder fits into (the provider refuses more). */
const LIMITS = { address: 500, name: 200, phone: 50, notes: 2_000 } as const;

/** At most `max` UTF-16 units, with an ellipsis when cut, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // a high surrogate would be left alone
  return `${text.slice(0, end)}…`;
}

/**
 * Minor units as the contract's amount: a number with at most two decimals. Exact for currencies
 * of 0 to 2 decimals; one of 3 or 4 decimals (KWD, CLF) is rounded once, half up, to 2 (the
 * contract allows no more), which is the only rounding on the way.
 */
export function contractAmount(minor: number, currencyCode: string): number {
  const decimals = currencyDecimals(currencyCode);
  if (decimals <= 2) return Number((minor / 10 ** decimals).toFixed(decimals));
  return Math.round(minor / 10 ** (decimals - 2)) / 100;
}

/** The Partner API's payment methods (1 Cash, 2 CardOnDelivery) in the contract's words. */
const PAYMENT_METHODS: Record<number, string> = { 1: 'cash', 2: 'card' };

export interface CreateRequestInput {
  assignmentId: string;
  order: OrderFacts;
  pickup: Pickup;
  dropoff: Dropoff;
  /** Null: no per-delivery callback (the platform polls). */
  callbackUrl: string | null;
  preparationTimeMinutes: number;
}

/**
 * The create request of an assignment (Standard Delivery Provider Contract, POST /deliveries):
 * platformReference and idempotencyKey are the assignment id (the contract: "currently equal to
 * platformReference"), so every retry, after a timeout or a restart, names the same delivery;
 * pickup from the assignment's snapshot of the branch, drop-off from the order, amount the
 * order's grand total (what a cash customer pays the driver) and fee its delivery fee, and the
 * per-delivery callback URL with its token. Or why the order cannot be dispatched.
 */
export function createRequestOf(input: CreateRequestInput): ProviderCreateDeliveryRequest | { missing: string } {
  const { order, pickup, dropoff } = input;
  if (order.currencyCode === undefined || order.grandTotalMinor === undefined || order.paymentMethod === undefined)
    return { missing: 'the order was created before its totals were kept here' };
  const paymentMethod = PAYMENT_METHODS[order.paymentMethod];
  if (!paymentMethod) return { missing: `the payment method ${order.paymentMethod} has no name in the contract` };
  const notes = [
    `Order ${order.orderNumber} from ${pickup.name}.`,
    dropoff.addressNotes ? `Address: ${dropoff.addressNotes}` : '',
    dropoff.customerNotes ? `Customer: ${dropoff.customerNotes}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    platformReference: input.assignmentId,
    idempotencyKey: input.assignmentId,
    pickupAddress: cut(pickup.address, LIMITS.address),
    pickupLat: pickup.latitude,
    pickupLng: pickup.longitude,
    customerName: cut(dropoff.customerName, LIMITS.name),
    customerPhone: cut(dropoff.customerPhone, LIMITS.phone),
    dropoffAddress: cut(dropoff.addressLine, LIMITS.address),
    dropoffLat: dropoff.latitude,
    dropoffLng: dropoff.longitude,
    paymentMethod,
    amount: contractAmount(order.grandTotalMinor, order.currencyCode),
    deliveryFeeAmount:
      order.deliveryFeeMinor === undefined ? null : contractAmount(order.deliveryFeeMinor, order.currencyCode),
    currency: order.currencyCode,
    notes: cut(notes, LIMITS.notes),
    preparationTimeMinutes: input.preparationTimeMinutes,
    ...(input.callbackUrl === null ? {} : { webhook: { url: input.callbackUrl } }),
  };
}
