import type { AttemptRecord, PartnerWebhookDelivery } from '../domain/delivery';
import type { ProviderCallbackRecord } from '../usecases/describe-provider-callback';

const attemptView = (a: AttemptRecord) => ({
  round: a.round,
  attempt: a.attempt,
  at: a.at.toISOString(),
  statusCode: a.statusCode,
  latencyMs: a.latencyMs,
  errorClass: a.errorClass,
  verdict: a.verdict,
});

/** A delivery as the tenant API shows it, with its attempts; `withPayload` adds the webhook's JSON. */
export function deliveryView(d: PartnerWebhookDelivery, withPayload: boolean) {
  return {
    id: d._id,
    installationId: d.installationId,
    type: d.type,
    status: d.status,
    reason: d.reason,
    round: d.round,
    attemptCount: d.attempts.length,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    occurredAt: d.occurredAt,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    attempts: d.attempts.map(attemptView),
    ...(withPayload ? { payload: JSON.parse(d.body) as unknown } : {}),
  };
}

/**
 * A delivery as the Partner API shows it to its own installation: the tenant API's fields and, with
 * `withBody`, the webhook's body as the exact text every attempt sent (not parsed again), so that a
 * developer can replay it byte for byte (`marketplace-webhooks listen`).
 */
export function partnerDeliveryView(d: PartnerWebhookDelivery, withBody: boolean) {
  return { ...deliveryView(d, false), ...(withBody ? { body: d.body } : {}) };
}

/**
 * A provider callback as the administrator API shows it, with its attempts; `withBody` adds the
 * flat event sent. Of the callback URL only its scheme and host: the path holds the delivery's
 * confidential token, and the sealed form is nobody's business.
 */
export function providerCallbackView({ delivery: d, callbackOrigin }: ProviderCallbackRecord, withBody: boolean) {
  return {
    id: d._id,
    accountId: d.accountId,
    providerDeliveryId: d.providerDeliveryId,
    type: d.type,
    terminal: d.terminal,
    callbackOrigin,
    status: d.status,
    reason: d.reason,
    round: d.round,
    attemptCount: d.attempts.length,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    occurredAt: d.occurredAt,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    attempts: d.attempts.map(attemptView),
    ...(withBody ? { body: JSON.parse(d.body) as unknown } : {}),
  };
}
