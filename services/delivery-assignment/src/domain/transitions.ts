import type { AssignmentStatusName, Delivery } from './delivery';

export interface AssignmentTransition {
  /** `none`: the assignment is new. */
  from: AssignmentStatusName | 'none';
  to: AssignmentStatusName;
}

/**
 * The assignments whose status a write changed, from the order's delivery before and after it:
 * a new assignment (from `none`), the one it supersedes, an accept, a status update, a
 * termination. Assignments are told apart by id, so a live one moved to the history counts once.
 */
export function assignmentTransitions(before: Delivery | undefined, after: Delivery): AssignmentTransition[] {
  const was = new Map<string, AssignmentStatusName>();
  for (const assignment of [...(before?.history ?? []), ...(before?.live ? [before.live] : [])])
    was.set(assignment.assignmentId, assignment.status);
  const transitions: AssignmentTransition[] = [];
  for (const assignment of [...after.history, ...(after.live ? [after.live] : [])]) {
    const from = was.get(assignment.assignmentId) ?? 'none';
    if (from !== assignment.status) transitions.push({ from, to: assignment.status });
  }
  return transitions;
}
