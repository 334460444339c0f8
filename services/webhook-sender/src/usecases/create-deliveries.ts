import { deliveryIdOf } from '../domain/delivery-id';
import { receives, type InstallationCopy } from '../domain/installation';
import type { Webhook } from '../domain/webhook-events';
import type { WebhookContext } from './context';
import { createDelivery } from './create-delivery';

/**
 * Creates one delivery per receiving installation, each with its first attempt due now (staged in
 * the delivery itself, so a crash cannot lose it). The same event seen twice creates nothing new:
 * the delivery id comes from the event id and the installation. Says how many were created.
 */
export async function createDeliveries(
  ctx: WebhookContext,
  webhook: Webhook,
  eventId: string,
  occurredAt: string,
): Promise<number> {
  const receivers = await receiversOf(ctx, webhook);
  // Side by side: each delivery is its own document and its own first attempt.
  const created = await Promise.all(
    receivers.map((installation) =>
      createDelivery(ctx, installation, {
        type: webhook.type,
        id: deliveryIdOf(eventId, installation._id),
        sourceEventId: eventId,
        occurredAt,
        data: webhook.data,
      }),
    ),
  );
  return created.filter(Boolean).length;
}

/**
 * The installations that take the webhook now: for a broadcast, every installation of the tenant
 * subscribed to its type (connected, with a URL and a secret); else the one it names, if it takes it.
 */
async function receiversOf(ctx: WebhookContext, webhook: Webhook): Promise<InstallationCopy[]> {
  if (webhook.audience.kind === 'broadcast') {
    const all = await ctx.store.installations.listForTenant({ tenantId: webhook.tenantId });
    return all.filter((installation) => receives(installation, webhook.type));
  }
  const one = await ctx.store.installations.findForTenant(
    { tenantId: webhook.tenantId },
    webhook.audience.installationId,
  );
  return one !== undefined && receives(one, webhook.type) ? [one] : [];
}
