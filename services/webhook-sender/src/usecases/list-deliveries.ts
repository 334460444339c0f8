import { notFound } from '@marketplace/errors';
import type { PartnerWebhookDelivery } from '../domain/delivery';
import type { DeliveryStatus } from '../domain/delivery-status';
import type { WebhookContext } from './context';

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
