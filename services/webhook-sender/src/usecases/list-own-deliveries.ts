import type { InstallationOwner } from '@marketplace/store';
import type { PartnerWebhookDelivery } from '../domain/delivery';
import type { DeliveryStatus } from '../domain/delivery-status';
import type { WebhookContext } from './context';

/**
 * The calling installation's own deliveries (the Partner API), newest first; `status` filters. The
 * gateway authenticated the installation, so there is nothing to find first: before the sender's
 * copy of a new installation arrives, the list is simply empty.
 */
export async function listOwnDeliveries(
  ctx: WebhookContext,
  owner: InstallationOwner,
  options: { status?: DeliveryStatus; limit: number },
): Promise<PartnerWebhookDelivery[]> {
  return ctx.store.deliveries.listForInstallation(owner, options);
}
