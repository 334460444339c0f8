import type { ProviderCreateDeliveryResponse } from '@marketplace/contracts';
import type { Assignment, Delivery } from '../../domain/delivery';
import { dispatchIneligibility, type ProviderConnection } from '../../domain/dispatch/connection';
import { createRequestOf } from '../../domain/dispatch/create-request';
import {
  describeAnswer,
  retryDelaySeconds,
  withLog,
  type ProviderAnswer,
  type ProviderDispatch,
} from '../../domain/dispatch/dispatch';
import { judgeReport } from '../../domain/dispatch/provider-state';
import type { DeliveryContext } from '../context';
import { saveDispatch } from './save-dispatch';

/** The assignment of the dispatch on the order's delivery: live, or ended since. */
const assignmentOf = (delivery: Delivery | undefined, id: string): Assignment | undefined =>
  delivery?.live?.assignmentId === id ? delivery.live : delivery?.history.find((a) => a.assignmentId === id);

const accepted = (answer: ProviderAnswer): ProviderCreateDeliveryResponse | undefined => {
  if (answer.kind !== 'answer' || answer.status !== 200) return undefined;
  const body = answer.body as Partial<ProviderCreateDeliveryResponse> | null;
  return typeof body?.accepted === 'boolean' &&
    (!body.accepted || (typeof body.providerDeliveryId === 'string' && body.providerDeliveryId.trim() !== ''))
    ? (body as ProviderCreateDeliveryResponse)
    : undefined;
};

/**
 * One attempt of the create (POST /deliveries) of a dispatch whose create is due. The same
 * platformReference, idempotency key and callback URL on every attempt, so a retry after a
 * timeout, here or from another instance after a crash, never makes a second delivery. At most 3
 * attempts after a network failure, a timeout, 429 or 5xx, waiting Retry-After (at most 30 s) or
 * 1 s then 4 s; any other answer decides: accepted (the assignment becomes Accepted), rejected
 * or failed (it ends Rejected). An assignment superseded or terminated before its first attempt
 * is withdrawn without a call; after one, the create is repeated to learn the delivery, which the
 * cancel requested meanwhile (request-provider-cancel.ts) then cancels.
 */
export async function createProviderDelivery(ctx: DeliveryContext, dispatch: ProviderDispatch): Promise<void> {
  if (dispatch.create.state !== 'due') return;
  const tenant = { tenantId: dispatch.tenantId };
  const delivery = await ctx.store.deliveries.findByOrder(tenant, dispatch.orderId);
  const assignment = assignmentOf(delivery, dispatch._id);
  const live = delivery?.live?.assignmentId === dispatch._id;
  if (!live && dispatch.create.attempts === 0) {
    await saveDispatch(ctx, tenant, dispatch._id, (d, now) =>
      d.create.state !== 'due'
        ? undefined
        : {
            ...d,
            create: { ...d.create, state: 'withdrawn', detail: 'the assignment ended before the create was sent' },
            cancel: null,
            log: withLog(d, { at: now, decision: 'ended', reason: 'the assignment ended before the create was sent' }),
          },
    );
    return;
  }
  const connection = await ctx.store.connections.find(tenant, dispatch.connectionId);
  const request =
    connection && assignment && delivery ? requestOf(ctx, dispatch, delivery, assignment, connection) : undefined;
  if (!connection || !request || 'problem' in request)
    return fail(
      ctx,
      dispatch,
      request && 'problem' in request ? (request.problem ?? 'no reason') : 'the connection is gone',
    );
  const answer = await ctx.dispatch.providers.create(connection, request.body);
  await recordAnswer(ctx, dispatch, answer);
}

