import type { Outcome, Status } from '../../model';

/**
 * Judging an answer that raced the provider's own progress. A cancel, a return or an update is
 * sent right after a status read, but the provider moves the delivery on its own: the answer is
 * right when it is the declared outcome of the status read just before, or of a status the
 * delivery held between that read and the read just after (seen in that read or in events timed
 * between the two). Statuses the request itself produces (`cancelled` after a cancel) are no
 * evidence: they would excuse any confirmation.
 */

export interface TimedStatus {
  status: Status;
  /** eventTimeUtc in ms since the epoch (NaN when unknown). */
  timeMs: number;
}

/**
 * The statuses, other than `before`, that the delivery held between the two reads: the status of
 * the read after, and those of events timed after the read before and not after the read after.
 * When the read after shows a status the request produced, the request's time bounds the window
 * and that status is left out.
 */
export function heldBetween(
  before: TimedStatus,
  after: TimedStatus | null,
  events: readonly TimedStatus[],
  producedByRequest: readonly Status[],
): Status[] {
  const produced = (s: Status) => s !== before.status && producedByRequest.includes(s);
  const held = new Set<Status>();
  if (after && !produced(after.status)) held.add(after.status);
  if (after && !Number.isNaN(before.timeMs) && !Number.isNaN(after.timeMs)) {
    const afterIsResult = produced(after.status);
    for (const e of events) {
      const inWindow = e.timeMs > before.timeMs && (afterIsResult ? e.timeMs < after.timeMs : e.timeMs <= after.timeMs);
      if (inWindow && !produced(e.status)) held.add(e.status);
    }
  }
  held.delete(before.status);
  return [...held];
}

export type Verdict = { ok: true; note: string } | { ok: false; reason: string };

/**
 * Whether `got` is the declared outcome of `before` or of a status held between the reads; a
 * status the declaration does not list is not checked (the answer passes, with a note saying so).
 */
export function judgeOutcome(
  what: string,
  got: Outcome,
  before: Status,
  held: readonly Status[],
  declared: (status: Status) => Outcome | undefined,
  show: (outcome: Outcome) => string = (outcome) => outcome,
): Verdict {
  if (declared(before) === got)
    return { ok: true, note: `${what}: ${show(got)}, as declared for ${before} (the status read just before)` };
  const moved = held.find((s) => declared(s) === got);
  if (moved)
    return {
      ok: true,
      note: `${what}: ${show(got)}, as declared for ${moved}, a status the delivery held between the read before (${before}) and the read after`,
    };
  const undeclared = [before, ...held].filter((s) => declared(s) === undefined);
  if (undeclared.length > 0)
    return {
      ok: true,
      note: `${what}: ${show(got)}; not checked, the declaration gives no outcome for ${undeclared.join(', ')}`,
    };
  const others = held.map((s) => `${show(declared(s)!)} for ${s}`).join(', ');
  return {
    ok: false,
    reason:
      `${what}: expected ${show(declared(before)!)} (declared for ${before}, the status read just before)` +
      `${others ? `, or the outcome of a status held until the read after (${others})` : ''}, got ${show(got)}`,
  };
}
