import { TOPICS } from '@marketplace/contracts';
import { AppError, busy, notFound } from '@marketplace/errors';
import { DELIVERIES } from '../adapters/store';
import type { DeliveryStatus } from '../domain/delivery-status';
import { receives, SYSTEM_TEST } from '../domain/installation';
import type { WebhookContext } from './context';
import { attemptEvent, createTestDelivery } from './deliveries';
import type { Delivery } from './entities';

/** An installation's deliveries, newest first; `status` filters (dead_lettered lists the dead letters). */
export async function listDeliveries(
  ctx: WebhookContext,
  tenantId: string,
  installationId: string,
  options: { status?: DeliveryStatus; limit: number },
): Promise<Delivery[]> {
  if (!(await ctx.store.installations.findForTenant({ tenantId }, installationId))) throw notFound();
  return ctx.store.deliveries.listForInstallation({ tenantId, installationId }, options);
}

export async function getDelivery(ctx: WebhookContext, tenantId: string, deliveryId: string): Promise<Delivery> {
  const d = await ctx.store.deliveries.findForTenant({ tenantId }, deliveryId);
  if (!d) throw notFound();
  return d;
}

/**
 * Sends a finished delivery again, as a new round of attempts with the full retry schedule: the
 * same id and body, a fresh timestamp and signature. A delivery still in progress is 409.
 */
export async function redeliver(ctx: WebhookContext, tenantId: string, deliveryId: string): Promise<Delivery> {
  const result = await ctx.locks.withLock(`delivery:${deliveryId}`, { ttlMs: 30_000, waitMs: 5_000 }, async () => {
    const d = await ctx.store.deliveries.findForTenant({ tenantId }, deliveryId);
    if (!d) throw notFound();
    if (d.status === 'pending')
      throw new AppError(
        'conflict',
        'webhook.delivery_in_progress',
        'The delivery is still being attempted; redeliver it once it has ended.',
      );
    const installation = await ctx.store.installations.findForTenant({ tenantId }, d.installationId);
    if (!installation || !receives(installation, d.type)) throw notReceiving();
    const now = ctx.now();
    const round = d.round + 1;
    const set = { status: 'pending' as const, round, nextAttempt: 1, nextAttemptAt: now, reason: null, updatedAt: now };
    await ctx.store.deliveries.startRound(
      { tenantId },
      d._id,
      set,
      [attemptEvent(TOPICS.webhookAttempts, d, round, 1, now)],
      now,
    );
    await ctx.outbox.flush(DELIVERIES, d._id);
    return { ...d, ...set };
  });
  if (!result) throw busy('The delivery is being updated; retry shortly.');
  return result.value;
}

const notReceiving = () =>
  new AppError(
    'conflict',
    'webhook.installation_not_receiving',
    'The installation is not connected or has no webhook URL, so it receives no webhooks.',
  );

/** system.test to one of the tenant's installations (connected, with a webhook URL). */
export async function sendTestEvent(ctx: WebhookContext, tenantId: string, installationId: string): Promise<Delivery> {
  const installation = await ctx.store.installations.findForTenant({ tenantId }, installationId);
  if (!installation) throw notFound();
  if (!receives(installation, SYSTEM_TEST)) throw notReceiving();
  const id = await createTestDelivery(ctx, installation);
  return getDelivery(ctx, tenantId, id);
}
