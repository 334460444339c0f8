import { TOPICS } from '@marketplace/contracts';
import type { AttemptJob } from '../adapters/attempt-queue';
import type { DeliveryStateChange } from '../adapters/deliveries-repository';
import { DELIVERIES } from '../adapters/store';
import type { AttemptReach } from '../domain/endpoint-circuit';
import { redactUrl } from '../domain/provider-callback';
import { delayAfter, verdictOf, type AttemptResult } from '../domain/retry-policy';
import type { WebhookContext } from './context';
import { ownerOf, type AttemptRecord, type Delivery } from './entities';
import { attemptEvent } from './deliveries';
import { attemptTopicAfter } from './delivery-kinds';
import { targetOf } from './attempt-target';

const LOCK = { ttlMs: 30_000, waitMs: 10_000 };
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

/**
 * Makes one scheduled attempt: signs the stored body with the kind's signer, the current secret
 * (the installation's, or the platform account's) and this attempt's timestamp, POSTs it, records
 * the outcome, and schedules the next attempt on its tier's topic, or ends the delivery (delivered,
 * failed for good, dead-lettered after the last attempt, or cancelled when the installation no
 * longer takes it or a terminal event superseded a provider callback). A job that is not the
 * delivery's next attempt (a repeat after a crash, a superseded round) does nothing. Says whether
 * the endpoint answered (for its circuit: domain/endpoint-circuit.ts).
 */
export async function makeAttempt(ctx: WebhookContext, job: AttemptJob): Promise<AttemptReach> {
  const delivery = await ctx.store.deliveries.findForAttempt(job.deliveryId);
  if (!isCurrent(delivery, job)) return 'not-sent';
  if (delivery.kind === 'partner-webhook') return attemptNow(ctx, job, delivery);
  let reach: AttemptReach = 'not-sent';
  const done = await ctx.locks.withLock(
    `callbacks:${delivery.providerDeliveryId}`,
    { ttlMs: ctx.attemptLeaseMs, waitMs: CALLBACK_ORDER_WAIT_MS },
    async () => {
      const sendBy = new Date(ctx.now().getTime() + SEND_WITHIN_MS);
      // Read again under the lock: another attempt of the delivery may have ended it meanwhile.
      const current = await ctx.store.deliveries.findForAttempt(job.deliveryId);
      if (isCurrent(current, job)) reach = await attemptNow(ctx, job, current, sendBy);
    },
  );
  if (!done) throw new Error(`the callbacks of ${delivery.providerDeliveryId} stayed locked; the attempt is retried`);
  return reach;
}

async function attemptNow(
  ctx: WebhookContext,
  job: AttemptJob,
  delivery: Delivery,
  sendBy?: Date,
): Promise<AttemptReach> {
  const target = await targetOf(ctx, delivery);
  if (!target.send) {
    await record(ctx, job, () =>
      target.status === 'pending'
        ? { status: 'pending', held: target.until, reason: target.reason }
        : { status: target.status, reason: target.reason },
    );
    return 'not-sent';
  }
  if (delivery.kind === 'provider-callback' && delivery.terminal && !delivery.sendStartedAt)
    // Before the request, not with its outcome: a terminal event that left and was never recorded
    // (a crash mid-request, the database away) must still stop its delivery's nonterminal ones.
    await ctx.store.deliveries.markSending({ accountId: delivery.accountId }, delivery._id, ctx.now());
  if (sendBy && ctx.now() > sendBy)
    throw new Error(`the attempt of ${delivery._id} could not leave in time under its delivery's lock; it is retried`);
  const kind = ctx.kinds[delivery.kind];
  const body = Buffer.from(delivery.body, 'utf8');
  const at = ctx.now();
  const headers = kind.signer.headers(target.secret, delivery._id, Math.floor(at.getTime() / 1000), body);
  const result = await ctx.http.post(target.url, headers, body, kind.contentType);
  const outcome: AttemptResult =
    result.kind === 'response'
      ? { kind: 'response', status: result.status }
      : { kind: 'network', errorClass: result.errorClass };
  const verdict = verdictOf(outcome);
  const attempt: AttemptRecord = {
    round: job.round,
    attempt: job.attempt,
    at,
    statusCode: result.kind === 'response' ? result.status : null,
    latencyMs: result.latencyMs,
    errorClass: result.kind === 'network' ? result.errorClass : null,
    verdict,
  };
  ctx.metrics.attempted(
    delivery.kind,
    delivery.type,
    job.attempt,
    verdict,
    attempt.errorClass,
    result.latencyMs / 1000,
  );
  // Ids and the outcome only: never the URL (a provider callback's path holds a token), a header or the body.
  ctx.logger.info(
    {
      deliveryId: delivery._id,
      kind: delivery.kind,
      ...ownerFields(delivery),
      type: delivery.type,
      round: job.round,
      attempt: job.attempt,
      statusCode: attempt.statusCode,
      errorClass: attempt.errorClass,
      latencyMs: attempt.latencyMs,
      verdict,
    },
    'webhook attempt',
  );

  await record(ctx, job, (now) => {
    if (verdict === 'delivered') return { status: 'delivered', attempt };
    if (verdict === 'permanent')
      return {
        status: 'failed',
        attempt,
        reason:
          attempt.statusCode !== null
            ? `the receiver answered ${attempt.statusCode}`
            : `refused: ${result.kind === 'network' ? redactUrl(result.message, target.url) : ''}`,
      };
    // The kind's backoff; a policy that honours Retry-After (provider callbacks) waits at least that.
    const delay = delayAfter(
      kind.policy,
      job.attempt,
      outcome,
      result.kind === 'response' ? result.retryAfter : null,
      now,
    );
    if (delay === undefined)
      return { status: 'dead_lettered', attempt, reason: `no success after ${job.attempt} attempts` };
    return { status: 'pending', attempt, next: new Date(now.getTime() + delay) };
  });
  // Any answer, a 5xx included, shows the endpoint reachable; a network error that is retried
  // (refused, DNS, timeout, reset, TLS) does not. An address refused by outbound safety sent nothing.
  if (result.kind === 'response') return 'reached';
  return verdict === 'retry' ? 'unreachable' : 'not-sent';
}

