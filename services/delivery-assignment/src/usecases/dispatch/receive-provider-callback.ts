import { AppError, notFound } from '@marketplace/errors';
import type { PlatformCallbackEvent } from '@marketplace/contracts';
import { callbackTokenHash, isCallbackTokenShaped } from '../../domain/dispatch/callback-token';
import { PLATFORM_LIMITS, type ProviderDispatch } from '../../domain/dispatch/dispatch';
import { judgeReport, reportFingerprint, type ProviderReport } from '../../domain/dispatch/provider-state';
import type { CallbackDelta } from '../../domain/dispatch/scorecard';
import type { DeliveryContext } from '../context';
import { saveDispatch } from './save-dispatch';
import { syncAssignment } from './sync-assignment';

/** What a callback's body became, once its token and signature were checked. */
export type CallbackBody = { event: PlatformCallbackEvent } | { problem: AppError; unknownStatus: boolean };

export interface CallbackOutcome {
  applied: boolean;
  /** Why it changed nothing: `duplicate`, or why it is stale. */
  reason?: string;
}

const unknownCallback = () => notFound('callback.unknown', 'No delivery has this callback URL.');

const reportOf = (event: PlatformCallbackEvent): ProviderReport => {
  const fields: ProviderReport = { status: event.status, eventTime: new Date(event.eventTimeUtc) };
  if (event.driverName !== undefined) fields.driverName = event.driverName;
  if (event.driverPhone !== undefined) fields.driverPhone = event.driverPhone;
  if (event.driverLat !== undefined) fields.driverLat = event.driverLat;
  if (event.driverLng !== undefined) fields.driverLng = event.driverLng;
  if (event.trackingUrl !== undefined) fields.trackingUrl = event.trackingUrl;
  if (event.estimatedDeliveryAtUtc !== undefined)
    fields.eta = event.estimatedDeliveryAtUtc === null ? null : new Date(event.estimatedDeliveryAtUtc);
  return fields;
};

/**
 * A provider's event at a delivery's callback URL, checked in the contract's order: the URL's
 * token (unknown: 404), then X-Platform-Signature over the exact bytes with the connection's
 * secret (missing or wrong: 401, nothing recorded but the failure, and the state is read instead),
 * then the body (an unknown status: 422, the last recognised state kept), then correlation (the
 * platformReference and provider id of this delivery: 409), then lifecycle: a duplicate or a
 * stale regression is answered 200 and changes nothing; a newer state is kept and the assignment
 * follows it before the answer.
 */
export async function receiveProviderCallback(
  ctx: DeliveryContext,
  token: string,
  rawBody: Buffer,
  signature: string | undefined,
  parse: (raw: Buffer) => CallbackBody,
): Promise<CallbackOutcome> {
  const dispatch = isCallbackTokenShaped(token)
    ? await ctx.store.dispatches.findByCallbackToken(callbackTokenHash(token))
    : undefined;
  const tenant = dispatch && { tenantId: dispatch.tenantId };
  const connection = dispatch && (await ctx.store.connections.find(tenant!, dispatch.connectionId));
  if (!dispatch || !connection) {
    ctx.dispatch.metrics.callback('unknown_token');
    throw unknownCallback();
  }
  const score = (delta: CallbackDelta) =>
    ctx.store.connectionScores
      .add({ connectionId: connection._id, tenantId: connection.tenantId }, delta)
      .catch((error: unknown) => ctx.logger.warn({ err: error }, "a connection's scorecard was not updated"));
  if (!ctx.dispatch.secrets.verifyCallback(connection, rawBody, signature)) {
    ctx.dispatch.metrics.callback('signature_failed');
    await score({ signatureFailures: 1 });
    await saveDispatch(ctx, tenant!, dispatch._id, (d, now) => ({ ...d, suspectSince: now }));
    throw new AppError(
      'unauthenticated',
      'auth.invalid_signature',
      'X-Platform-Signature is missing or does not match the body.',
    );
  }
  const parsed = parse(rawBody);
  if ('problem' in parsed) {
    ctx.dispatch.metrics.callback(parsed.unknownStatus ? 'unknown_status' : 'invalid');
    if (parsed.unknownStatus) await score({ unknownStatuses: 1 });
    throw parsed.problem;
  }
  const { event } = parsed;
  if (
    event.platformReference !== dispatch._id ||
    (event.providerDeliveryId !== undefined &&
      dispatch.providerDeliveryId !== null &&
      event.providerDeliveryId !== dispatch.providerDeliveryId)
  ) {
    ctx.dispatch.metrics.callback('mismatch');
    throw new AppError(
      'conflict',
      'callback.reference_mismatch',
      "The event's platformReference or providerDeliveryId is not this delivery's.",
    );
  }
  const receivedAt = ctx.now();
  const lagSeconds = Math.max(0, (receivedAt.getTime() - Date.parse(event.eventTimeUtc)) / 1000);
  ctx.dispatch.metrics.callbackLag(lagSeconds);
  await score({ callbacks: 1, callbackLagSecondsSum: lagSeconds });
  return apply(ctx, dispatch, event, receivedAt);
}

async function apply(
  ctx: DeliveryContext,
  dispatch: ProviderDispatch,
  event: PlatformCallbackEvent,
  receivedAt: Date,
): Promise<CallbackOutcome> {
  const report = reportOf(event);
  const fingerprint = reportFingerprint(event.eventType, report);
  let outcome: CallbackOutcome = { applied: false, reason: 'duplicate' };
  const saved = await saveDispatch(ctx, { tenantId: dispatch.tenantId }, dispatch._id, (d) => {
    // A valid callback does not clear a failed one's suspicion: only a read of the state does.
    const heard = { lastHeardAt: receivedAt };
    const ids = {
      providerDeliveryId: d.providerDeliveryId ?? event.providerDeliveryId ?? null,
      providerTrackingId: d.providerTrackingId ?? event.providerTrackingId ?? null,
    };
    if (d.seen.includes(fingerprint)) {
      outcome = { applied: false, reason: 'duplicate' };
      return { ...d, ...heard, ...ids };
    }
    const seen = [...d.seen, fingerprint].slice(-PLATFORM_LIMITS.seenEvents);
    const judged = judgeReport(d.provider, report);
    if (judged.kind !== 'apply') {
      outcome = { applied: false, reason: judged.kind === 'stale' ? judged.why : 'duplicate' };
      return { ...d, ...heard, ...ids, seen };
    }
    outcome = { applied: true };
    return {
      ...d,
      ...heard,
      ...ids,
      seen,
      provider: judged.next,
      firstEta: d.firstEta ?? judged.next.eta,
      revision: d.revision + 1,
    };
  });
  ctx.dispatch.metrics.callback(outcome.applied ? 'applied' : outcome.reason === 'duplicate' ? 'duplicate' : 'stale');
  // The assignment follows before the answer (a crash in between: the dispatcher does it).
  if (saved) await syncAssignment(ctx, saved);
  return outcome;
}
