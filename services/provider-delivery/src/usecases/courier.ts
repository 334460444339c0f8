import type { COURIER_EVENT_TYPES, ProviderEventTypeName } from '@marketplace/contracts';
import { conflict, validationError } from '@marketplace/errors';
import type { DeliveryChanges } from '../adapters/deliveries-repository';
import type { StoredDelivery } from '../domain/delivery';
import { courierSecretMatches, type CourierTokenParts, type Driver } from '../domain/driver';
import { estimateDelivery, etaChangedEnough, readyAt } from '../domain/eta';
import { isTerminal } from '../domain/lifecycle';
import { decideProgress, type ProgressReport } from '../domain/progress';
import { changeDelivery, deliveryNotFound, type Decision } from './change-delivery';
import type { ProviderContext } from './context';
import { trackingUrlOf } from './tracking-url';

/**
 * The courier API's use cases: what a driver app does. Every move goes through the one table of
 * moves (domain/progress.ts, as the operations API's reports do), so a courier can make no move an
 * operator could not; an illegal one is 409 `delivery.transition_not_allowed`. A driver reaches only
 * their own offer and the deliveries they carry or carried: any other is 404, as an unknown one.
 */

/** The driver a courier token names, or undefined (the caller answers 401 whatever was wrong). */
export async function authenticateCourier(ctx: ProviderContext, presented: CourierTokenParts) {
  const found = await ctx.store.drivers.findByTokenId(presented.tokenId);
  if (!found || !courierSecretMatches(presented.secret, found.tokenHash, ctx.keyHashSecret)) return undefined;
  return found.driver;
}

export interface CourierState {
  driver: Driver;
  /** The delivery offered to the driver while the offer runs. */
  offer: StoredDelivery | null;
  activeDelivery: StoredDelivery | null;
}

/**
 * What the app shows: the driver, their running offer and the delivery they carry. A delivery that
 * ended while the driver's release was lost (a crash between the two writes) frees them here.
 */
export async function courierState(ctx: ProviderContext, driver: Driver): Promise<CourierState> {
  const owner = { accountId: driver.accountId };
  const now = ctx.now();
  const offer =
    driver.offer && driver.offer.expiresAt > now
      ? ((await ctx.store.deliveries.find(owner, driver.offer.providerDeliveryId)) ?? null)
      : null;
  let active = driver.activeDeliveryId
    ? ((await ctx.store.deliveries.find(owner, driver.activeDeliveryId)) ?? null)
    : null;
  if (driver.activeDeliveryId && (!active || isTerminal(active.status) || active.driverId !== driver.id)) {
    await ctx.store.drivers.release(owner, driver.id, driver.activeDeliveryId, now);
    driver = { ...driver, activeDeliveryId: null };
    active = null;
  }
  return { driver, offer: offer && !isTerminal(offer.status) ? offer : null, activeDelivery: active };
}

export async function setAvailability(ctx: ProviderContext, driver: Driver, online: boolean): Promise<CourierState> {
  const changed = await ctx.store.drivers.update({ accountId: driver.accountId }, driver.id, { online }, ctx.now());
  return courierState(ctx, changed ?? driver);
}

const offerGone = () =>
  conflict('offer.not_available', 'The offer is no longer yours: it ran out, was answered, or the delivery moved on.');

/**
 * The driver takes the delivery: first their own record (the offer must still run, and they must
 * carry nothing), then the delivery (still waiting for this driver's offer), which moves to
 * driver_assigned with the driver's name, phone and position, its tracking page and an estimate.
 * If the delivery moved on meanwhile (cancelled), the driver is given back and the answer is 409.
 */
