import type { InstallationChanged } from '@marketplace/contracts';
import type { DeliveryContext } from './context';

/**
 * The installations copy: the installations a tenant may assign to. Idempotent by itself (a
 * revision not newer changes nothing).
 */
export async function applyInstallationChange(ctx: DeliveryContext, change: InstallationChanged): Promise<void> {
  await ctx.store.installations.saveIfNewer(
    { tenantId: change.tenantId },
    {
      _id: change.installationId,
      tenantId: change.tenantId,
      connected: change.connected,
      // Events from before scopes were published name none: not assignable until the next event.
      scopes: change.scopes ?? [],
      // Whether it can be told of an assignment (delivery.assigned by webhook).
      webhookUrl: change.webhookUrl,
      subscribedEvents: change.subscribedEvents,
      hasWebhookSecret: change.webhookSecretSealed !== null,
      revision: change.revision,
    },
  );
}
