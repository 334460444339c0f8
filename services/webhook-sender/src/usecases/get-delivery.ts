import { notFound } from '@marketplace/errors';
import type { PartnerWebhookDelivery } from '../domain/delivery';
import type { WebhookContext } from './context';

/** One of the tenant's deliveries with its attempts (another tenant's is 404). */
export async function getDelivery(
  ctx: WebhookContext,
  tenantId: string,
  deliveryId: string,
): Promise<PartnerWebhookDelivery> {
  const d = await ctx.store.deliveries.findForTenant({ tenantId }, deliveryId);
  if (!d) throw notFound();
  return d;
}
