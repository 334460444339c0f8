import type { WebhookAttempt } from '@marketplace/contracts';
import type { AttemptRecord, Delivery } from './delivery';
import type { DeliveryStatus } from './delivery-status';
import type { AttemptReach } from './endpoint-circuit';
import { redactUrl } from './provider-callback';
import { delayAfter, verdictOf, type AttemptResult, type RetryPolicy } from './retry-policy';

/**
 * The rules of one attempt that need no I/O: whether a job is still its delivery's next attempt,
 * what is recorded of a request, what becomes of the delivery after it, and what the endpoint's
 * circuit learns. The use case (usecases/make-attempt.ts) does the reading, sending and writing.
 */

/**
 * Where and with what secret an attempt goes, read afresh before each attempt (a rotated secret,
 * a disconnected installation, a terminal event sent meanwhile all apply to the next one), why the
 * delivery ends instead, or until when the attempt waits (a terminal callback behind its delivery's
 * earlier events). Neither the URL nor the secret is ever put in `reason`.
 */
export type AttemptTarget =
  | { send: true; url: string; secret: string; previousSecret?: string; sandboxFailure?: true }
  | { send: false; status: Extract<DeliveryStatus, 'cancelled' | 'failed'>; reason: string }
  | { send: false; status: 'pending'; until: Date; reason: string };

/** What the request came back with: the receiver's answer, or why none came. */
export type SendResult =
  | { kind: 'response'; status: number; latencyMs: number; retryAfter: string | null }
  | { kind: 'network'; errorClass: NetworkErrorClass; message: string; latencyMs: number };

type NetworkErrorClass = Extract<AttemptResult, { kind: 'network' }>['errorClass'];

/**
 * What becomes of the delivery: `next` schedules the following attempt on its tier; `held` puts
 * this same attempt off until then (nothing was sent, so the attempt number stays).
 */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  attempt?: AttemptRecord;
  reason?: string;
  next?: Date;
  held?: Date;
}

/** Whether the job is still the delivery's next attempt (not a repeat after a crash, not a superseded round). */
export function isCurrentAttempt(delivery: Delivery | undefined, job: WebhookAttempt): delivery is Delivery {
  return (
    delivery !== undefined &&
    delivery.status === 'pending' &&
    delivery.round === job.round &&
    delivery.nextAttempt === job.attempt
  );
}

/** The attempt as recorded (never a header, a secret, a URL or a body), with the retry policy's verdict. */
export function attemptRecordOf(job: WebhookAttempt, at: Date, result: SendResult): AttemptRecord {
  return {
    round: job.round,
    attempt: job.attempt,
    at,
    statusCode: result.kind === 'response' ? result.status : null,
    latencyMs: result.latencyMs,
    errorClass: result.kind === 'network' ? result.errorClass : null,
    verdict: verdictOf(resultOf(result)),
  };
}

/** An attempt that sent nothing: it waits (the same attempt, later), or the delivery ends. */
export function outcomeWithoutSending(target: Exclude<AttemptTarget, { send: true }>): DeliveryOutcome {
  return target.status === 'pending'
    ? { status: 'pending', held: target.until, reason: target.reason }
    : { status: target.status, reason: target.reason };
}

/**
 * What becomes of the delivery after a request: delivered, failed for good (the reason names the
 * status, or the refusal with the URL redacted), dead-lettered after the policy's last attempt, or
 * the next attempt after the kind's backoff (a policy that honours Retry-After waits at least that).
 */
export function outcomeAfterSending(
  sent: { policy: RetryPolicy; url: string; attempt: AttemptRecord; result: SendResult },
  now: Date,
  random: () => number = Math.random,
): DeliveryOutcome {
  const { attempt, result } = sent;
  if (attempt.verdict === 'delivered') return { status: 'delivered', attempt };
  if (attempt.verdict === 'permanent')
    return {
      status: 'failed',
      attempt,
      reason:
        attempt.statusCode !== null
          ? `the receiver answered ${attempt.statusCode}`
          : `refused: ${result.kind === 'network' ? redactUrl(result.message, sent.url) : ''}`,
    };
  const retryAfter = result.kind === 'response' ? result.retryAfter : null;
  const delay = delayAfter(sent.policy, attempt.attempt, resultOf(result), retryAfter, now, random);
  if (delay === undefined)
    return { status: 'dead_lettered', attempt, reason: `no success after ${attempt.attempt} attempts` };
  return { status: 'pending', attempt, next: new Date(now.getTime() + delay) };
}

/**
 * What the endpoint's circuit learns (domain/endpoint-circuit.ts): any answer, a 5xx included, shows
 * the endpoint reachable; a network error that is retried (refused, DNS, timeout, reset, TLS) does
 * not. An address refused by outbound safety sent nothing.
 */
export function reachOf(attempt: AttemptRecord): AttemptReach {
  if (attempt.statusCode !== null) return 'reached';
  return attempt.verdict === 'retry' ? 'unreachable' : 'not-sent';
}

function resultOf(result: SendResult): AttemptResult {
  return result.kind === 'response'
    ? { kind: 'response', status: result.status }
    : { kind: 'network', errorClass: result.errorClass };
}
