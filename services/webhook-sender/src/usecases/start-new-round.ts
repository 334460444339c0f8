import { TOPICS } from '@marketplace/contracts';
import { AppError, busy, notFound } from '@marketplace/errors';
import { attemptEvent } from '../domain/attempt-event';
import type { Delivery } from '../domain/delivery';
import type { WebhookContext } from './context';

/** How long a redelivery waits for the delivery's lock (an attempt being recorded holds it briefly). */
const LOCK = { ttlMs: 30_000, waitMs: 5_000 };

/**
 * Sends a finished delivery again, as a new round of attempts with the full retry schedule: the
 * same id and body, a fresh signature. Under the delivery's lock: `find` reads it (undefined is
 * 404, as another owner's is), a delivery still in progress is 409, and `check` may refuse it (another 409).
 * A step of both redeliveries (redeliverWebhook, redeliverProviderCallback).
 */
export async function startNewRound<D extends Delivery>(
  ctx: WebhookContext,
  deliveryId: string,
  find: () => Promise<D | undefined>,
  check: (delivery: D) => Promise<void>,
): Promise<D> {
  const result = await ctx.locks.withLock(`delivery:${deliveryId}`, LOCK, async () => {
    const d = await find();
    if (!d) throw notFound();
    if (d.status === 'pending')
      throw new AppError(
        'conflict',
        'webhook.delivery_in_progress',
        'The delivery is still being attempted; redeliver it once it has ended.',
      );
    await check(d);
    const now = ctx.now();
    const round = d.round + 1;
    const set = { status: 'pending' as const, round, nextAttempt: 1, nextAttemptAt: now, reason: null, updatedAt: now };
    const owner = d.kind === 'partner-webhook' ? { tenantId: d.tenantId } : { accountId: d.accountId };
    await ctx.store.deliveries.startRound(
      owner,
      d._id,
      set,
      [attemptEvent(TOPICS.webhookAttempts, d, round, 1, now)],
      now,
    ); // the repository publishes the first attempt of the round it stages
    return { ...d, ...set };
  });
  if (!result) throw busy('The delivery is being updated; retry shortly.');
  return result.value;
}
