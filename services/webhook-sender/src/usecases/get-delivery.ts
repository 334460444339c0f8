import { notFound } from '@marketplace/errors';
import type { InstallationOwner, TenantOwner } from '@marketplace/store';
import type { PartnerWebhookDelivery } from '../domain/delivery';
import type { WebhookContext } from './context';

/**
 * One delivery with its attempts, of the owner: a tenant (the tenant API) or one installation of it
 * (the Partner API). Another owner's is 404, as an unknown one.
 */
export async function getDelivery(
  ctx: WebhookContext,
  owner: TenantOwner | InstallationOwner,
  deliveryId: string,
): Promise<PartnerWebhookDelivery> {
  const d = await ctx.store.deliveries.findForTenant(owner, deliveryId);
  if (!d) throw notFound();
  return d;
}
