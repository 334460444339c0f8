import type { Assignment, Delivery } from '../delivery';
import { moveLive, statusChange, type DeliveryChange, type NoChange } from '../rules';
import type { ProviderState } from './provider-state';
import { ASSIGNMENT_FOR_PROVIDER_STATUS, ASSIGNMENT_RANK } from './status-map';

/**
 * The assignment a provider connection holds, brought in line with the provider's state (the
 * table of status-map.ts): it moves forward only, takes the driver, ETA and tracking URL the
 * provider reported, and ends (Cancelled) when the provider's delivery ended without delivering.
 * Unchanged when the assignment is no longer the live one (superseded, terminated: the dispatcher
 * cancels at the provider instead) or already says all this.
 */
export function followProvider(
  delivery: Delivery | undefined,
  assignmentId: string,
  state: ProviderState,
  now: Date,
): DeliveryChange | NoChange | { gone: true } {
  const live = delivery?.live;
  if (!delivery || !live || live.assignmentId !== assignmentId) return { gone: true };
  const target = ASSIGNMENT_FOR_PROVIDER_STATUS[state.status];
  const details = detailsOf(live, state);
  if (target === 'Cancelled') return statusChange(delivery, 'Cancelled', details ?? {}, now);
  const forward = (ASSIGNMENT_RANK[target] ?? 0) > (ASSIGNMENT_RANK[live.status] ?? 0);
  if (forward) {
    const responded = live.status === 'Assigned' ? { respondedAt: now } : {};
    return statusChange(delivery, target, { ...responded, ...(details ?? {}) }, now);
  }
  if (!details) return { unchanged: live };
  const next = moveLive(delivery, details, now);
  return { next, subject: next.live!, events: [] };
}

/** The provider's driver, ETA and tracking URL where they differ from the assignment's; undefined when none does. */
function detailsOf(live: Assignment, state: ProviderState): Partial<Assignment> | undefined {
  const changes: Partial<Assignment> = {};
  if (state.driverName !== live.driverName) changes.driverName = state.driverName;
  if (state.driverPhone !== live.driverPhone) changes.driverPhone = state.driverPhone;
  if ((state.eta?.getTime() ?? null) !== (live.eta?.getTime() ?? null)) changes.eta = state.eta;
  if (state.trackingUrl !== live.trackingUrl) changes.trackingUrl = state.trackingUrl;
  return Object.keys(changes).length > 0 ? changes : undefined;
}

/**
 * The provider refused the delivery (a business rejection), or the platform could not create it
 * (the provider unreachable after its attempts, or an answer it cannot use): the live assignment,
 * still Assigned, ends Rejected, as a partner's reject would end it. Unchanged otherwise (the
 * provider's callbacks moved it already, or it is no longer live).
 */
export function endUnstarted(
  delivery: Delivery | undefined,
  assignmentId: string,
  now: Date,
): DeliveryChange | NoChange | { gone: true } {
  const live = delivery?.live;
  if (!delivery || !live || live.assignmentId !== assignmentId) return { gone: true };
  if (live.status !== 'Assigned') return { unchanged: live };
  return statusChange(delivery, 'Rejected', { respondedAt: now }, now);
}
