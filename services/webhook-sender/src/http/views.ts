import type { Delivery } from '../usecases/entities';

/** A delivery as the tenant API shows it, with its attempts; `withPayload` adds the webhook's JSON. */
export function deliveryView(d: Delivery, withPayload: boolean) {
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
    attempts: d.attempts.map((a) => ({
      round: a.round,
      attempt: a.attempt,
      at: a.at.toISOString(),
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      errorClass: a.errorClass,
      verdict: a.verdict,
    })),
    ...(withPayload ? { payload: JSON.parse(d.body) as unknown } : {}),
  };
}
