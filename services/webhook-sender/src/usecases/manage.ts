import { AppError, notFound } from '@marketplace/errors';
import { DELIVERIES, type DeliveryDoc, type DeliveryStatus } from '../adapters/store';
import { receives, SYSTEM_TEST } from '../domain/installation';
import type { WebhookContext } from './context';
import { attemptEvent, createTestDelivery } from './deliveries';
import { ATTEMPTS_TOPIC } from './delivery-kinds';

export function deliveryView(d: DeliveryDoc, withPayload: boolean) {
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
    attempts: d.attempts.map((a) => ({ round: a.round, attempt: a.attempt, at: a.at.toISOString(), statusCode: a.statusCode, latencyMs: a.latencyMs, errorClass: a.errorClass, verdict: a.verdict })),
    ...(withPayload ? { payload: JSON.parse(d.body) as unknown } : {}),
  };
}

/** An installation's deliveries, newest first; `status` filters (dead_lettered lists the dead letters). */
export async function listDeliveries(ctx: WebhookContext, tenantId: string, installationId: string, options: { status?: DeliveryStatus; limit: number }) {
  if (!(await ctx.store.installations.findForTenant({ tenantId }, installationId))) throw notFound();
  const docs = await ctx.store.deliveries.listForInstallation({ tenantId, installationId }, options);
  return docs.map((d) => deliveryView(d, false));
}

export async function getDelivery(ctx: WebhookContext, tenantId: string, deliveryId: string) {
  const d = await ctx.store.deliveries.findForTenant({ tenantId }, deliveryId);
  if (!d) throw notFound();
  return deliveryView(d, true);
}

/**
 * Sends a finished delivery again, as a new round of attempts with the full retry schedule: the
 * same id and body, a fresh timestamp and signature. A delivery still in progress is 409.
 */
export async function redeliver(ctx: WebhookContext, tenantId: string, deliveryId: string) {
  const result = await ctx.locks.withLock(`delivery:${deliveryId}`, { ttlMs: 30_000, waitMs: 5_000 }, async () => {
    const d = await ctx.store.deliveries.findForTenant({ tenantId }, deliveryId);
    if (!d) throw notFound();
    if (d.status === 'pending') throw new AppError('conflict', 'webhook.delivery_in_progress', 'The delivery is still being attempted; redeliver it once it has ended.');
    const installation = await ctx.store.installations.findForTenant({ tenantId }, d.installationId);
    if (!installation || !receives(installation, d.type)) throw notReceiving();
    const now = ctx.now();
    const round = d.round + 1;
    const set = { status: 'pending' as const, round, nextAttempt: 1, nextAttemptAt: now, reason: null, updatedAt: now };
    await ctx.store.deliveries.startRound({ tenantId }, d._id, set, [attemptEvent(ATTEMPTS_TOPIC, d, round, 1, now)], now);
    await ctx.outbox.flush(DELIVERIES, d._id);
    return deliveryView({ ...d, ...set }, false);
  });
  if (!result) throw new AppError('unavailable', 'webhook.busy', 'The delivery is being updated; retry shortly.', { retryAfterSeconds: 1 });
  return result.value;
}

const notReceiving = () => new AppError('conflict', 'webhook.installation_not_receiving', 'The installation is not connected or has no webhook URL, so it receives no webhooks.');

/** system.test to one of the tenant's installations (connected, with a webhook URL). */
export async function sendTestEvent(ctx: WebhookContext, tenantId: string, installationId: string) {
  const installation = await ctx.store.installations.findForTenant({ tenantId }, installationId);
  if (!installation) throw notFound();
  if (!receives(installation, SYSTEM_TEST)) throw notReceiving();
  const id = await createTestDelivery(ctx, installation);
  return getDelivery(ctx, tenantId, id);
}