export async function acceptOffer(ctx: ProviderContext, driver: Driver, providerDeliveryId: string) {
  const owner = { accountId: driver.accountId };
  if (!(await ctx.store.drivers.takeOffered(owner, driver.id, providerDeliveryId, ctx.now()))) throw offerGone();
  try {
    return await changeDelivery(ctx, owner, providerDeliveryId, (delivery, now) => {
      const offer = delivery.offers.find((o) => o.driverId === driver.id && o.outcome === 'pending');
      if (!offer || delivery.driverId !== null) throw offerGone();
      const report: ProgressReport = {
        eventType: 'driver.assigned',
        driverName: driver.name,
        driverPhone: driver.phone,
        ...(driver.position ? { driverLat: driver.position.lat, driverLng: driver.position.lng } : {}),
        trackingUrl: trackingUrlOf(ctx, delivery.trackingToken),
      };
      const decision = progressWithEstimate(delivery, report, now);
      return {
        ...decision,
        changes: {
          ...decision.changes,
          driverId: driver.id,
          dispatchAt: null,
          offers: delivery.offers.map((o) => (o === offer ? { ...o, outcome: 'accepted' as const } : o)),
        },
        answer: { ...delivery, ...decision.changes, driverId: driver.id } as StoredDelivery,
      };
    });
  } catch (error) {
    await ctx.store.drivers.release(owner, driver.id, providerDeliveryId, ctx.now());
    throw error;
  }
}

/** The driver says no: the offer ends declined and the dispatcher offers the delivery to the next driver at once. */
export async function declineOffer(ctx: ProviderContext, driver: Driver, providerDeliveryId: string) {
  const owner = { accountId: driver.accountId };
  if (driver.offer?.providerDeliveryId !== providerDeliveryId || driver.offer.expiresAt <= ctx.now()) throw offerGone();
  await ctx.store.drivers.dropOffer(owner, driver.id, providerDeliveryId, ctx.now());
  await changeDelivery(ctx, owner, providerDeliveryId, (delivery, now) => {
    const offer = delivery.offers.find((o) => o.driverId === driver.id && o.outcome === 'pending');
    if (!offer) return { answer: undefined };
    return {
      changes: {
        offers: delivery.offers.map((o) => (o === offer ? { ...o, outcome: 'declined' as const } : o)),
        dispatchAt: delivery.driverId === null && !isTerminal(delivery.status) ? now : delivery.dispatchAt,
      },
      answer: undefined,
    };
  });
  return { declined: true as const };
}

/** A delivery the driver carries or carried; 404 for any other. */
export async function courierDelivery(ctx: ProviderContext, driver: Driver, providerDeliveryId: string) {
  const delivery = await ctx.store.deliveries.find({ accountId: driver.accountId }, providerDeliveryId);
  if (!delivery || delivery.driverId !== driver.id) throw deliveryNotFound();
  return delivery;
}

/** The moves a courier reports (the contract's COURIER_EVENT_TYPES: a return request and a cancellation are the platform's). */
export type CourierEventType = (typeof COURIER_EVENT_TYPES)[number];
/** A failure needs its reason: the contract's event has none, so operators read it on the delivery. */
const NEEDS_REASON: readonly CourierEventType[] = ['delivery.failed', 'delivery.return_failed'];

export async function reportCourierEvent(
  ctx: ProviderContext,
  driver: Driver,
  providerDeliveryId: string,
  eventType: CourierEventType,
  reason: string | null,
): Promise<{ status: StoredDelivery['status']; eventsSent: ProviderEventTypeName[] }> {
  if (NEEDS_REASON.includes(eventType) && !reason)
    throw validationError('request.invalid', 'The report is invalid.', { reason: [`is required for ${eventType}`] });
  const owner = { accountId: driver.accountId };
  const result = await changeDelivery(ctx, owner, providerDeliveryId, (delivery, now) => {
    if (delivery.driverId !== driver.id) throw deliveryNotFound();
    const position = driver.position ? { driverLat: driver.position.lat, driverLng: driver.position.lng } : {};
    const decision = progressWithEstimate(delivery, { eventType, ...position }, now);
    if (NEEDS_REASON.includes(eventType)) decision.changes = { ...decision.changes, failureReason: reason };
    return decision;
  });
  if (NEEDS_REASON.includes(eventType))
    ctx.logger.info(
      { accountId: driver.accountId, providerDeliveryId, eventType, reason },
      'courier reported a failure',
    );
  return result;
}

