import type { InstallationChanged } from '@marketplace/contracts';
import type { WebhookStore } from './ports';

/**
 * Keeps the copy of an installation: a snapshot replaces the held one unless that one has a higher
 * revision (replays and duplicates change nothing). One installation's events are on one
 * partition, handled one at a time, so the update and the insert never race.
 */
export async function applyInstallationChange(store: WebhookStore, change: InstallationChanged): Promise<void> {
  await store.installations.saveIfNewer(
    { tenantId: change.tenantId, installationId: change.installationId },
    {
      appId: change.appId,
      status: change.status,
      connected: change.connected,
      webhookUrl: change.webhookUrl,
      subscribedEvents: change.subscribedEvents,
      webhookSecretSealed: change.webhookSecretSealed,
      // Only a rotation's event carries them; any later snapshot without them ends the overlap.
      previousWebhookSecretSealed: change.previousWebhookSecretSealed ?? null,
      previousWebhookSecretExpiresAt: change.previousWebhookSecretExpiresAt
        ? new Date(change.previousWebhookSecretExpiresAt)
        : null,
      revision: change.revision,
      changedAt: new Date(change.changedAt),
    },
  );
}
