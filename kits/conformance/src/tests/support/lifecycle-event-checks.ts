import type { Declaration, ReceivedCallback } from '../../model';
import { EVENT_TABLE, isRfc3339, isStatus, isTerminal, SPEC_EVENT_TYPES } from '../../spec';
import type { CallbackEvent } from '../../test-api';
import { headerOf, isJsonMediaType, signatureProblem } from './checks';
import { coordinateProblems } from './lifecycle-answers';
import {
  byEventTime,
  fieldText,
  distinctEvents,
  lifecycleEvents,
  nonterminalAfterTerminal,
  showEvent,
  type LifecycleEvent,
} from './lifecycle-events';
import { sequenceProblems, showSequence, type Transitions } from './lifecycle-statuses';

/**
 * The run-wide events checks, per delivery (pure: each gives the problems of one delivery's
 * callbacks; the test adds them up over every delivery of the run).
 */

export interface DeliveryCallbacks {
  platformReference: string;
  providerDeliveryId: string;
  /** Every request that arrived at the delivery's callback, in arrival order, retries included. */
  events: readonly CallbackEvent[];
}

const at = (d: DeliveryCallbacks, what: string) => `delivery ${d.platformReference}: ${what}`;
const each = (d: DeliveryCallbacks, check: (e: LifecycleEvent) => string | undefined): string[] =>
  lifecycleEvents(d.events).flatMap((e) => {
    const problem = check(e);
    return problem === undefined ? [] : [at(d, `${showEvent(e)} ${problem}`)];
  });

/** SDP-EVENTS-01: every request (retries too) signed over its exact bytes. */
export function signatureProblems(d: DeliveryCallbacks, secret: string): string[] {
  return d.events.flatMap(({ callback }: { callback: ReceivedCallback }, i) => {
    const problem = signatureProblem(callback.body, headerOf(callback.headers, 'x-platform-signature'), secret);
    return problem === undefined ? [] : [at(d, `callback ${i + 1}: ${problem}`)];
  });
}

/** SDP-EVENTS-02: eventType present and from the table or the declared extra types. */
export function eventTypeProblems(d: DeliveryCallbacks, extra: readonly string[] = []): string[] {
  return each(d, (e) => {
    if (e.eventType === undefined) return 'has no string eventType (required in 1.1)';
    return SPEC_EVENT_TYPES.includes(e.eventType) || extra.includes(e.eventType)
      ? undefined
      : 'has an eventType neither in the contract’s table nor declared in extraEventTypes';
  });
}

/** SDP-EVENTS-03: every event's status in the vocabulary (nothing ignored here). */
export function vocabularyProblems(d: DeliveryCallbacks): string[] {
  return distinctEvents(d.events).flatMap(({ event }) => {
    if (event === undefined || isStatus(event.status)) return [];
    return [
      at(
        d,
        `${fieldText(event.eventType, 'an event')} carries the status ${JSON.stringify(event.status ?? null)}, outside the vocabulary`,
      ),
    ];
  });
}

/** SDP-EVENTS-04: identifiers echoed unchanged, so each event belongs to the delivery whose callback it reached. */
export function identifierProblems(d: DeliveryCallbacks): string[] {
  return each(d, (e) => {
    if (e.event.platformReference !== d.platformReference)
      return `reached this delivery’s callback with platformReference ${JSON.stringify(e.event.platformReference ?? null)}`;
    const id = e.event.providerDeliveryId;
    if (id !== undefined && id !== null && id !== d.providerDeliveryId)
      return `has providerDeliveryId ${JSON.stringify(id)}, not the create answer’s ${JSON.stringify(d.providerDeliveryId)}`;
    return undefined;
  });
}

/** SDP-EVENTS-05: no nonterminal event after a terminal one, in arrival order. */
export function afterTerminalProblems(d: DeliveryCallbacks): string[] {
  return nonterminalAfterTerminal(d.events).map((e) => at(d, `${showEvent(e)} arrived after a terminal event`));
}

