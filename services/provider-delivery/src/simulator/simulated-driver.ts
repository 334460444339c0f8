import { DRIVER_VEHICLES } from '@marketplace/contracts';
import { areaContains, type AreaGeometry } from '@marketplace/geo';
import { metersBetween } from '../domain/delivery';
import {
  COURIER_SPEED_KMH,
  DETOUR_FACTOR,
  DROPOFF_HANDOVER_SECONDS,
  PICKUP_HANDOVER_SECONDS,
  type Point,
} from '../domain/eta';
import { isTerminal, type Status } from '../domain/lifecycle';

/**
 * One simulated driver as a pure state machine: given what it knows (its state), what the courier
 * API said (`GET /courier/v1/me`, when it was asked this time) and the time, it answers the courier
 * calls to make and its new state. The delivery's status on the server decides the phase, so a
 * call that failed is simply made again after the next poll: the server is the truth, the state
 * only remembers what the server cannot (where the driver is, when it reached its target).
 *
 * Time is played in order between two steps, so one step may cover several moves (at a high time
 * scale a driver can reach the pickup, collect and leave within one tick): each move happens at
 * the instant it is due, and the ride goes on from there. Speeds are eta.ts's model, so the ride
 * takes travelSeconds / timeScale and the estimates the platform gets come true.
 */

export type Phase = 'idle' | 'to_pickup' | 'waiting_at_pickup' | 'to_dropoff' | 'returning';

/** What the driver needs of the delivery it carries (the courier API's CourierDelivery). */
export interface SimDelivery {
  providerDeliveryId: string;
  status: Status;
  pickup: Point;
  dropoff: Point;
  notes: string | null;
  readyAt: string;
  timeScale: number;
}

/** The running offer. `notes` only if the courier API shows them with the offer (sim:decline needs them). */
export interface SimOffer {
  providerDeliveryId: string;
  expiresAt: string;
  notes?: string | null;
}

/** What the driver reads of `GET /courier/v1/me`. */
export interface SimMe {
  offer: SimOffer | null;
  activeDelivery: SimDelivery | null;
}

export interface SimDriverState {
  phase: Phase;
  position: Point;
  /** The delivery carried, as last seen (with the moves this driver reported since); null when idle. */
  delivery: SimDelivery | null;
  /** Up to when (epoch ms) the driver's ride and waits have been played. */
  clockMs: number;
  /** When the driver reached the phase's target (pickup, door, pickup again); null on the way. */
  arrivedAtMs: number | null;
  /** The position last reported and when (real time): reports while riding are spaced. */
  reported: Point | null;
  reportedAtMs: number | null;
}

export type SimEventType =
  | 'driver.arrived_at_pickup'
  | 'delivery.picked_up'
  | 'delivery.on_the_way'
  | 'delivery.delivered'
  | 'delivery.failed'
  | 'delivery.returning_to_origin'
  | 'delivery.returned_to_origin';

export type CourierCall =
  | { kind: 'accept'; providerDeliveryId: string }
  | { kind: 'decline'; providerDeliveryId: string }
  | { kind: 'location'; position: Point }
  | { kind: 'event'; providerDeliveryId: string; eventType: SimEventType; reason?: string };

export interface StepInput {
  /** A fresh `GET /courier/v1/me` answer; absent when not asked this time (the state's view is played on). */
  me?: SimMe;
  now: Date;
  /** Deliveries a simulated driver has declined already: `sim:decline` makes only the first driver offered decline. */
  declined: ReadonlySet<string>;
  /** Least real time between two position reports on the way (default 250 ms). */
  locationEveryMs?: number;
}

export interface Step {
  state: SimDriverState;
  calls: CourierCall[];
}

/** Straight-line speed: eta.ts's road speed over its detour factor, so a ride takes exactly travelSeconds. */
export const SIM_METERS_PER_SECOND = (COURIER_SPEED_KMH * 1000) / 3600 / DETOUR_FACTOR;
export const FAIL_NOTE = 'sim:fail';
export const DECLINE_NOTE = 'sim:decline';
export const FAILURE_REASON = 'customer_unreachable';

