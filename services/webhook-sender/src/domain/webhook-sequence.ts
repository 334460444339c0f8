import type { WebhookEnvelope } from '@marketplace/contracts';

/**
 * The per-order sequence of partner webhooks: one installation receives the webhooks of one order
 * in the order their events came (no `orders.cancelled` before its `orders.created` was delivered;
 * no `delivery.cancelled` before the `delivery.assigned` it ends). The attempts of one endpoint run
 * side by side (up to WEBHOOK_CONCURRENCY_PER_ENDPOINT), so a later event of an order could
 * otherwise overtake an earlier one still in flight or waiting for its retry: an attempt waits
 * (held, nothing sent, its attempt number kept) while an earlier delivery of the same installation
 * and order is still pending. The earlier one always ends (delivered, or failed, cancelled or
 * dead-lettered after its last attempt), so the wait is bounded by its retry schedule.
 */

/** The subject of a webhook: `order:<orderId>` when its data names an order. */
export function subjectOf(data: WebhookEnvelope['data']): string | undefined {
  const orderId = (data as { orderId?: unknown } | null | undefined)?.orderId;
  return typeof orderId === 'string' && orderId.length > 0 ? `order:${orderId}` : undefined;
}

/**
 * The first event of every order's sequence: nothing comes before it, so its attempts never wait
 * (and cost no lookup).
 */
export const FIRST_OF_SEQUENCE = new Set(['orders.created']);

/**
 * How soon a held attempt looks again: at the earlier delivery's next attempt when that is later
 * (a retry scheduled minutes ahead), else after `stepMs` (the earlier attempt is on the wire).
 */
export const SEQUENCE_HOLD = { stepMs: 250 } as const;

/** Until when an attempt behind an earlier delivery waits (see SEQUENCE_HOLD). */
export function heldUntil(now: Date, earlierNextAttemptAt: Date | null): Date {
  const step = now.getTime() + SEQUENCE_HOLD.stepMs;
  const next = earlierNextAttemptAt ? earlierNextAttemptAt.getTime() + SEQUENCE_HOLD.stepMs : 0;
  return new Date(Math.max(step, next));
}

/** Whether `a` came before `b` in the sequence: created earlier, or at the same instant with a smaller id. */
export function cameBefore(a: { createdAt: Date; _id: string }, b: { createdAt: Date; _id: string }): boolean {
  const d = a.createdAt.getTime() - b.createdAt.getTime();
  return d < 0 || (d === 0 && a._id < b._id);
}