/** Who the delivery is for, as logged. */
function ownerFields(delivery: Delivery): Record<string, string> {
  return delivery.kind === 'partner-webhook'
    ? { installationId: delivery.installationId }
    : { accountId: delivery.accountId, providerDeliveryId: delivery.providerDeliveryId };
}

function isCurrent(delivery: Delivery | undefined, job: AttemptJob): delivery is Delivery {
  return (
    delivery !== undefined &&
    delivery.status === 'pending' &&
    delivery.round === job.round &&
    delivery.nextAttempt === job.attempt
  );
}

/**
 * What becomes of the delivery: `next` schedules the following attempt on its tier; `held` puts
 * this same attempt off until then (nothing was sent, so the attempt number stays).
 */
type Outcome = { status: Delivery['status']; attempt?: AttemptRecord; reason?: string; next?: Date; held?: Date };

/** Writes the outcome under the delivery's lock, if the job is still the delivery's next attempt. */
async function record(ctx: WebhookContext, job: AttemptJob, decide: (now: Date) => Outcome): Promise<void> {
  const locked = await ctx.locks.withLock(`delivery:${job.deliveryId}`, LOCK, async () => {
    const delivery = await ctx.store.deliveries.findForAttempt(job.deliveryId);
    if (!isCurrent(delivery, job)) return;
    const now = ctx.now();
    const outcome = decide(now);
    if (outcome.status !== 'pending') ctx.metrics.ended(delivery.kind, outcome.status);
    const state: DeliveryStateChange = {
      status: outcome.status,
      updatedAt: now,
      nextAttemptAt: outcome.next ?? null,
      reason: outcome.reason ?? null,
    };
    const owner = ownerOf(delivery);
    if (outcome.held) {
      state.nextAttemptAt = outcome.held;
      const event = attemptEvent(TOPICS.webhookAttempts, delivery, job.round, job.attempt, outcome.held);
      await ctx.store.deliveries.recordAttempt(owner, delivery._id, state, undefined, [event], now);
      await ctx.outbox.flush(DELIVERIES, delivery._id);
    } else if (outcome.next) {
      state.nextAttempt = job.attempt + 1;
      const event = attemptEvent(attemptTopicAfter(job.attempt), delivery, job.round, job.attempt + 1, outcome.next);
      await ctx.store.deliveries.recordAttempt(owner, delivery._id, state, outcome.attempt, [event], now);
      await ctx.outbox.flush(DELIVERIES, delivery._id);
    } else {
      await ctx.store.deliveries.recordAttempt(owner, delivery._id, state, outcome.attempt, [], now);
    }
  });
  if (!locked) throw new Error(`delivery ${job.deliveryId} stayed locked; the attempt is retried`);
}
