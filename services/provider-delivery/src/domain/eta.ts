import { metersBetween } from './delivery';
import type { Status } from './lifecycle';

/**
 * The speed model behind every estimate and every dispatch choice (pure, time passed in). One
 * model for the whole courier fleet: it is an estimate the platform shows its customer, so it
 * should be simple, stable and explainable rather than precise.
 *
 * - Road distance is the great-circle distance × DETOUR_FACTOR: city streets are rarely straight,
 *   and 1.3 is the usual ratio of road to straight-line distance in a street grid.
 * - Couriers ride at COURIER_SPEED_KMH, 18 km/h: the average of a bicycle and scooter mix in city
 *   traffic, stops included. The vehicle does not change the figure (one speed for the mix).
 * - Handovers take fixed time: PICKUP_HANDOVER_SECONDS at the restaurant (finding the counter,
 *   checking the order) and DROPOFF_HANDOVER_SECONDS at the door (parking, stairs, the customer).
 */
export const DETOUR_FACTOR = 1.3;
export const COURIER_SPEED_KMH = 18;
export const PICKUP_HANDOVER_SECONDS = 120;
export const DROPOFF_HANDOVER_SECONDS = 180;

/**
 * eta.updated is sent when the estimate moves by more than ETA_CHANGE_THRESHOLD_MS, 2 minutes:
 * less is the noise of a driver waiting at a light, and a customer does not plan by the minute.
 */
export const ETA_CHANGE_THRESHOLD_MS = 2 * 60_000;

export interface Point {
  lat: number;
  lng: number;
}

/** Seconds a courier needs from one point to another on the road, handovers excluded. */
export function travelSeconds(from: Point, to: Point): number {
  const roadMeters = metersBetween(from.lat, from.lng, to.lat, to.lng) * DETOUR_FACTOR;
  return roadMeters / ((COURIER_SPEED_KMH * 1000) / 3600);
}

/** When the food is ready: the delivery's creation plus its (current) preparation time, on its clock. */
export const readyAt = (createdAt: Date, preparationTimeMinutes: number, timeScale = 1): Date =>
  new Date(createdAt.getTime() + Math.round((preparationTimeMinutes * 60_000) / timeScale));

/** From leaving the pickup with the food to the handover at the door: the delivery leg. */
export const deliveryLegSeconds = (pickup: Point, dropoff: Point): number =>
  PICKUP_HANDOVER_SECONDS + travelSeconds(pickup, dropoff) + DROPOFF_HANDOVER_SECONDS;

const BEFORE_PICKUP: readonly Status[] = [
  'sent_to_provider',
  'provider_accepted',
  'driver_assigned',
  'arrived_at_pickup',
];
const CARRYING: readonly Status[] = ['picked_up', 'on_the_way'];

export interface EtaInput {
  status: Status;
  driver: Point;
  pickup: Point;
  dropoff: Point;
  readyAt: Date;
  /** The delivery's clock scale (1, or a simulated account's): travel and handovers take 1/timeScale as long. */
  timeScale: number;
}

/**
 * The estimated delivery time, or null when there is nothing to deliver any more (a return, a
 * terminal status: the estimate is unknown, never invented).
 * - Before pickup: the driver rides to the pickup, waits there until the food is ready if early,
 *   hands over, rides to the drop-off and hands over.
 * - With the food: the driver rides to the drop-off and hands over.
 */
export function estimateDelivery(input: EtaInput, now: Date): Date | null {
  const after = (ms: number, seconds: number) => new Date(Math.round(ms + (seconds * 1000) / input.timeScale));
  if (CARRYING.includes(input.status))
    return after(now.getTime(), travelSeconds(input.driver, input.dropoff) + DROPOFF_HANDOVER_SECONDS);
  if (!BEFORE_PICKUP.includes(input.status)) return null;
  const atPickup = now.getTime() + (travelSeconds(input.driver, input.pickup) * 1000) / input.timeScale;
  return after(Math.max(atPickup, input.readyAt.getTime()), deliveryLegSeconds(input.pickup, input.dropoff));
}

/**
 * Whether a new estimate is worth an eta.updated: the first one, or one that moved by more than
 * the threshold (on the delivery's clock: 2 minutes / timeScale).
 */
export function etaChangedEnough(previous: Date | null, next: Date | null, timeScale = 1): boolean {
  if (next === null) return false;
  if (previous === null) return true;
  return Math.abs(next.getTime() - previous.getTime()) > ETA_CHANGE_THRESHOLD_MS / timeScale;
}
