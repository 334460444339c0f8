import { AppError, notFound } from '@marketplace/errors';
import type { DeliveryStatus } from '../domain/delivery-status';
import { receives, SYSTEM_TEST } from '../domain/installation';
import type { WebhookContext } from './context';
import { createTestDelivery } from './deliveries';
import type { PartnerWebhookDelivery } from './entities';
import { startNewRound } from './rounds';

/** An installation's deliveries, newest first; `status` filters (dead_lettered lists the dead letters). */
export async function listDeliveries(
  ctx: WebhookContext,
  tenantId: string,
  installationId: string,
  options: { status?: DeliveryStatus; limit: number },
): Promise<PartnerWebhookDelivery[]> {
  if (!(await ctx.store.installations.findForTenant({ tenantId }, installationId))) throw notFound();
  return ctx.store.deliveries.listForInstallation({ tenantId, installationId }, options);
}

export async function getDelivery(
  ctx: WebhookContext,
  tenantId: string,
  deliveryId: string,
): Promise<PartnerWebhookDelivery> {
  const d = await ctx.store.deliveries.findForTenant({ tenantId }, deliveryId);
  if (!d) throw notFound();
  return d;
}

/**
 * Sends a finished delivery again, as a new round of attempts with the full retry schedule: the
 * same id and body, a fresh timestamp and signature. A delivery still in progress is 409, and so is
 * one whose installation no longer takes its type.
 */
export async function redeliver(
  ctx: WebhookContext,
  tenantId: string,
  deliveryId: string,
): Promise<PartnerWebhookDelivery> {
  return startNewRound(
    ctx,
    deliveryId,
    () => ctx.store.deliveries.findForTenant({ tenantId }, deliveryId),
    async (d) => {
      const installation = await ctx.store.installations.findForTenant({ tenantId }, d.installationId);
      if (!installation || !receives(installation, d.type)) throw notReceiving();
    },
  );
}

const notReceiving = () =>
  new AppError(
    'conflict',
    'webhook.installation_not_receiving',
    'The installation is not connected or has no webhook URL, so it receives no webhooks.',
  );

/** system.test to one of the tenant's installations (connected, with a webhook URL). */
export async function sendTestEvent(
  ctx: WebhookContext,
  tenantId: string,
  installationId: string,
): Promise<PartnerWebhookDelivery> {
  const installation = await ctx.store.installations.findForTenant({ tenantId }, installationId);
  if (!installation) throw notFound();
  if (!receives(installation, SYSTEM_TEST)) throw notReceiving();
  const id = await createTestDelivery(ctx, installation);
  return getDelivery(ctx, tenantId, id);
}
