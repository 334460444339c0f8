import type { Delivery } from './delivery';
import { isTerminal, type Status } from './lifecycle';

/**
 * What the public tracking page (`/track/<token>`) may show of a delivery. Whoever holds the link
 * sees it (the recipient forwards it, a chat app previews it), so it is built from an allow-list:
 * the status, the driver's first name and position, the restaurant, roughly where the order goes,
 * the estimate. Never the driver's phone, the customer's name, phone or e-mail, an address, the
 * platform's reference, the notes or any amount: none of them is even read here.
 */
export interface MapPoint {
  lat: number;
  lng: number;
}

export interface PublicTrackingView {
  status: Status;
  /** The status in words, for the person waiting for the order. */
  statusText: string;
  /** Nothing changes after a terminal status: the page stops refreshing. */
  terminal: boolean;
  /** The first word of the driver's name; null when unknown or once the delivery ended. */
  driverFirstName: string | null;
  /** Null when unknown or once the delivery ended (the driver is off to their next job). */
  driverPosition: MapPoint | null;
  /** The restaurant: a business address, shown exactly. */
  pickup: MapPoint;
  /** The drop-off rounded to DESTINATION_DECIMALS: the page shows the area, not the door. */
  destination: MapPoint;
  /** Null when unknown, during a return and once the delivery ended. */
  estimatedDeliveryAtUtc: Date | null;
  /** When the data shown was observed: the later of the status's time and the tracking's. */
  updatedAtUtc: Date;
  /** When the view was made: the page measures "minutes from now" on this clock, not the phone's. */
  servedAtUtc: Date;
}

/**
 * Three decimals of a degree: about 111 m of latitude and, in Berlin, 68 m of longitude. Enough to
 * show which part of the street the order goes to; not enough to pin the customer's door to
 * someone who only has the link. (While the driver approaches, their live position does get close
 * to the door; that is the point of tracking, and it ends with the delivery.)
 */
export const DESTINATION_DECIMALS = 3;

const STATUS_TEXT: Readonly<Record<Status, string>> = {
  sent_to_provider: 'Order received',
  provider_accepted: 'Finding a driver',
  driver_assigned: 'Your driver is heading to the restaurant',
  arrived_at_pickup: 'Your driver is at the restaurant',
  picked_up: 'Your driver has your order',
  on_the_way: 'On the way to you',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  failed: 'The delivery could not be completed',
  return_requested: 'Your order is going back to the restaurant',
  returning_to_origin: 'Your order is going back to the restaurant',
  returned_to_origin: 'Your order went back to the restaurant',
  return_failed: 'The delivery could not be completed',
};

const RETURNING: readonly Status[] = ['return_requested', 'returning_to_origin'];

export const statusText = (status: Status): string => STATUS_TEXT[status];

/** First word of the name ("Dana Driver" → "Dana"); null for an unknown or blank name. */
export function firstName(name: string | null): string | null {
  const first = name?.trim().split(/\s+/)[0];
  return first ? first : null;
}

export function roundCoordinate(value: number, decimals = DESTINATION_DECIMALS): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function publicTrackingView(delivery: Delivery, now: Date): PublicTrackingView {
  const { status, tracking, order } = delivery;
  const ended = isTerminal(status);
  const { driverLat: lat, driverLng: lng } = tracking;
  return {
    status,
    statusText: statusText(status),
    terminal: ended,
    driverFirstName: ended ? null : firstName(tracking.driverName),
    driverPosition: !ended && lat !== null && lng !== null ? { lat, lng } : null,
    pickup: { lat: order.pickupLat, lng: order.pickupLng },
    destination: { lat: roundCoordinate(order.dropoffLat), lng: roundCoordinate(order.dropoffLng) },
    // An estimate left from before a return describes an arrival that will not happen.
    estimatedDeliveryAtUtc: ended || RETURNING.includes(status) ? null : tracking.estimatedDeliveryAtUtc,
    updatedAtUtc: new Date(Math.max(delivery.statusEventTimeUtc.getTime(), tracking.eventTimeUtc.getTime())),
    servedAtUtc: now,
  };
}
