import { deliveryLegSeconds, travelSeconds, type Point } from './eta';

/**
 * The dispatch rule (pure, time passed in): which driver an accepted delivery is offered to, when,
 * and when we give up. The caller (usecases/dispatch/dispatch-delivery.ts) stores the offers, asks again
 * when an offer is answered or runs out, when a driver's state changes, and at the latest at a
 * `wait`'s `until`.
 *
 * - Pickup time: when the food is ready; for a scheduled delivery, no earlier than the scheduled
 *   time minus the delivery leg (handover, ride to the drop-off, handover; eta.ts), so the food is
 *   not collected early and left to cool.
 * - Nearest first: among drivers online, on a shift, not busy (a driver holding another pending
 *   offer counts as busy) and not yet offered this delivery, the one with the shortest travel
 *   time to the pickup (eta.ts); equal times go to the smaller id, so the choice is reproducible.
 * - Lead time: that driver is offered the delivery OFFER_TIMEOUT_MS plus their travel time before
 *   the pickup time: taking the offer at its last moment, they arrive when the food is ready.
 *   Earlier, we wait (a driver idling at the counter is a driver not delivering).
 * - Offers run OFFER_TIMEOUT_MS, 45 seconds (long enough to read the offer on a bike at a light);
 *   a declined or expired offer moves on to the next driver, and a driver is offered a delivery
 *   once.
 * - The window: a delivery that no driver has accepted DISPATCH_WINDOW_MS, 10 minutes, after its
 *   pickup time fails (delivery.failed), never silently. Counted from the pickup time, not from
 *   the first offer: dispatch starts before the food is ready, and counting from the start would
 *   fail a delivery at the moment its food is ready; for a delivery wanted now the two coincide.
 *   An offer made before the end runs its 45 seconds.
 * - A simulated account's delivery runs on a faster clock (`timeScale`): every duration above and
 *   every travel time is divided by it, so the same rule plays out in seconds.
 */
export const OFFER_TIMEOUT_MS = 45_000;
export const DISPATCH_WINDOW_MS = 10 * 60_000;
/** With no driver to offer, decide again at least this often (drivers come online and move). */
export const DISPATCH_RECHECK_MS = 15_000;

export interface DispatchDriver {
  id: string;
  position: Point;
  online: boolean;
  onShift: boolean;
  /** Carrying a delivery, or holding an offer of another one. */
  busy: boolean;
}

/** An offer made for this delivery. A pending one past its expiry counts as timed out. */
export interface PastOffer {
  driverId: string;
  expiresAt: Date;
  outcome: 'pending' | 'accepted' | 'declined' | 'timed_out';
}

export interface DispatchRequest {
  pickup: Point;
  dropoff: Point;
  /** Creation plus the preparation time (eta.ts `readyAt`, on the delivery's clock). */
  readyAt: Date;
  /**
   * How many times faster than real time the delivery's clock runs (1, or a simulated account's
   * scale): every duration here (travel, offers, the window, the recheck) is divided by it.
   */
  timeScale: number;
  scheduledDeliveryAtUtc: Date | null;
  offers: readonly PastOffer[];
}

export type DispatchDecision =
  | { kind: 'offer'; driverId: string; expiresAt: Date }
  | { kind: 'wait'; until: Date; why: 'too_early' | 'offer_pending' | 'no_driver' }
  /** The delivery.failed event of contract 1.1.0 has no reason field: the reason is for the record (operators, logs). */
  | { kind: 'fail'; reason: 'no_driver_accepted'; message: string };

/** When the driver should reach the pickup. */
export function pickupTargetAt(request: DispatchRequest): Date {
  const ready = request.readyAt.getTime();
  if (request.scheduledDeliveryAtUtc === null) return new Date(ready);
  const leg = (deliveryLegSeconds(request.pickup, request.dropoff) * 1000) / request.timeScale;
  const leaveBy = request.scheduledDeliveryAtUtc.getTime() - leg;
  return new Date(Math.max(ready, Math.round(leaveBy)));
}

export const isAvailable = (driver: DispatchDriver): boolean => driver.online && driver.onShift && !driver.busy;

/** In order: a running offer is waited for; past the window, fail; else the nearest driver, now or when due. */
export function decideDispatch(
  request: DispatchRequest,
  drivers: readonly DispatchDriver[],
  now: Date,
): DispatchDecision {
  const pending = request.offers.find((o) => o.outcome === 'pending' && o.expiresAt > now);
  if (pending) return { kind: 'wait', until: pending.expiresAt, why: 'offer_pending' };

  const scale = request.timeScale;
  const target = pickupTargetAt(request).getTime();
  const deadline = target + DISPATCH_WINDOW_MS / scale;
  if (now.getTime() >= deadline) {
    const offers = request.offers.length;
    const clock = scale === 1 ? '' : ` (on a clock ${scale} times faster)`;
    const within = `within ${DISPATCH_WINDOW_MS / 60_000} minutes of its pickup time${clock}`;
    return {
      kind: 'fail',
      reason: 'no_driver_accepted',
      message:
        offers === 0
          ? `No driver was available ${within}.`
          : `No driver accepted the delivery ${within} (${offers} ${offers === 1 ? 'driver' : 'drivers'} offered).`,
    };
  }

  const offered = new Set(request.offers.map((o) => o.driverId));
  const nearest = drivers
    .filter((d) => isAvailable(d) && !offered.has(d.id))
    .map((d) => ({ id: d.id, seconds: travelSeconds(d.position, request.pickup) / scale }))
    .sort((a, b) => a.seconds - b.seconds || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
  if (!nearest)
    return {
      kind: 'wait',
      until: new Date(Math.min(now.getTime() + Math.round(DISPATCH_RECHECK_MS / scale), deadline)),
      why: 'no_driver',
    };

  const offerMs = Math.round(OFFER_TIMEOUT_MS / scale);
  const offerFrom = Math.round(target - nearest.seconds * 1000 - offerMs);
  if (now.getTime() < offerFrom) return { kind: 'wait', until: new Date(offerFrom), why: 'too_early' };
  return { kind: 'offer', driverId: nearest.id, expiresAt: new Date(now.getTime() + offerMs) };
}
