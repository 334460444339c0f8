import { conflict, validationError } from '@marketplace/errors';
import type { ProviderEventTypeName } from '@marketplace/contracts';
import type { DeliveryChanges, StoredDelivery } from './delivery';
import { estimateDelivery, etaChangedEnough, readyAt } from './eta';
import { isTerminal } from './lifecycle';
import { decideProgress, type ProgressReport } from './progress';

/** A report decided: the delivery's changes, the events they send, and the courier's answer. */
export interface ProgressDecision {
  changes?: DeliveryChanges;
  events: ProviderEventTypeName[];
  answer: { status: StoredDelivery['status']; eventsSent: ProviderEventTypeName[] };
}

/**
 * The report through the table of moves, then the estimate from the driver's position: an
 * eta.updated after the report's own event when it moved by more than the threshold (on the
 * delivery's clock). A location the coalescing rule combines sends nothing but may still move
 * the estimate.
 */
export function progressWithEstimate(delivery: StoredDelivery, report: ProgressReport, now: Date): ProgressDecision {
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
