import type { PartnerWebhookDelivery } from '../domain/delivery';
import { notReceiving, receives } from '../domain/installation';
import type { WebhookContext } from './context';
import { startNewRound } from './start-new-round';

/**
 * Sends a finished delivery again, as a new round of attempts with the full retry schedule: the
 * same id and body, a fresh timestamp and signature. A delivery still in progress is 409, and so is
 * one whose installation no longer takes its type.
 */
export async function redeliverWebhook(
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