function requestOf(
  ctx: DeliveryContext,
  dispatch: ProviderDispatch,
  delivery: Delivery,
  assignment: Assignment,
  connection: ProviderConnection,
) {
  const refusal = dispatchIneligibility(connection);
  if (refusal) return { problem: refusal.message };
  if (!delivery.order.dropoffSealed) return { problem: 'the order carries no drop-off for a provider' };
  let dropoff;
  try {
    dropoff = ctx.dispatch.openDropoff(dispatch.orderId, delivery.order.dropoffSealed);
  } catch {
    return { problem: "the order's drop-off does not open with this service's key" };
  }
  const body = createRequestOf({
    assignmentId: dispatch._id,
    order: delivery.order,
    pickup: assignment.pickup,
    dropoff,
    callbackUrl:
      dispatch.callbackUrlSealed === null
        ? null
        : ctx.dispatch.secrets.openCallbackUrl(dispatch._id, dispatch.callbackUrlSealed),
    preparationTimeMinutes: connection.preparationTimeMinutes,
  });
  return 'missing' in body ? { problem: body.missing } : { body };
}

/** The create cannot be made at all: it ends failed without a call (the assignment ends Rejected). */
async function fail(ctx: DeliveryContext, dispatch: ProviderDispatch, problem: string): Promise<void> {
  ctx.dispatch.metrics.created('failed');
  await saveDispatch(ctx, { tenantId: dispatch.tenantId }, dispatch._id, (d, now) =>
    d.create.state !== 'due'
      ? undefined
      : {
          ...d,
          create: { ...d.create, state: 'failed', detail: problem, answeredAt: now },
          revision: d.revision + 1,
          log: withLog(d, { at: now, decision: 'create_failed', reason: problem }),
        },
  );
}

async function recordAnswer(ctx: DeliveryContext, dispatch: ProviderDispatch, answer: ProviderAnswer): Promise<void> {
  const attempts = dispatch.create.attempts + 1;
  const taken = accepted(answer);
  const delay = taken ? undefined : retryDelaySeconds(answer, attempts);
  ctx.dispatch.metrics.created(
    taken?.accepted ? 'accepted' : taken ? 'rejected' : delay !== undefined ? 'retried' : 'failed',
  );
  await saveDispatch(ctx, { tenantId: dispatch.tenantId }, dispatch._id, (d, now) => {
    if (d.create.state !== 'due') return undefined;
    if (taken?.accepted) return acceptedBy(d, taken, attempts, now);
    if (taken)
      return {
        ...d,
        create: { state: 'rejected', attempts, detail: taken.rejectionReason ?? 'no reason given', answeredAt: now },
        revision: d.revision + 1,
        log: withLog(d, {
          at: now,
          decision: 'rejected',
          reason: `the provider rejected it: ${taken.rejectionReason ?? 'no reason given'}`,
        }),
      };
    const detail = describeAnswer(answer);
    if (delay !== undefined)
      return { ...d, create: { ...d.create, attempts, detail, retryAt: new Date(now.getTime() + delay * 1000) } };
    return {
      ...d,
      create: { state: 'failed', attempts, detail, answeredAt: now },
      revision: d.revision + 1,
      log: withLog(d, { at: now, decision: 'create_failed', reason: `after ${attempts} attempt(s): ${detail}` }),
    };
  });
}

function acceptedBy(
  d: ProviderDispatch,
  answer: ProviderCreateDeliveryResponse,
  attempts: number,
  now: Date,
): ProviderDispatch {
  const judged = judgeReport(d.provider, { status: 'provider_accepted', eventTime: now });
  const provider = judged.kind === 'apply' ? judged.next : d.provider;
  return {
    ...d,
    create: { state: 'accepted', attempts, detail: null, answeredAt: now },
    providerDeliveryId: answer.providerDeliveryId ?? d.providerDeliveryId,
    providerTrackingId: answer.providerTrackingId ?? d.providerTrackingId,
    provider,
    lastHeardAt: now,
    revision: d.revision + 1,
    log: withLog(d, { at: now, decision: 'created', reason: 'the provider accepted the delivery' }),
  };
}
