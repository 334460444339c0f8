import type { InstallationOwner, TenantOwner } from '@marketplace/store';
import type { PartnerWebhookDelivery } from '../domain/delivery';
import { notReceiving, receives } from '../domain/installation';
import type { WebhookContext } from './context';
import { startNewRound } from './start-new-round';

/**
 * Sends a finished delivery again, as a new round of attempts with the full retry schedule: the
 * same id and body, a fresh timestamp and signature. The owner is a tenant (the tenant API) or one
 * installation of it (the Partner API): another owner's delivery is 404, as an unknown one. A
 * delivery still in progress is 409, and so is one whose installation no longer takes its type.
 */
export async function redeliverWebhook(
  ctx: WebhookContext,
  owner: TenantOwner | InstallationOwner,
  deliveryId: string,
): Promise<PartnerWebhookDelivery> {
  const tenant = { tenantId: owner.tenantId };
  return startNewRound(
    ctx,
    deliveryId,
    () => ctx.store.deliveries.findForTenant(owner, deliveryId),
    async (d) => {
      const installation = await ctx.store.installations.findForTenant(tenant, d.installationId);
      if (!installation || !receives(installation, d.type)) throw notReceiving();
    },
  );
}