export const idleDriver = (position: Point, now: Date): SimDriverState => ({
  phase: 'idle',
  position,
  delivery: null,
  clockMs: now.getTime(),
  arrivedAtMs: null,
  reported: position,
  reportedAtMs: null,
});

export function phaseOf(status: Status): Phase {
  if (isTerminal(status)) return 'idle';
  if (status === 'arrived_at_pickup') return 'waiting_at_pickup';
  if (status === 'picked_up' || status === 'on_the_way') return 'to_dropoff';
  if (status === 'return_requested' || status === 'returning_to_origin') return 'returning';
  return 'to_pickup';
}

/** The status each reported move leads to (the table of moves of domain/lifecycle.ts). */
const STATUS_AFTER: Record<SimEventType, Status> = {
  'driver.arrived_at_pickup': 'arrived_at_pickup',
  'delivery.picked_up': 'picked_up',
  'delivery.on_the_way': 'on_the_way',
  'delivery.delivered': 'delivered',
  'delivery.failed': 'failed',
  'delivery.returning_to_origin': 'returning_to_origin',
  'delivery.returned_to_origin': 'returned_to_origin',
};

export function stepSimulatedDriver(state: SimDriverState, input: StepInput): Step {
  const now = input.now.getTime();
  const calls: CourierCall[] = [];
  let next = input.me ? synced(state, input.me) : state;
  const offer = input.me?.offer;
  if (next.phase === 'idle' && offer && Date.parse(offer.expiresAt) > now) {
    const id = offer.providerDeliveryId;
    const decline = (offer.notes ?? '').includes(DECLINE_NOTE) && !input.declined.has(id);
    calls.push({ kind: decline ? 'decline' : 'accept', providerDeliveryId: id });
  }
  next = played(next, now, calls);
  const every = input.locationEveryMs ?? 250;
  if (next.delivery && moved(next) && (next.reportedAtMs === null || now - next.reportedAtMs >= every)) {
    calls.push({ kind: 'location', position: next.position });
    next = { ...next, reported: next.position, reportedAtMs: now };
  }
  return { state: next, calls };
}

/** The server's view wins: the delivery carried (or none) and its status decide the phase. */
function synced(state: SimDriverState, me: SimMe): SimDriverState {
  const active = me.activeDelivery;
  if (!active || isTerminal(active.status)) return { ...state, phase: 'idle', delivery: null, arrivedAtMs: null };
  const phase = phaseOf(active.status);
  const same = state.delivery?.providerDeliveryId === active.providerDeliveryId && state.phase === phase;
  return { ...state, phase, delivery: active, arrivedAtMs: same ? state.arrivedAtMs : null };
}

const moved = (s: SimDriverState) =>
  s.reported === null || s.reported.lat !== s.position.lat || s.reported.lng !== s.position.lng;

/** Plays the time from the state's clock to now, move by move (bounded: a step has a handful at most). */
function played(state: SimDriverState, now: number, calls: CourierCall[]): SimDriverState {
  let s = state;
  for (let moves = 0; moves < 16; moves++) {
    const d = s.delivery;
    if (s.phase === 'idle' || !d) return { ...s, phase: 'idle', delivery: null, clockMs: now };
    const handover = (seconds: number) => (seconds * 1000) / d.timeScale;
    if (s.phase === 'to_dropoff' && d.status === 'picked_up') s = reported(s, 'delivery.on_the_way', now, calls);
    else if (s.phase === 'returning' && d.status === 'return_requested')
      s = reported(s, 'delivery.returning_to_origin', now, calls);
    else if (s.phase === 'waiting_at_pickup') {
      const arrived = s.arrivedAtMs ?? s.clockMs;
      const due = Math.max(arrived, Date.parse(d.readyAt)) + handover(PICKUP_HANDOVER_SECONDS);
      if (due > now) return { ...s, arrivedAtMs: arrived, clockMs: now };
      s = reported({ ...s, clockMs: due }, 'delivery.picked_up', now, calls);
    } else if (s.arrivedAtMs === null || s.phase === 'to_pickup') {
      const target = s.phase === 'to_dropoff' ? d.dropoff : d.pickup;
      const ride = rode(s.position, target, s.clockMs, now, d.timeScale);
      if (!ride.arrived) return { ...s, position: ride.position, clockMs: now };
      s = { ...s, position: target, clockMs: ride.atMs, arrivedAtMs: ride.atMs };
      if (s.phase === 'to_pickup') s = reported(s, 'driver.arrived_at_pickup', now, calls);
    } else {
      // At the door (handing over) or back at the pickup (handing the goods back).
      const atDoor = s.phase === 'to_dropoff';
      const due = (s.arrivedAtMs ?? s.clockMs) + handover(atDoor ? DROPOFF_HANDOVER_SECONDS : PICKUP_HANDOVER_SECONDS);
      if (due > now) return { ...s, clockMs: now };
      const fails = atDoor && (d.notes ?? '').includes(FAIL_NOTE);
      const eventType = !atDoor ? 'delivery.returned_to_origin' : fails ? 'delivery.failed' : 'delivery.delivered';
      s = reported({ ...s, clockMs: due }, eventType, now, calls);
    }
  }
  return { ...s, clockMs: now };
}

