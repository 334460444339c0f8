import type { ProviderCreateDeliveryRequest, ProviderCreateDeliveryResponse } from '@marketplace/contracts';
import { conflict } from '@marketplace/errors';
import type { OutgoingEvent } from '@marketplace/events';
import { openFromTransport, sealForTransport, TRANSPORT_CONTEXTS } from '@marketplace/identity';
import type { OutboxFields } from '@marketplace/outbox';
import type { DeliveryDoc, IdempotencyRecord } from '../../adapters/deliveries-repository';
import { orderOf, rejectionOf } from '../../domain/create-rules';
import {
  compareCallback,
  mintTrackingToken,
  NO_TRACKING,
  payloadFingerprint,
  selectCallback,
  type DeliveryOrder,
  type StoredDelivery,
} from '../../domain/delivery';
import { invalidFields } from '../../domain/errors';
import { timeScaleOf, type AccountOwner, type PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { buildPlatformEvents } from './build-platform-events';
import { checkCallbackUrl } from './check-callback-url';

/** The request as the rules read it: its order, the order's fingerprint and the callback it asks for. */
interface ParsedRequest {
  order: DeliveryOrder;
  fingerprint: string;
  requestedUrl: string | null;
}

/** A first request decided: the delivery as its events describe it, and the document that keeps the answer. */
interface DecidedRequest {
  delivery: StoredDelivery;
  doc: Omit<DeliveryDoc, 'accountId'>;
  now: Date;
}

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
  const parsed = parseRequest(request);
  const owner = { accountId: account.id };
  const existing = await ctx.store.deliveries.findByIdempotencyKey(owner, request.idempotencyKey);
  if (existing) return replay(ctx, existing, parsed);
  await checkRequestedCallback(ctx, parsed.requestedUrl);
  const decided = decideRequest(ctx, account, request.idempotencyKey, parsed);
  const { delivery, doc, now } = decided;
  const events = doc.accepted ? await buildPlatformEvents(ctx, delivery, ['delivery.accepted'], now) : [];
  const insert = await ctx.store.deliveries.insert(owner, doc, events, now);
  if (insert === 'duplicate') return replayWinner(ctx, owner, request.idempotencyKey, parsed);
  await publishCreated(ctx, decided, insert.inserted, events);
  return answerOf(doc);
}

/** Parse: the contract's field rules (422 with the fields) and what a replay is compared by. */
function parseRequest(request: ProviderCreateDeliveryRequest): ParsedRequest {
  const checked = orderOf(request);
  if ('errors' in checked) throw invalidFields(checked.errors);
  const { order } = checked;
  return { order, fingerprint: payloadFingerprint(order), requestedUrl: request.webhook?.url ?? null };
}

/** Check: a callback URL the request gives must be safe to call (its host is resolved now). */
async function checkRequestedCallback(ctx: ProviderContext, requestedUrl: string | null): Promise<void> {
  if (requestedUrl === null) return;
  const problem = await checkCallbackUrl(ctx, requestedUrl);
  if (problem) throw invalidFields({ 'webhook.url': [problem] });
}

/** Decide: the business rules accept the delivery or refuse it; either way the answer is kept. */
function decideRequest(
  ctx: ProviderContext,
  account: PlatformAccount,
  idempotencyKey: string,
  parsed: ParsedRequest,
): DecidedRequest {
  const rejectionReason = rejectionOf(account, parsed.order);
  const now = ctx.now();
  const delivery = newDelivery(ctx, account, parsed, rejectionReason === null, now);
  const { id, accountId: _, ...fields } = delivery;
  const doc: Omit<DeliveryDoc, 'accountId'> = {
    _id: id,
    idempotencyKey,
    fingerprint: parsed.fingerprint,
    accepted: rejectionReason === null,
    rejectionReason,
    ...fields,
    status: rejectionReason === null ? delivery.status : null,
  };
  return { delivery, doc, now };
}

/** The delivery as the events describe it; a rejection is stored the same way, without a status. */
function newDelivery(
  ctx: ProviderContext,
  account: PlatformAccount,
  parsed: ParsedRequest,
  accepted: boolean,
  now: Date,
): StoredDelivery {
  const id = ctx.newId();
  const callback = selectCallback(parsed.requestedUrl, account.webhookUrl);
  return {
    id,
    accountId: account.id,
    order: parsed.order,
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
    dispatchAt: accepted ? now : null,
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
}

/** A concurrent duplicate won the insert: answer as its replay. */
async function replayWinner(
  ctx: ProviderContext,
  owner: AccountOwner,
  idempotencyKey: string,
  parsed: ParsedRequest,
): Promise<ProviderCreateDeliveryResponse> {
  const winner = await ctx.store.deliveries.findByIdempotencyKey(owner, idempotencyKey);
  // The unique index refused our insert, so the winner exists (requests are never deleted).
  if (!winner) throw new Error('a duplicate idempotency key without its request');
  return replay(ctx, winner, parsed);
}

/** Publish: count the decision, send the staged `delivery.accepted`, and log it. */
async function publishCreated(
  ctx: ProviderContext,
  { delivery, doc }: DecidedRequest,
  inserted: DeliveryDoc & OutboxFields,
  events: OutgoingEvent[],
): Promise<void> {
  ctx.metrics.deliveryCreated(doc.accepted ? 'accepted' : 'rejected');
  if (events.length > 0) await ctx.events.publishInsertedDelivery(inserted);
  ctx.logger.info(
    {
      accountId: delivery.accountId,
      providerDeliveryId: doc.accepted ? doc._id : undefined,
      accepted: doc.accepted,
      rejectionReason: doc.rejectionReason,
    },
    doc.accepted ? 'provider delivery created' : 'provider delivery refused',
  );
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
  parsed: ParsedRequest,
): ProviderCreateDeliveryResponse {
  const { fingerprint, requestedUrl } = parsed;
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
