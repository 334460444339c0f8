import type { ReceivedCallback, Status } from '../../model';
import { EVENT_TABLE, isStatus, isTerminal } from '../../spec';
import type { CallbackEvent } from '../../test-api';

/**
 * A delivery's events as the events checks read them. The platform rejects an event whose status
 * is outside the vocabulary (SDP-EVENTS-03 reports those) and stops at the first terminal event
 * (SDP-EVENTS-05 reports what came after), so the other checks look only at the recognized events
 * up to the first terminal one; a retry (the same bytes again) counts once.
 */

/** An event with a recognized status and a parseable time. */
export interface LifecycleEvent {
  event: Record<string, unknown>;
  callback: ReceivedCallback;
  status: Status;
  eventType: string | undefined;
  /** eventTimeUtc in ms since the epoch; NaN when it is not a date. */
  timeMs: number;
}

/** Events that report news without a status change (the table's "current status" rows). */
export const NEWS_EVENT_TYPES: readonly string[] = Object.entries(EVENT_TABLE)
  .filter(([, row]) => row.status === 'nonterminal' || row.status === 'current')
  .map(([type]) => type);

/** The callbacks parsed as JSON objects (undefined when a body is not one). */
export function parsedCallbacks(received: readonly ReceivedCallback[]): CallbackEvent[] {
  return received.map((callback) => {
    try {
      const value: unknown = JSON.parse(callback.body.toString('utf8'));
      const event = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
      return { callback, event: event as Record<string, unknown> | undefined };
    } catch {
      return { callback, event: undefined };
    }
  });
}

/** Each distinct body once (the first arrival), in arrival order: retries are the same bytes. */
export function distinctEvents(events: readonly CallbackEvent[]): CallbackEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    const key = e.callback.body.toString('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const asLifecycle = (e: CallbackEvent): LifecycleEvent | undefined => {
  if (!e.event || !isStatus(e.event.status)) return undefined;
  const eventType = typeof e.event.eventType === 'string' ? e.event.eventType : undefined;
  const timeMs = typeof e.event.eventTimeUtc === 'string' ? Date.parse(e.event.eventTimeUtc) : NaN;
  return { event: e.event, callback: e.callback, status: e.event.status, eventType, timeMs };
};

/** The recognized events of one delivery in arrival order, retries once, up to and including the first terminal one. */
export function lifecycleEvents(events: readonly CallbackEvent[]): LifecycleEvent[] {
  const out: LifecycleEvent[] = [];
  for (const e of distinctEvents(events)) {
    const recognized = asLifecycle(e);
    if (!recognized) continue;
    out.push(recognized);
    if (isTerminal(recognized.status)) break;
  }
  return out;
}

/** Ordered by eventTimeUtc (arrival order among equal times; an event without a valid time keeps its arrival place at the end). */
export function byEventTime(events: readonly LifecycleEvent[]): LifecycleEvent[] {
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const [ta, tb] = [a.e.timeMs, b.e.timeMs];
      if (Number.isNaN(ta) || Number.isNaN(tb))
        return Number.isNaN(ta) === Number.isNaN(tb) ? a.i - b.i : Number.isNaN(ta) ? 1 : -1;
      return ta - tb || a.i - b.i;
    })
    .map(({ e }) => e);
}

/**
 * Nonterminal events that arrived after the first terminal one, in arrival order. A retry of an
 * event that had already arrived before the terminal one is a duplicate (allowed), not a new event.
 */
export function nonterminalAfterTerminal(events: readonly CallbackEvent[]): LifecycleEvent[] {
  const before = new Set<string>();
  let terminalSeen = false;
  const late: LifecycleEvent[] = [];
  for (const e of events) {
    const key = e.callback.body.toString('base64');
    const recognized = asLifecycle(e);
    if (terminalSeen) {
      if (recognized && !isTerminal(recognized.status) && !before.has(key)) late.push(recognized);
      continue;
    }
    before.add(key);
    if (recognized && isTerminal(recognized.status)) terminalSeen = true;
  }
  return late;
}

/** "driver.assigned (driver_assigned, 2026-…)" for messages. */
export const showEvent = (e: LifecycleEvent): string =>
  `${e.eventType ?? 'an event without eventType'} (${e.status}, ${String(e.event.eventTimeUtc)})`;

/** A field of an event as text for a message (a string as is, anything else as JSON, `fallback` when absent). */
export const fieldText = (value: unknown, fallback: string): string =>
  value === undefined || value === null ? fallback : typeof value === 'string' ? value : JSON.stringify(value);
