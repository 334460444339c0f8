import type { Assignment } from '../../domain/delivery';
import { endUnstarted, followProvider } from '../../domain/dispatch/assignment-progress';
import type { ProviderDispatch } from '../../domain/dispatch/dispatch';
import { cancelStageOf, withLog } from '../../domain/dispatch/dispatch';
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
  const decision = await changeDelivery<object, Assignment | null>(ctx, tenant, dispatch.orderId, (delivery, now) => {
    const outcome = dispatch.provider
      ? followProvider(delivery, dispatch._id, dispatch.provider, now)
      : unstarted
        ? endUnstarted(delivery, dispatch._id, now)
        : { gone: true as const };
    return 'gone' in outcome ? { unchanged: null } : outcome;
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