/** SDP-EVENTS-07: driverLat/driverLng paired and in range. */
export function eventCoordinateProblems(d: DeliveryCallbacks): string[] {
  return each(d, (e) => {
    const problems = coordinateProblems(e.event.driverLat, e.event.driverLng);
    return problems.length === 0 ? undefined : problems.join('; ');
  });
}

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** What a table event lacks: its expected status and required data. */
export function tableRowProblem(e: LifecycleEvent): string | undefined {
  const row = e.eventType === undefined ? undefined : EVENT_TABLE[e.eventType];
  if (!row) return undefined;
  if (row.status === 'nonterminal' && isTerminal(e.status))
    return 'carries a terminal status (expected the current nonterminal one)';
  if (row.status !== 'nonterminal' && row.status !== 'current' && row.status !== e.status)
    return `expected status ${row.status}`;
  const missing = row.requires.filter((field) => !present(e.event[field]));
  if (missing.length > 0) return `lacks ${missing.join(', ')}`;
  if (row.requiresAny && !row.requiresAny.some((field) => present(e.event[field])))
    return `carries none of ${row.requiresAny.join(', ')}`;
  if (row.requires.includes('estimatedDeliveryAtUtc') && !isRfc3339(e.event.estimatedDeliveryAtUtc))
    return 'has an estimatedDeliveryAtUtc that is not RFC 3339 with an offset';
  return undefined;
}

/** SDP-EVENTS-08: each table event carries its expected status and required data. */
export const tableProblems = (d: DeliveryCallbacks): string[] => each(d, tableRowProblem);

/**
 * SDP-EVENTS-09: required fields present and typed, JSON media type. A missing provider
 * identifier is a SHOULD: a note. Events whose status is a string outside the vocabulary, and
 * those after the first terminal event, are left to SDP-EVENTS-03 and -05.
 */
export function requiredFieldProblems(d: DeliveryCallbacks): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  let ended = false;
  for (const { callback, event } of distinctEvents(d.events)) {
    if (ended) break;
    const where = (what: string) => at(d, `${fieldText(event?.eventType, 'a callback')} ${what}`);
    if (event === undefined) {
      problems.push(where('is not a JSON object'));
      continue;
    }
    if (typeof event.status === 'string' && !isStatus(event.status)) continue;
    if (!isJsonMediaType(headerOf(callback.headers, 'content-type')))
      problems.push(where(`has Content-Type ${headerOf(callback.headers, 'content-type') ?? 'none'}`));
    if (typeof event.platformReference !== 'string' || event.platformReference === '')
      problems.push(where('has no platformReference string'));
    if (!isStatus(event.status)) problems.push(where('has no status'));
    if (!isRfc3339(event.eventTimeUtc))
      problems.push(
        where(`has eventTimeUtc ${JSON.stringify(event.eventTimeUtc ?? null)}, not RFC 3339 with an offset`),
      );
    if (typeof event.providerDeliveryId !== 'string' && typeof event.providerTrackingId !== 'string')
      notes.push(where('has neither providerDeliveryId nor providerTrackingId (SHOULD)'));
    if (isStatus(event.status) && isTerminal(event.status)) ended = true;
  }
  return { problems, notes };
}

/** SDP-EVENTS-10: statuses by eventTimeUtc, up to the first terminal one, follow the declared transitions. */
export function transitionProblems(d: DeliveryCallbacks, transitions: Transitions): string[] {
  const ordered = byEventTime(lifecycleEvents(d.events));
  const end = ordered.findIndex((e) => isTerminal(e.status));
  const statuses = (end === -1 ? ordered : ordered.slice(0, end + 1)).map((e) => e.status);
  return sequenceProblems(statuses, transitions).map((p) => at(d, `${p} (events by time: ${showSequence(statuses)})`));
}

/** The declaration's extra event types. */
export const extraEventTypes = (declaration: Declaration): readonly string[] => declaration.extraEventTypes ?? [];

/**
 * SDP-EVENTS-06: the first request answered with `failedStatus` and a later request with the same
 * bytes (its retry); `retry` is undefined while none came.
 */
export function retryOf(
  received: readonly ReceivedCallback[],
  failedStatus: number,
): { failed: ReceivedCallback | undefined; retry: ReceivedCallback | undefined } {
  const index = received.findIndex((c) => c.answeredStatus === failedStatus);
  if (index === -1) return { failed: undefined, retry: undefined };
  const failed = received[index]!;
  const retry = received.slice(index + 1).find((c) => c.body.equals(failed.body));
  return { failed, retry };
}