/**
 * A move reported: the position first when it changed (the server stamps the event with the
 * driver's stored position), then the event; the state takes the status the move leads to.
 */
function reported(s: SimDriverState, eventType: SimEventType, now: number, calls: CourierCall[]): SimDriverState {
  const d = s.delivery!;
  let next = s;
  if (moved(s)) {
    calls.push({ kind: 'location', position: s.position });
    next = { ...s, reported: s.position, reportedAtMs: now };
  }
  calls.push({
    kind: 'event',
    providerDeliveryId: d.providerDeliveryId,
    eventType,
    ...(eventType === 'delivery.failed' ? { reason: FAILURE_REASON } : {}),
  });
  const status = STATUS_AFTER[eventType];
  const phase = phaseOf(status);
  return {
    ...next,
    phase,
    delivery: phase === 'idle' ? null : { ...d, status },
    arrivedAtMs: phase === next.phase ? next.arrivedAtMs : eventType === 'driver.arrived_at_pickup' ? s.clockMs : null,
  };
}

/** A straight ride from `from` towards `to`, begun at `fromMs`, up to `now`: where it got, and whether it arrived (when). */
export function rode(from: Point, to: Point, fromMs: number, now: number, timeScale: number) {
  const meters = metersBetween(from.lat, from.lng, to.lat, to.lng);
  const needMs = (meters / (SIM_METERS_PER_SECOND * timeScale)) * 1000;
  if (fromMs + needMs <= now) return { arrived: true as const, position: to, atMs: fromMs + needMs };
  const f = Math.max(0, now - fromMs) / needMs;
  const position = { lat: from.lat + (to.lat - from.lat) * f, lng: from.lng + (to.lng - from.lng) * f };
  return { arrived: false as const, position, atMs: now };
}

/**
 * A random point of the area, for a new driver: drawn in the area's bounding box until one falls
 * inside (a city area fills most of its box); after 100 misses, a vertex of the first ring (on the
 * boundary, which counts as inside).
 */
export function randomPointIn(area: AreaGeometry, random: () => number): Point {
  const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
  const outer = polygons.flatMap((rings) => rings[0] ?? []);
  const lngs = outer.map(([lng]) => lng);
  const lats = outer.map(([, lat]) => lat);
  const [west, east, south, north] = [Math.min(...lngs), Math.max(...lngs), Math.min(...lats), Math.max(...lats)];
  for (let i = 0; i < 100; i++) {
    const point = { lat: south + (north - south) * random(), lng: west + (east - west) * random() };
    if (areaContains(area, { latitude: point.lat, longitude: point.lng })) return point;
  }
  const [lng, lat] = outer[0] ?? [0, 0];
  return { lat, lng };
}

const FIRST_NAMES = ['Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hugo', 'Ida', 'Jonas', 'Lea', 'Max'];

/** The n-th simulated driver of an account (1-based): a first name, a fake phone, a vehicle. */
export function simulatedIdentity(n: number) {
  const digits = String(n % 10_000_000).padStart(7, '0');
  return {
    name: FIRST_NAMES[(n - 1) % FIRST_NAMES.length]!,
    phone: `+49 170 ${digits.slice(0, 4)} ${digits.slice(4)}`,
    vehicle: DRIVER_VEHICLES[(n - 1) % DRIVER_VEHICLES.length]!,
  };
}
