import type { ProviderCancelResponse } from '@marketplace/contracts';
import { capabilityEnabled } from '../../domain/dispatch/connection';
import { describeAnswer, withLog, type ProviderDispatch } from '../../domain/dispatch/dispatch';
import type { DeliveryContext } from '../context';
import { saveDispatch } from './save-dispatch';

/**
 * Sends a due cancel (POST /deliveries/{id}/cancel with its stage) once the provider's delivery
 * id is known: one attempt, as the contract says of cancels (no automatic retry); its outcome is
 * kept on the dispatch and in its log. The provider's own events then end its delivery.
 */
export async function sendProviderCancel(ctx: DeliveryContext, dispatch: ProviderDispatch): Promise<void> {
  const cancel = dispatch.cancel;
  if (cancel?.state !== 'due' || dispatch.providerDeliveryId === null) return;
  const tenant = { tenantId: dispatch.tenantId };
  const connection = await ctx.store.connections.find(tenant, dispatch.connectionId);
  // The cancel endpoint needs the cancellation capability (the contract's Endpoints table).
  const answer =
    connection && capabilityEnabled(connection, 'supportsCancellation')
      ? await ctx.dispatch.providers.cancel(connection, dispatch.providerDeliveryId, cancel.stage)
      : ({
          kind: 'network',
          detail: connection
            ? 'not sent: the connection is not enabled for cancellation; the provider’s delivery goes on'
            : 'the connection is gone',
        } as const);
  const body =
    answer.kind === 'answer' && answer.status === 200 ? (answer.body as Partial<ProviderCancelResponse>) : null;
  const state = body?.confirmed === true ? 'confirmed' : body?.confirmed === false ? 'refused' : 'failed';
  ctx.dispatch.metrics.cancelSent(state);
  const detail =
    state === 'confirmed'
      ? null
      : state === 'refused'
        ? `refused: ${typeof body?.errorMessage === 'string' ? body.errorMessage.slice(0, 200) : 'no reason given'}`
        : describeAnswer(answer);
  await saveDispatch(ctx, tenant, dispatch._id, (d, now) =>
    d.cancel?.state !== 'due'
      ? undefined
      : {
          ...d,
          cancel: { ...d.cancel, state, detail },
          log: withLog(d, {
            at: now,
            decision: 'cancel_sent',
            reason: `cancel ${cancel.stage}: ${state}${detail ? ` (${detail})` : ''}`,
          }),
        },
  );
}
