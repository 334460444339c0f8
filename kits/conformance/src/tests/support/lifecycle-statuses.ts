import type { Declaration, Status } from '../../model';
import { isStatus, isTerminal } from '../../spec';

/**
 * Status sequences against a declaration's transitions. A poll or an event stream may skip a
 * status (a poll between two moves, an event type the platform did not opt in to), so a later
 * status "follows" an earlier one when the declared moves lead from one to the other, in one step
 * or several; going back, or any move out of a terminal status, never follows.
 */

export type Transitions = NonNullable<Declaration['transitions']>;

/** Whether `to` can be reached from `from` in one or more declared moves. */
export function reachable(transitions: Transitions, from: Status, to: Status): boolean {
  const seen = new Set<Status>();
  const queue: Status[] = [...(transitions[from] ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (next === to) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(transitions[next] ?? []));
  }
  return false;
}

/** The sequence with repeats of the same status in a row collapsed ("a, a, b, a" → "a, b, a"). */
export function collapsed<T>(sequence: readonly T[]): T[] {
  return sequence.filter((value, i) => i === 0 || sequence[i - 1] !== value);
}

/**
 * What is wrong with a sequence of statuses as observed in order: a status after a terminal one,
 * and (when transitions are declared) a change the declared moves do not lead to. Repeats of a
 * status are no change.
 */
export function sequenceProblems(statuses: readonly Status[], transitions?: Transitions): string[] {
  const problems: string[] = [];
  const steps = collapsed(statuses);
  for (let i = 1; i < steps.length; i++) {
    const [from, to] = [steps[i - 1]!, steps[i]!];
    if (isTerminal(from)) problems.push(`${to} came after the terminal status ${from}`);
    else if (transitions && !reachable(transitions, from, to))
      problems.push(`${from} → ${to} is not a move the declared transitions lead to`);
  }
  return problems;
}

/** "a → b → c" for messages. */
export const showSequence = (statuses: readonly unknown[]): string =>
  statuses.length === 0 ? '(none)' : collapsed(statuses).map(String).join(' → ');

/** The recognized statuses of a list of values (anything outside the vocabulary dropped). */
export const recognizedStatuses = (values: readonly unknown[]): Status[] => values.filter(isStatus);

/** The goods with the driver, on the way to the customer. */
export const CARRYING: readonly Status[] = ['picked_up', 'on_the_way'];
/** The statuses of a return to origin, and its ends. */
export const RETURN_STATUSES: readonly Status[] = [
  'return_requested',
  'returning_to_origin',
  'returned_to_origin',
  'return_failed',
];
const RETURN_ENDS: readonly Status[] = ['returned_to_origin', 'return_failed'];

/** What is wrong with the statuses seen after an accepted return: carrying first (the return not yet applied), then return statuses only. */
export function returnPathProblem(seen: readonly Status[]): string | undefined {
  const steps = collapsed(seen);
  const first = steps.findIndex((s) => RETURN_STATUSES.includes(s));
  const head = first === -1 ? steps : steps.slice(0, first);
  const stray = [
    ...head.filter((s) => !CARRYING.includes(s)),
    ...steps.slice(first === -1 ? steps.length : first).filter((s) => !RETURN_STATUSES.includes(s)),
  ];
  if (stray.length > 0) return `after an accepted return: expected only return statuses, got ${showSequence(seen)}`;
  const end = steps[steps.length - 1];
  if (end === undefined || !RETURN_ENDS.includes(end))
    return `after an accepted return: expected it to end in returned_to_origin or return_failed, got ${showSequence(seen)}`;
  return undefined;
}
