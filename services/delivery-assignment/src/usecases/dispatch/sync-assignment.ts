import type { Assignment } from '../../domain/delivery';
import { endUnstarted, followProvider } from '../../domain/dispatch/assignment-progress';
import type { ProviderDispatch } from '../../domain/dispatch/dispatch';
import { cancelStageOf, withLog } from '../../domain/dispatch/dispatch';
import { rescueRefusal, withRescue, type Eligibility } from '../../domain/dispatch/dispatch-plan';
import type { DeliveryChange, NoChange } from '../../domain/rules';
import { candidateEligibility } from './candidate-eligibility';
import { isProviderTerminal } from '../../domain/dispatch/status-map';
import { changeDelivery } from '../change-delivery';
import type { DeliveryContext } from '../context';
import { saveDispatch } from './save-dispatch';

/**
 * Brings the assignment in line with what the dispatch knows of the provider (the table of
 * domain/dispatch/status-map.ts): the provider's state, or a create the provider rejected or the
 * platform could not make (the assignment ends Rejected). The assignment change is its own
 * compare-and-set write with its events (delivery.status-changed: Delivered completes the order);
 * then the dispatch records the revision it reflects, so a crash between the two writes only
 * means doing the first again, which changes nothing the second time.
 */
export async function syncAssignment(ctx: DeliveryContext, dispatch: ProviderDispatch): Promise<ProviderDispatch> {
  if (dispatch.appliedRevision >= dispatch.revision) return dispatch;
  const tenant = { tenantId: dispatch.tenantId };
  const target = dispatch.revision;
  const unstarted = dispatch.create.state === 'rejected' || dispatch.create.state === 'failed';
  const rescue = await rescueInputs(ctx, dispatch);
  const decision = await changeDelivery<object, Assignment | null>(ctx, tenant, dispatch.orderId, (delivery, now) => {
    const outcome = dispatch.provider
      ? followProvider(delivery, dispatch._id, dispatch.provider, now)
      : unstarted
        ? endUnstarted(delivery, dispatch._id, now)
        : { gone: true as const };
    if ('gone' in outcome) return { unchanged: null };
    return rescue && endedBeforePickup(outcome) && rescueRefusal(outcome.next, now) === undefined
      ? withRescue(outcome, rescue.eligibility, rescue.assignmentId, now)
      : outcome;
  });
  const ended = 'next' in decision && decision.next.live?.assignmentId !== dispatch._id;
  // The assignment is not the live one (superseded, terminated, or ended Rejected after a failed
  // create) while the provider's delivery lives on: it must be cancelled at the provider.
  const orphaned = 'unchanged' in decision && decision.unchanged === null;
  const saved = await saveDispatch(ctx, tenant, dispatch._id, (current, now) => {
    if (current.appliedRevision >= target) return undefined;
    const log = ended
      ? withLog(current, {
          at: now,
          decision: 'ended',
          reason: current.provider
            ? `the provider's delivery is ${current.provider.status}: the assignment ended`
            : `the assignment ended Rejected: ${current.create.detail ?? 'the create failed'}`,
        })
      : current.log;
    const open = current.provider !== null && !isProviderTerminal(current.provider.status);
    if (!orphaned || !open || current.cancel !== null) return { ...current, appliedRevision: target, log };
    const stage = cancelStageOf(current.provider!.status);
    const why = 'the assignment is no longer live while the provider’s delivery is';
    return {
      ...current,
      appliedRevision: target,
      cancel: { stage, state: 'due', requestedAt: now, detail: why },
      log: withLog(
        { ...current, log },
        { at: now, decision: 'ended', reason: `${why}: a cancel is due at the provider` },
      ),
    };
  });
  return saved ?? dispatch;
}

/** A change that ended the assignment before its goods were collected (a rescue may follow). */
function endedBeforePickup(outcome: DeliveryChange | NoChange): outcome is DeliveryChange {
  if (!('next' in outcome) || outcome.next.live?.assignmentId === outcome.subject.assignmentId) return false;
  const ending = outcome.events.find((e) => e.assignment.assignmentId === outcome.subject.assignmentId);
  return ending?.previousStatus === 'Assigned' || ending?.previousStatus === 'Accepted';
}

/**
 * What a rescue needs, read before the change (a decision does no I/O): the eligibility of the
 * plan's candidates not tried yet, and the id of the assignment it would make. Undefined when the
 * order was not dispatched with rescue.
 */
async function rescueInputs(
  ctx: DeliveryContext,
  dispatch: ProviderDispatch,
): Promise<{ eligibility: Eligibility; assignmentId: string } | undefined> {
  const tenant = { tenantId: dispatch.tenantId };
  const plan = (await ctx.store.deliveries.findByOrder(tenant, dispatch.orderId))?.dispatchPlan;
  if (!plan?.rescue.enabled) return undefined;
  const untried = plan.candidates.filter((id) => !plan.tried.includes(id));
  return { eligibility: await candidateEligibility(ctx, tenant, untried), assignmentId: ctx.newId() };
}
