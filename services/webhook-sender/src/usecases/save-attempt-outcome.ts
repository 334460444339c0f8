import { TOPICS, type WebhookAttempt } from '@marketplace/contracts';
import { isCurrentAttempt, type DeliveryOutcome } from '../domain/attempt-decision';
import { attemptEvent } from '../domain/attempt-event';
import { ownerOf, type DeliveryStateChange } from '../domain/delivery';
import { attemptTopicAfter } from '../domain/retry-tiers';
import type { WebhookContext } from './context';

const LOCK = { ttlMs: 30_000, waitMs: 10_000 };

/**
 * Writes what becomes of the delivery after an attempt, under the delivery's lock, if the job is
 * still its next attempt: `decide` is given the time read under the lock. A held attempt is put
 * back on webhook-attempts, due then; a retry goes on its tier's topic; an end stages nothing. The
 * repository publishes what it stages.
 */
export async function saveAttemptOutcome(
  ctx: WebhookContext,
  job: WebhookAttempt,
  decide: (now: Date) => DeliveryOutcome,
): Promise<void> {
  const locked = await ctx.locks.withLock(`delivery:${job.deliveryId}`, LOCK, async () => {
    const delivery = await ctx.store.deliveries.findForAttempt(job.deliveryId);
    if (!isCurrentAttempt(delivery, job)) return;
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
    } else if (outcome.next) {
      state.nextAttempt = job.attempt + 1;
      const event = attemptEvent(attemptTopicAfter(job.attempt), delivery, job.round, job.attempt + 1, outcome.next);
      await ctx.store.deliveries.recordAttempt(owner, delivery._id, state, outcome.attempt, [event], now);
    } else {
      await ctx.store.deliveries.recordAttempt(owner, delivery._id, state, outcome.attempt, [], now);
    }
  });
  if (!locked) throw new Error(`delivery ${job.deliveryId} stayed locked; the attempt is retried`);
}
