import type { WebhookAttempt } from '@marketplace/contracts';
import {
  attemptRecordOf,
  isCurrentAttempt,
  outcomeAfterSending,
  outcomeWithoutSending,
  reachOf,
  type AttemptTarget,
  type SendResult,
} from '../domain/attempt-decision';
import type { AttemptRecord, Delivery } from '../domain/delivery';
import type { DeliveryKind } from '../domain/delivery-kinds';
import type { AttemptReach } from '../domain/endpoint-circuit';
import type { WebhookContext } from './context';
import { resolveAttemptTarget } from './resolve-attempt-target';
import { saveAttemptOutcome } from './save-attempt-outcome';

/**
 * One callback of a provider delivery at a time, from the terminal rule's check to the recorded
 * outcome: without it a nonterminal retry that passed the check could be on the wire while the
 * terminal event goes, and land after it (the fault proof saw this after a sender was killed
 * mid-attempt). Its lease outlasts an attempt (`attemptLeaseMs`); one left by a killed process
 * holds that delivery's callbacks back until it ends (the consumer retries meanwhile).
 */
const CALLBACK_ORDER_WAIT_MS = 10_000;
/**
 * A provider callback's request leaves within this of taking that lock, or not at all (the attempt
 * is retried): the lease is the longest request plus 20 s (service.ts), so the request has ended,
 * at the receiver too, before the lease can run out and let the delivery's next callback go.
 */
const SEND_WITHIN_MS = 10_000;

/** An attempt ready to leave: the signed request and the moment it is signed for. */
interface PreparedRequest {
  send: true;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  kind: DeliveryKind;
  at: Date;
  /** The installation's copy has sandbox failures left (the sandbox's `webhook.fail`). */
  sandboxFailure?: true;
}

/** What the prepare stage hands on: a signed request, or the target that sends nothing. */
type Prepared = PreparedRequest | Exclude<AttemptTarget, { send: true }>;

/** A request that left, and what came back. */
interface SentRequest {
  request: PreparedRequest;
  result: SendResult;
}

/**
 * Makes one scheduled attempt, in stages: prepare (the current target and secret, signed with this
 * attempt's timestamp), send (POST), record (the attempt as kept, counted and logged), and decide
 * (domain/attempt-decision.ts: delivered, failed for good, dead-lettered after the last attempt,
 * the next attempt on its tier's topic, or, with nothing sent, cancelled or held), saved under the
 * delivery's lock. A job that is not the delivery's next attempt (a repeat after a crash, a
 * superseded round) does nothing. Says whether the endpoint answered (for its circuit:
 * domain/endpoint-circuit.ts).
 */
export async function makeAttempt(ctx: WebhookContext, job: WebhookAttempt): Promise<AttemptReach> {
  const delivery = await ctx.store.deliveries.findForAttempt(job.deliveryId);
  if (!isCurrentAttempt(delivery, job)) return 'not-sent';
  if (delivery.kind === 'partner-webhook') return attemptNow(ctx, job, delivery);
  let reach: AttemptReach = 'not-sent';
  const done = await ctx.locks.withLock(
    `callbacks:${delivery.providerDeliveryId}`,
    { ttlMs: ctx.attemptLeaseMs, waitMs: CALLBACK_ORDER_WAIT_MS },
    async () => {
      const sendBy = new Date(ctx.now().getTime() + SEND_WITHIN_MS);
      // Read again under the lock: another attempt of the delivery may have ended it meanwhile.
      const current = await ctx.store.deliveries.findForAttempt(job.deliveryId);
      if (isCurrentAttempt(current, job)) reach = await attemptNow(ctx, job, current, sendBy);
    },
  );
  if (!done) throw new Error(`the callbacks of ${delivery.providerDeliveryId} stayed locked; the attempt is retried`);
  return reach;
}

