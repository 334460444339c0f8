import type { Status } from '../../model';
import { NEWS_EVENT_TYPES, type LifecycleEvent } from './lifecycle-events';
import { reachable, type Transitions } from './lifecycle-statuses';

/**
 * "Status and tracking (GET)": a status read returns the state of the latest event or a newer one.
 * The same status is the same state, whatever time the read gives for it (when the status began,
 * or when it was last observed: the contract does not say). Another status must be newer: a
 * status read's eventTimeUtc is when its status began, so against the event it is at least the
 * event's time (at an equal time, a later status the declared moves lead to: two moves may share
 * a timestamp).
 */
export function staleReadProblem(
  event: LifecycleEvent,
  read: { status: Status; eventTimeUtc: string | null },
  transitions?: Transitions,
): string | undefined {
  const readMs = read.eventTimeUtc === null ? NaN : Date.parse(read.eventTimeUtc);
  const said = `the status read after ${event.eventType ?? 'an event'} (${event.status} at ${String(event.event.eventTimeUtc)}) said ${read.status} at ${read.eventTimeUtc ?? 'no time'}`;
  if (Number.isNaN(readMs)) return `${said}: its eventTimeUtc is not a date`;
  if (Number.isNaN(event.timeMs)) return undefined; // SDP-EVENTS-09 reports an event without a valid time
  const later = (to: Status) => transitions !== undefined && reachable(transitions, event.status, to);
  if (read.status === event.status) return undefined;
  if (event.eventType !== undefined && NEWS_EVENT_TYPES.includes(event.eventType)) {
    if (readMs >= event.timeMs) return undefined;
    return `${said}: a status that ended before the event, older than the event`;
  }
  if (readMs > event.timeMs) {
    if (transitions !== undefined && read.status !== event.status && !later(read.status))
      return `${said}: a status the declared transitions do not lead to from ${event.status}`;
    return undefined;
  }
  if (readMs < event.timeMs) return `${said}: older than the event`;
  if (read.status === event.status || later(read.status)) return undefined;
  return `${said}: the same time but another status`;
}