/**
 * The driver's position: kept on the driver, and for the delivery they carry, the tracking
 * position (driver.location_updated, coalesced: domain/delivery.ts) and the estimate (eta.updated
 * when it moved by more than the threshold).
 */
export async function reportLocation(
  ctx: ProviderContext,
  driver: Driver,
  point: { lat: number; lng: number },
): Promise<{ eventsSent: ProviderEventTypeName[] }> {
  const owner = { accountId: driver.accountId };
  await ctx.store.drivers.setPosition(owner, driver.id, { ...point, at: ctx.now() });
  if (driver.activeDeliveryId === null) return { eventsSent: [] };
  try {
    const { eventsSent } = await changeDelivery(ctx, owner, driver.activeDeliveryId, (delivery, now) => {
      if (delivery.driverId !== driver.id || isTerminal(delivery.status))
        return { answer: { status: delivery.status, eventsSent: [] } };
      return progressWithEstimate(
        delivery,
        { eventType: 'driver.location_updated', driverLat: point.lat, driverLng: point.lng },
        now,
      );
    });
    return { eventsSent };
  } catch (error) {
    // The delivery ended or went away between the two reads: the position is kept, nothing to send.
    if ((error as { code?: string }).code === 'delivery.not_found') return { eventsSent: [] };
    throw error;
  }
}

/**
 * The report through the table of moves, then the estimate from the driver's position: an
 * eta.updated after the report's own event when it moved by more than the threshold (on the
 * delivery's clock). A location the coalescing rule combines sends nothing but may still move
 * the estimate.
 */
export function progressWithEstimate(
  delivery: StoredDelivery,
  report: ProgressReport,
  now: Date,
): Decision<{ status: StoredDelivery['status']; eventsSent: ProviderEventTypeName[] }> {
  const outcome = decideProgress(delivery, report, now);
  if (outcome.kind === 'invalid') throw validationError('request.invalid', 'The report is invalid.', outcome.errors);
  if (outcome.kind === 'refused')
    throw conflict('delivery.transition_not_allowed', outcome.message, { status: delivery.status });
  const tracking = { ...outcome.tracking };
  const events: ProviderEventTypeName[] = outcome.event ? [outcome.event] : [];
  const changes: DeliveryChanges = {
    status: outcome.status,
    tracking,
    ...(outcome.status !== delivery.status || report.eventType === 'driver.assigned'
      ? { statusEventTimeUtc: now }
      : {}),
    ...(outcome.event === 'driver.location_updated'
      ? { lastSentLocation: { at: now, lat: tracking.driverLat!, lng: tracking.driverLng! } }
      : {}),
  };
  if (!isTerminal(outcome.status) && tracking.driverLat !== null && tracking.driverLng !== null) {
    const { order } = delivery;
    const estimate = estimateDelivery(
      {
        status: outcome.status,
        driver: { lat: tracking.driverLat, lng: tracking.driverLng },
        pickup: { lat: order.pickupLat, lng: order.pickupLng },
        dropoff: { lat: order.dropoffLat, lng: order.dropoffLng },
        readyAt: readyAt(delivery.createdAt, order.preparationTimeMinutes, delivery.timeScale),
        timeScale: delivery.timeScale,
      },
      now,
    );
    if (etaChangedEnough(tracking.estimatedDeliveryAtUtc, estimate, delivery.timeScale)) {
      tracking.estimatedDeliveryAtUtc = estimate;
      events.push('eta.updated');
    } else if (estimate === null) tracking.estimatedDeliveryAtUtc = null;
  }
  return { changes, events, answer: { status: outcome.status, eventsSent: events } };
}
