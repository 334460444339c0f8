import { PROVIDER_EVENTS, type ProviderEventTypeName } from '@marketplace/contracts';
import type { FieldErrors } from '@marketplace/errors';
import { shouldSendLocation, type Delivery, type Tracking } from './delivery';
import { canMove, mayReport, UPDATE_EVENTS, type Status } from './lifecycle';

/**
 * What happened to a delivery, as its dispatcher reports it (today the administrator API; the
 * courier API and the simulator of the drivers issue report through the same rule): an event of
 * the contract and the driver, location, estimate and tracking data it brings. A field left out
 * keeps its value; null clears it.
 */
export interface ProgressReport {
  eventType: ProviderEventTypeName;
  driverName?: string | null;
  driverPhone?: string | null;
  driverLat?: number | null;
  driverLng?: number | null;
  trackingUrl?: string | null;
  estimatedDeliveryAtUtc?: Date | null;
}

export type ProgressOutcome =
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'refused'; message: string }
  | {
      kind: 'apply';
      status: Status;
      tracking: Tracking;
      /** The event to send; null when a location update is combined into later ones (coalescing). */
      event: ProviderEventTypeName | null;
    };

const TRACKING_FIELDS = [
  'driverName',
  'driverPhone',
  'driverLat',
  'driverLng',
  'trackingUrl',
  'estimatedDeliveryAtUtc',
] as const;

/**
 * The one place that decides whether a reported event may happen now (pure):
 * - a status event needs the move in the table of moves (lifecycle.ts `canMove`): nothing after a
 *   terminal status, nothing backwards;
 * - location, ETA and tracking updates need a nonterminal status, and the data their event
 *   requires (`PROVIDER_EVENTS[...].requires`), reported in this very call;
 * - `driver.assigned` needs the driver's name;
 * - a location update closer than the coalescing rule allows (delivery.ts `shouldSendLocation`)
 *   changes the tracking read but sends no event.
 */
export function decideProgress(delivery: Delivery, report: ProgressReport, now: Date): ProgressOutcome {
  const rule = PROVIDER_EVENTS[report.eventType];
  const isUpdate = (UPDATE_EVENTS as readonly string[]).includes(report.eventType);
  const errors: FieldErrors = {};
  for (const field of rule.requires)
    if (report[field as keyof ProgressReport] == null) errors[field] = [`is required for ${report.eventType}`];
  if (report.eventType === 'driver.assigned' && report.driverName == null)
    errors.driverName = ['is required for driver.assigned'];
  if (
    (report.driverLat === undefined) !== (report.driverLng === undefined) ||
    (report.driverLat === null) !== (report.driverLng === null)
  )
    errors.driverLat = ['driverLat and driverLng are reported together'];
  if (report.eventType === 'tracking.updated' && TRACKING_FIELDS.every((f) => report[f] === undefined))
    errors['(body)'] = ['tracking.updated needs at least one tracking field'];
  if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };

  let status = delivery.status;
  if (isUpdate) {
    if (!mayReport(status)) return { kind: 'refused', message: `The delivery is ${status}: it reports nothing more.` };
  } else {
    const to = rule.status as Status;
    if (!canMove(status, to)) return { kind: 'refused', message: `A delivery ${status} cannot move to ${to}.` };
    status = to;
  }
  const tracking: Tracking = { ...delivery.tracking, eventTimeUtc: now };
  for (const field of TRACKING_FIELDS)
    if (report[field] !== undefined) Object.assign(tracking, { [field]: report[field] });

  let event: ProviderEventTypeName | null = report.eventType;
  if (report.eventType === 'driver.location_updated') {
    if (!shouldSendLocation(delivery.lastSentLocation, { lat: tracking.driverLat!, lng: tracking.driverLng! }, now))
      event = null;
  }
  return { kind: 'apply', status, tracking, event };
}
