import { createHash, randomBytes } from 'node:crypto';
import type { ProviderStatusName } from '@marketplace/contracts';

/**
 * A delivery received through the provider contract, as the use cases see it: what the platform
 * asked (its current values, after updates), where its events go, its status and what we know of
 * its driver. Money is kept in integer minor units (two decimals, the contract's precision).
 */
export interface DeliveryOrder {
  platformReference: string;
  pickupAddress: string;
  pickupLat: number;
  pickupLng: number;
  customerName: string;
  customerPhone: string;
  customerEmail: string | null;
  dropoffAddress: string;
  dropoffLat: number;
  dropoffLng: number;
  paymentMethod: string;
  amountMinor: number;
  deliveryFeeMinor: number | null;
  currency: string;
  notes: string | null;
  preparationTimeMinutes: number;
  scheduledDeliveryAtUtc: Date | null;
}

/** What we know of the driver and the estimate; null when unknown, never invented. */
export interface Tracking {
  driverName: string | null;
  driverPhone: string | null;
  driverLat: number | null;
  driverLng: number | null;
  trackingUrl: string | null;
  estimatedDeliveryAtUtc: Date | null;
  /** When we observed this data. */
  eventTimeUtc: Date;
}

export const NO_TRACKING = (at: Date): Tracking => ({
  driverName: null,
  driverPhone: null,
  driverLat: null,
  driverLng: null,
  trackingUrl: null,
  estimatedDeliveryAtUtc: null,
  eventTimeUtc: at,
});

export interface SentLocation {
  at: Date;
  lat: number;
  lng: number;
}

