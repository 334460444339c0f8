import type { ProviderCreateDeliveryRequest, ProviderCreateDeliveryResponse } from '@marketplace/contracts';
import { AppError, conflict, type FieldErrors } from '@marketplace/errors';
import { openFromTransport, sealForTransport, TRANSPORT_CONTEXTS } from '@marketplace/identity';
import type { DeliveryDoc, IdempotencyRecord } from '../adapters/deliveries-repository';
import { orderOf, rejectionOf } from '../domain/create-rules';
import {
  compareCallback,
  mintTrackingToken,
  NO_TRACKING,
  payloadFingerprint,
  selectCallback,
  type StoredDelivery,
} from '../domain/delivery';
import { timeScaleOf, type PlatformAccount } from '../domain/platform-account';
import { callbackUrlProblem } from './callback-url';
import type { ProviderContext } from './context';
import { DELIVERIES_OUTBOX, platformEvents } from './delivery-events';

/** 422 `request.invalid` with the fields: the provider contract's answer to invalid fields. */
export const invalidFields = (fieldErrors: FieldErrors) =>
  new AppError('unprocessable', 'request.invalid', 'The request is invalid.', { fieldErrors });

/**
 * POST /deliveries. The first valid request of an idempotency key (within the account) decides:
 * a delivery (`accepted: true`, status provider_accepted, `delivery.accepted` to its callback) or a
 * business rejection, stored alike so that every replay, also after a restart, gets the same
 * answer. Concurrent duplicates race on the unique (account, key) index: one insert wins, the
 * others read the winner and answer as replays. A replay with another payload or another
 * callback URL is 409; one without `webhook` keeps the original callback.
 *
 * A replay is looked up before the callback host is resolved or the business rules run, so it
 * costs one indexed read and answers what the first request got even if the account changed since.
 */
export async function createDelivery(
  ctx: ProviderContext,
  account: PlatformAccount,
  request: ProviderCreateDeliveryRequest,
): Promise<ProviderCreateDeliveryResponse> {
  const checked = orderOf(request);
  if ('errors' in checked) throw invalidFields(checked.errors);
  const { order } = checked;
  const fingerprint = payloadFingerprint(order);
  const requestedUrl = request.webhook?.url ?? null;
  const owner = { accountId: account.id };

  const existing = await ctx.store.deliveries.findByIdempotencyKey(owner, request.idempotencyKey);
  if (existing) return replay(ctx, existing, fingerprint, requestedUrl);

  if (requestedUrl !== null) {
    const problem = await callbackUrlProblem(ctx, requestedUrl);
    if (problem) throw invalidFields({ 'webhook.url': [problem] });
  }
  const rejectionReason = rejectionOf(account, order);
  const now = ctx.now();
  const id = ctx.newId();
  const callback = selectCallback(requestedUrl, account.webhookUrl);
  // The delivery as the events describe it; a rejection is stored the same way, without a status.
  const delivery: StoredDelivery = {
    id,
    accountId: account.id,
    order,
    status: 'provider_accepted',
    statusEventTimeUtc: now,
    tracking: NO_TRACKING(now),
    lastSentLocation: null,
    returnReasonCode: null,
    timeScale: timeScaleOf(account),
    trackingToken: mintTrackingToken(),
    driverId: null,
    offers: [],
    // The dispatcher looks at it at once (domain/dispatch.ts decides when to offer it).
    dispatchAt: rejectionReason === null ? now : null,
    failureReason: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    callbackSource: callback.source,
    callbackUrlSealed:
      callback.url === null
        ? null
        : sealForTransport(ctx.transportKey, TRANSPORT_CONTEXTS.deliveryCallbackUrl(id), callback.url),
  };
  const { id: _, accountId: __, ...fields } = delivery;
  const doc: Omit<DeliveryDoc, 'accountId'> = {
    _id: id,
    idempotencyKey: request.idempotencyKey,
    fingerprint,
    accepted: rejectionReason === null,
    rejectionReason,
    ...fields,
    status: rejectionReason === null ? delivery.status : null,
  };
  const events = doc.accepted ? await platformEvents(ctx, delivery, ['delivery.accepted'], now) : [];
  const insert = await ctx.store.deliveries.insert(owner, doc, events, now);
  if (insert === 'duplicate') {
    const winner = await ctx.store.deliveries.findByIdempotencyKey(owner, request.idempotencyKey);
    // The unique index refused our insert, so the winner exists (requests are never deleted).
    if (!winner) throw new Error('a duplicate idempotency key without its request');
    return replay(ctx, winner, fingerprint, requestedUrl);
  }
  ctx.metrics.deliveryCreated(doc.accepted ? 'accepted' : 'rejected');
  if (events.length > 0) await ctx.outbox.flushWritten(DELIVERIES_OUTBOX, insert.inserted);
  ctx.logger.info(
    {
      accountId: account.id,
      providerDeliveryId: doc.accepted ? id : undefined,
      accepted: doc.accepted,
      rejectionReason,
    },
    doc.accepted ? 'provider delivery created' : 'provider delivery refused',
  );
  return answerOf(doc);
}

function answerOf(record: IdempotencyRecord): ProviderCreateDeliveryResponse {
  return record.accepted
    ? { accepted: true, providerDeliveryId: record._id }
    : { accepted: false, rejectionReason: record.rejectionReason! };
}

/** The first answer again, if the replay asks for the same delivery and the same callback. */
function replay(
  ctx: ProviderContext,
  record: IdempotencyRecord,
  fingerprint: string,
  requestedUrl: string | null,
): ProviderCreateDeliveryResponse {
  if (record.fingerprint !== fingerprint)
    throw conflict(
      'idempotency.payload_mismatch',
      'This idempotencyKey was used with a different delivery payload; use a new key for a new delivery.',
    );
  const originalUrl =
    record.callbackSource === 'request' && record.callbackUrlSealed !== null
      ? openFromTransport(
          ctx.transportKey,
          TRANSPORT_CONTEXTS.deliveryCallbackUrl(record._id),
          record.callbackUrlSealed,
        )
      : null;
  if (compareCallback({ source: record.callbackSource, requestedUrl: originalUrl }, requestedUrl) === 'changed')
    throw conflict(
      'idempotency.callback_mismatch',
      'This idempotencyKey was used with a different webhook.url; the callback of a delivery never changes.',
    );
  return answerOf(record);
}
