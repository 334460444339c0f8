import type { Delivery } from '../delivery';
import { assign, type DeliveryChange } from '../rules';
import type { DispatchPlan, PlanLogEntry } from './plan';

export type { DispatchPlan, PlanLogEntry } from './plan';

/** Why each candidate cannot take a delivery now (undefined: it can), found by the use case. */
export type Eligibility = ReadonlyMap<string, string | undefined>;

/**
 * The first candidate, in rank, that was not tried and can take the delivery, with a `skipped`
 * line for each one passed over (tried ones are skipped silently: the log says why already).
 */
export function pickCandidate(
  plan: Pick<DispatchPlan, 'candidates' | 'tried'>,
  eligibility: Eligibility,
  now: Date,
): { chosen: string | undefined; skipped: PlanLogEntry[] } {
  const skipped: PlanLogEntry[] = [];
  for (const installationId of plan.candidates) {
    if (plan.tried.includes(installationId)) continue;
    const refusal = eligibility.has(installationId)
      ? eligibility.get(installationId)
      : 'not a provider connection of the tenant';
    if (refusal === undefined) return { chosen: installationId, skipped };
    skipped.push({ at: now, installationId, decision: 'skipped', reason: refusal });
  }
  return { chosen: undefined, skipped };
}

/** Why a delivery whose dispatch just ended may not be rescued, or undefined when it may. */
export function rescueRefusal(delivery: Delivery, now: Date): string | undefined {
  const plan = delivery.dispatchPlan;
  if (!plan?.rescue.enabled) return 'the order was not dispatched with rescue';
  if (plan.rescue.until && now.getTime() > plan.rescue.until.getTime()) return 'the rescue window is over';
  if (delivery.live) return 'the order has a live assignment';
  if (delivery.order.status !== 'Pending' && delivery.order.status !== 'Accepted')
    return `the order is ${delivery.order.status}`;
  return undefined;
}

/**
 * Rescue: the change that ended a dispatch before pickup (a rejection, a failed create, the
 * provider's cancel or failure) also assigns the delivery to the next candidate, in the same
 * write: both events (the end, then delivery.assigned) or neither. The pickup snapshot is the
 * ended assignment's. Unchanged (the end alone) when no candidate is left, with a log line.
 */
export function withRescue(
  ended: DeliveryChange,
  eligibility: Eligibility,
  assignmentId: string,
  now: Date,
): DeliveryChange {
  const next = ended.next;
  const plan = next.dispatchPlan!;
  const { chosen, skipped } = pickCandidate(plan, eligibility, now);
  if (chosen === undefined) {
    const none: PlanLogEntry = {
      at: now,
      installationId: ended.subject.installationId,
      decision: 'skipped',
      reason: 'no rescue: no connection left to try',
    };
    return { ...ended, next: { ...next, dispatchPlan: { ...plan, log: [...plan.log, ...skipped, none] } } };
  }
  const assigned = assign(next, { installationId: chosen, assignmentId, pickup: ended.subject.pickup }, now);
  if ('unchanged' in assigned) return ended;
  const rescued: PlanLogEntry = {
    at: now,
    installationId: chosen,
    decision: 'rescued',
    reason: `the dispatch to the previous connection ended before pickup (${ended.subject.status})`,
  };
  return {
    next: {
      ...assigned.next,
      dispatchPlan: { ...plan, tried: [...plan.tried, chosen], log: [...plan.log, ...skipped, rescued] },
    },
    subject: ended.subject,
    events: [...ended.events, ...assigned.events],
  };
}