/** The stages of one attempt of a current delivery. */
async function attemptNow(
  ctx: WebhookContext,
  job: WebhookAttempt,
  delivery: Delivery,
  sendBy?: Date,
): Promise<AttemptReach> {
  const prepared = await prepareAttempt(ctx, delivery, sendBy);
  if (!prepared.send) {
    await saveAttemptOutcome(ctx, job, () => outcomeWithoutSending(prepared));
    return 'not-sent';
  }
  const sent = await sendAttempt(ctx, prepared, delivery);
  const attempt = recordAttempt(ctx, job, delivery, sent);
  await saveAttemptOutcome(ctx, job, (now) =>
    outcomeAfterSending({ policy: prepared.kind.policy, url: prepared.url, attempt, result: sent.result }, now),
  );
  return reachOf(attempt);
}

/**
 * Prepare: where the attempt goes and with what secret, read afresh; a terminal callback marked as
 * leaving; the body signed with the kind's signer and this attempt's timestamp.
 */
async function prepareAttempt(ctx: WebhookContext, delivery: Delivery, sendBy?: Date): Promise<Prepared> {
  const target = await resolveAttemptTarget(ctx, delivery);
  if (!target.send) return target;
  if (delivery.kind === 'provider-callback' && delivery.terminal && !delivery.sendStartedAt)
    // Before the request, not with its outcome: a terminal event that left and was never recorded
    // (a crash mid-request, the database away) must still stop its delivery's nonterminal ones.
    await ctx.store.deliveries.markSending({ accountId: delivery.accountId }, delivery._id, ctx.now());
  if (sendBy && ctx.now() > sendBy)
    throw new Error(`the attempt of ${delivery._id} could not leave in time under its delivery's lock; it is retried`);
  const kind = ctx.kinds[delivery.kind];
  const body = Buffer.from(delivery.body, 'utf8');
  const at = ctx.now();
  const unixSeconds = Math.floor(at.getTime() / 1000);
  const headers = kind.signer.headers(target.secret, delivery._id, unixSeconds, body, target.previousSecret);
  return {
    send: true,
    url: target.url,
    headers,
    body,
    kind,
    at,
    ...(target.sandboxFailure && { sandboxFailure: true }),
  };
}

/**
 * Send: the POST, behind outbound safety (a network problem is a result, not a throw). A sandbox
 * installation that asked its next attempts to fail (the sandbox's `webhook.fail`) gets a 503 of
 * ours instead (latency 0: nothing was sent), recorded and retried like any 503.
 */
async function sendAttempt(ctx: WebhookContext, request: PreparedRequest, delivery: Delivery): Promise<SentRequest> {
  if (
    request.sandboxFailure &&
    delivery.kind === 'partner-webhook' &&
    (await ctx.store.installations.takeSandboxFailure({
      tenantId: delivery.tenantId,
      installationId: delivery.installationId,
    }))
  )
    return { request, result: { kind: 'response', status: 503, latencyMs: 0, retryAfter: null } };
  const result = await ctx.http.post(request.url, request.headers, request.body, request.kind.contentType);
  return { request, result };
}

/** Record: the attempt as kept with the delivery, counted and logged. */
function recordAttempt(ctx: WebhookContext, job: WebhookAttempt, delivery: Delivery, sent: SentRequest): AttemptRecord {
  const attempt = attemptRecordOf(job, sent.request.at, sent.result);
  const { verdict, errorClass, latencyMs, statusCode } = attempt;
  ctx.metrics.attempted(delivery.kind, delivery.type, job.attempt, verdict, errorClass, latencyMs / 1000);
  // Ids and the outcome only: never the URL (a provider callback's path holds a token), a header or the body.
  ctx.logger.info(
    {
      deliveryId: delivery._id,
      kind: delivery.kind,
      ...ownerFields(delivery),
      type: delivery.type,
      round: job.round,
      attempt: job.attempt,
      statusCode,
      errorClass,
      latencyMs,
      verdict,
    },
    'webhook attempt',
  );
  return attempt;
}

/** Who the delivery is for, as logged. */
function ownerFields(delivery: Delivery): Record<string, string> {
  return delivery.kind === 'partner-webhook'
    ? { installationId: delivery.installationId }
    : { accountId: delivery.accountId, providerDeliveryId: delivery.providerDeliveryId };
}
