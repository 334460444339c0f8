import { createHash } from 'node:crypto';
import type { ProviderStatusName } from '@marketplace/contracts';
import { isProviderTerminal, PROVIDER_STATUS_RANK } from './status-map';

/** What the platform knows of a provider's delivery: the last recognised state and its data. */
export interface ProviderState {
  status: ProviderStatusName;
  /** The provider's time of the event (or of the status read) that set `status`. */
  eventTime: Date;
  driverName: string | null;
  driverPhone: string | null;
  driverLat: number | null;
  driverLng: number | null;
  trackingUrl: string | null;
  eta: Date | null;
}

/**
 * A report of the provider's state: a callback's event or a status (and tracking) read. A field
 * absent (undefined) leaves what is known; null says it is unknown now.
 */
export interface ProviderReport {
  status: ProviderStatusName;
  eventTime: Date;
  driverName?: string | null;
  driverPhone?: string | null;
  driverLat?: number | null;
  driverLng?: number | null;
  trackingUrl?: string | null;
  eta?: Date | null;
}

export type Judgement = { kind: 'apply'; next: ProviderState } | { kind: 'stale'; why: string } | { kind: 'unchanged' };

const DETAILS = ['driverName', 'driverPhone', 'driverLat', 'driverLng', 'trackingUrl', 'eta'] as const;

/**
 * Whether a report changes the known state (the contract: events may be duplicated or arrive out
 * of order; the platform ignores stale regressions using event time and allowed transitions):
 * - a status of a higher rank applies (a skipped status is fine: events may be lost or combined);
 * - a lower rank, or anything after a terminal status, is stale;
 * - the same status with a later event time updates the data (a new location, a new driver), an
 *   earlier one is stale, the same time with the same data is a duplicate.
 */
export function judgeReport(known: ProviderState | null, report: ProviderReport): Judgement {
  if (!known) return { kind: 'apply', next: merged(null, report) };
  const rankNow = PROVIDER_STATUS_RANK[known.status];
  const rankNew = PROVIDER_STATUS_RANK[report.status];
  if (isProviderTerminal(known.status))
    return report.status === known.status && sameData(known, report)
      ? { kind: 'unchanged' }
      : { kind: 'stale', why: `the delivery is ${known.status} already (terminal)` };
  if (rankNew < rankNow) return { kind: 'stale', why: `${report.status} is behind ${known.status}` };
  if (rankNew > rankNow) return { kind: 'apply', next: merged(known, report) };
  if (report.status !== known.status)
    return { kind: 'stale', why: `${report.status} and ${known.status} are alternatives; the first stays` };
  if (report.eventTime.getTime() < known.eventTime.getTime())
    return { kind: 'stale', why: `older than the ${known.status} already known` };
  const next = merged(known, report);
  return sameState(known, next) ? { kind: 'unchanged' } : { kind: 'apply', next };
}

function merged(known: ProviderState | null, report: ProviderReport): ProviderState {
  const next: ProviderState = {
    status: report.status,
    eventTime: report.eventTime,
    driverName: known?.driverName ?? null,
    driverPhone: known?.driverPhone ?? null,
    driverLat: known?.driverLat ?? null,
    driverLng: known?.driverLng ?? null,
    trackingUrl: known?.trackingUrl ?? null,
    eta: known?.eta ?? null,
  };
  for (const field of ['driverName', 'driverPhone', 'trackingUrl', 'eta'] as const)
    if (report[field] !== undefined) (next as unknown as Record<string, unknown>)[field] = report[field];
  // Coordinates are a pair: both given replace the known position (both null, or one null: no
  // position); one alone is no position and leaves the known one, never half of a new one.
  if (report.driverLat !== undefined && report.driverLng !== undefined) {
    const both = report.driverLat !== null && report.driverLng !== null;
    next.driverLat = both ? report.driverLat : null;
    next.driverLng = both ? report.driverLng : null;
  }
  return next;
}

const time = (d: Date | null) => (d === null ? null : d.getTime());

function sameState(a: ProviderState, b: ProviderState): boolean {
  return (
    a.status === b.status &&
    a.eventTime.getTime() === b.eventTime.getTime() &&
    a.driverName === b.driverName &&
    a.driverPhone === b.driverPhone &&
    a.driverLat === b.driverLat &&
    a.driverLng === b.driverLng &&
    a.trackingUrl === b.trackingUrl &&
    time(a.eta) === time(b.eta)
  );
}

function sameData(known: ProviderState, report: ProviderReport): boolean {
  return sameState(known, merged(known, report));
}

/** An event's identity for deduplication: the same bytes' meaning (type, status, time, data), never a secret. */
export function reportFingerprint(eventType: string | undefined, report: ProviderReport): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        eventType ?? null,
        report.status,
        report.eventTime.toISOString(),
        // Absent (keep what is known) and null (unknown now) are different reports.
        ...DETAILS.map((f) => {
          const value = report[f];
          return value === undefined ? '(absent)' : value instanceof Date ? value.toISOString() : value;
        }),
      ]),
    )
    .digest('base64url')
    .slice(0, 22);
}
