import type { DeliveryEvent } from '@marketplace/contracts';
import { cancelStageOf, withLog } from '../../domain/dispatch/dispatch';
import { isProviderTerminal } from '../../domain/dispatch/status-map';
import type { DeliveryContext } from '../context';
import { saveDispatch } from './save-dispatch';

/**
 * The tenant or the order's source cancelled the order (delivery.cancelled: the assignment
 * Terminated), or the tenant reassigned it (delivery.superseded): the provider's delivery must be
 * cancelled, with the stage its last known status gives (before or after pickup). Sent by the
 * dispatcher once, never retried automatically (the contract); a create not sent yet is withdrawn
 * instead. Nothing for an assignment that is no dispatch's, or whose provider delivery ended.
 */
export async function requestProviderCancel(ctx: DeliveryContext, event: DeliveryEvent): Promise<void> {
  const tenant = { tenantId: event.tenantId };
  await saveDispatch(ctx, tenant, event.assignmentId, (d, now) => {
    if (d.cancel !== null || d.create.state === 'rejected' || d.create.state === 'withdrawn') return undefined;
    if (d.provider && isProviderTerminal(d.provider.status)) return undefined;
    const why = event.status === 'Superseded' ? 'the tenant reassigned the delivery' : 'the order was cancelled';
    return {
      ...d,
      cancel: { stage: cancelStageOf(d.provider?.status ?? null), state: 'due', requestedAt: now, detail: why },
      log: withLog(d, { at: now, decision: 'ended', reason: `${why}: a cancel is due at the provider` }),
    };
  });
}
