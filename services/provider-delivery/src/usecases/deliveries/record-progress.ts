import type { ProviderEventTypeName } from '@marketplace/contracts';
import { conflict, validationError } from '@marketplace/errors';
import { trackingUrlOf, type StoredDelivery } from '../../domain/delivery';
import { decideProgress, type ProgressReport } from '../../domain/progress';
import type { ProviderContext } from '../context';
import { changeDelivery } from './change-delivery';

export interface ProgressRecorded {
  delivery: StoredDelivery;
  /** The event sent to the platform; null when a location update was combined into later ones. */
  eventSent: ProviderEventTypeName | null;
}

/**
 * Records what happened to a delivery (domain/progress.ts decides), and sends its event. A move
 * the table refuses is 409 `delivery.transition_not_allowed`; data an event requires but lacks is
 * 400 `request.invalid`.
 */
export async function recordProgress(
  ctx: ProviderContext,
  accountId: string,
  providerDeliveryId: string,
  report: ProgressReport,
): Promise<ProgressRecorded> {
  return changeDelivery(ctx, { accountId }, providerDeliveryId, (delivery, now) => {
    // A driver assigned gets the delivery its tracking page, whoever reports it (courier or operator).
    if (report.eventType === 'driver.assigned' && report.trackingUrl === undefined && delivery.trackingToken)
      report = {
        ...report,
        trackingUrl: delivery.tracking.trackingUrl ?? trackingUrlOf(ctx.publicBaseUrl, delivery.trackingToken),
      };
    const outcome = decideProgress(delivery, report, now);
    if (outcome.kind === 'invalid') throw validationError('request.invalid', 'The report is invalid.', outcome.errors);
    if (outcome.kind === 'refused')
      throw conflict('delivery.transition_not_allowed', outcome.message, { status: delivery.status });
    const moved = outcome.status !== delivery.status || report.eventType === 'driver.assigned';
    const changes = {
      status: outcome.status,
      statusEventTimeUtc: moved ? now : delivery.statusEventTimeUtc,
      tracking: outcome.tracking,
      ...(outcome.event === 'driver.location_updated'
        ? { lastSentLocation: { at: now, lat: outcome.tracking.driverLat!, lng: outcome.tracking.driverLng! } }
        : {}),
    };
    return {
      changes,
      events: outcome.event ? [outcome.event] : [],
      answer: { delivery: { ...delivery, ...changes }, eventSent: outcome.event },
    };
  });
}