export interface Delivery {
  /** Our providerDeliveryId. */
  id: string;
  accountId: string;
  order: DeliveryOrder;
  status: ProviderStatusName;
  statusEventTimeUtc: Date;
  tracking: Tracking;
  /** The position and time of the last driver.location_updated sent (coalescing); null before the first. */
  lastSentLocation: SentLocation | null;
  /** The platform's reason code of a return, once one was asked for. */
  returnReasonCode: string | null;
  /** How many times faster than real time the delivery's clock runs: 1, or a simulated account's scale. */
  timeScale: number;
  /** The secret part of the public tracking page's address (`trk_…`). */
  trackingToken: string;
  /** The driver who accepted it; null before (and after the offers ran out). */
  driverId: string | null;
  /** Every offer made, oldest first (domain/dispatch.ts decides the next). */
  offers: StoredOffer[];
  /** When the dispatcher looks at it next; null once it needs no driver (taken, or ended). */
  dispatchAt: Date | null;
  /** Why it failed, for operators (delivery.failed of contract 1.1.0 carries no reason); null otherwise. */
  failureReason: string | null;
  /** Compare-and-set counter: every change checks and raises it. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * What a delivery keeps of its driver once it ended: nothing personal. The terminal event and
 * every later read carry no driver name, phone or position, and no estimate.
 */
export const withoutDriverData = (tracking: Tracking): Tracking => ({
  ...tracking,
  driverName: null,
  driverPhone: null,
  driverLat: null,
  driverLng: null,
  estimatedDeliveryAtUtc: null,
});

/** An offer of the delivery to a driver, and how it ended. */
export interface StoredOffer {
  driverId: string;
  offeredAt: Date;
  expiresAt: Date;
  outcome: 'pending' | 'accepted' | 'declined' | 'timed_out';
}

/** A delivery as stored: with where its events go (the URL sealed: its path token is a secret). */
export interface StoredDelivery extends Delivery {
  callbackSource: CallbackSource;
  /** Sealed for the webhook sender (WEBHOOK_SECRET_TRANSPORT_KEY); null when nothing is pushed. */
  callbackUrlSealed: string | null;
}

/**
 * The secret of a delivery's public tracking page (`/track/<token>`): `trk_` and 22 base64url
 * characters (128 bits). Whoever has the link sees the page, as with any shared tracking link;
 * the page shows no customer data and no phone number.
 */
export const mintTrackingToken = (): string => `trk_${randomBytes(16).toString('base64url')}`;
export const TRACKING_TOKEN_PATTERN = /^trk_[A-Za-z0-9_-]{22}$/;

/** The public tracking page of a delivery (http/tracking-routes.ts serves it). */
export const trackingUrlOf = (publicBaseUrl: string, trackingToken: string): string =>
  `${publicBaseUrl}/track/${trackingToken}`;

/** The fields a change of a delivery sets (status, tracking, the order's current values). */
export type DeliveryChanges = Partial<
  Pick<
    StoredDelivery,
    | 'order'
    | 'status'
    | 'statusEventTimeUtc'
    | 'tracking'
    | 'lastSentLocation'
    | 'returnReasonCode'
    | 'driverId'
    | 'offers'
    | 'dispatchAt'
    | 'failureReason'
    | 'updatedAt'
  >
>;

/** Amount as sent (a JSON number in the major unit) to minor units, or undefined with more than two decimals. */
export function toMinorUnits(amount: number): number | undefined {
  // The shortest text that reads back as the same double is what the platform wrote (9.5, 12.34):
  // judging that text avoids binary-fraction noise (0.29 * 100 is 28.999999999999996).
  const text = String(amount);
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Minor units back to the contract's JSON number (12345 → 123.45). */
export const fromMinorUnits = (minor: number): number => minor / 100;

/**
 * The identity of a create request's delivery payload, for replays: a SHA-256 of a canonical form
 * (fixed key order, absent optional fields as null, money in minor units, times as instants). So
 * two requests that mean the same (key order, `9.5` and `9.50`, a `+02:00` time and its UTC form,
 * an absent `notes` and a null one) are the same payload; the callback is compared apart, and the
 * idempotency key is the lookup itself.
 */
export function payloadFingerprint(order: DeliveryOrder): string {
  const canonical = [
    order.platformReference,
    order.pickupAddress,
    order.pickupLat,
    order.pickupLng,
    order.customerName,
    order.customerPhone,
    order.dropoffAddress,
    order.dropoffLat,
    order.dropoffLng,
    order.paymentMethod,
    order.amountMinor,
    order.deliveryFeeMinor,
    order.currency,
    order.notes,
    order.preparationTimeMinutes,
    order.scheduledDeliveryAtUtc?.toISOString() ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** Where a delivery's events go: the create's `webhook.url`, else the account's global URL, else nowhere. */
export type CallbackSource = 'request' | 'account' | 'none';

export function selectCallback(
  requested: string | null,
  accountUrl: string | null,
): { source: CallbackSource; url: string | null } {
  if (requested !== null) return { source: 'request', url: requested };
  if (accountUrl !== null) return { source: 'account', url: accountUrl };
  return { source: 'none', url: null };
}

/** How a replay's callback compares with the original's. */
export type CallbackReplay = 'same' | 'changed';

/**
 * A replay that omits `webhook` (or sends a null url) keeps the original callback; one that names
 * a URL must name the very URL the original request named (adding a callback the original did not
 * have, or naming the account's global URL explicitly, is a change: the stored callback came from
 * elsewhere).
 */
export function compareCallback(
  original: { source: CallbackSource; requestedUrl: string | null },
  replayUrl: string | null,
): CallbackReplay {
  if (replayUrl === null) return 'same';
  return original.source === 'request' && original.requestedUrl === replayUrl ? 'same' : 'changed';
}

/**
 * Location updates are coalesced: at most one driver.location_updated per delivery per
 * LOCATION_EVENT_INTERVAL_MS, and none for a move shorter than LOCATION_EVENT_MIN_METERS. The
 * tracking read always has the newest position; the intermediate points in between are combined
 * (the contract allows it), and every later event carries the position of its time.
 */
export const LOCATION_EVENT_INTERVAL_MS = 5_000;
export const LOCATION_EVENT_MIN_METERS = 10;

export function shouldSendLocation(last: SentLocation | null, next: { lat: number; lng: number }, now: Date): boolean {
  if (last === null) return true;
  if (now.getTime() - last.at.getTime() < LOCATION_EVENT_INTERVAL_MS) return false;
  return metersBetween(last.lat, last.lng, next.lat, next.lng) >= LOCATION_EVENT_MIN_METERS;
}

/** Great-circle distance (haversine, mean Earth radius). */
export function metersBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(a)));
}
