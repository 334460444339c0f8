import { TOPICS } from '@marketplace/contracts';
import type { OutgoingEvent, PlatformTopics } from '@marketplace/events';
import { sealWebhookSecret } from '@marketplace/identity';
import type { GatewayContext } from './context';
import type { Installation } from './entities';

/**
 * The installation as its consumers need it (the webhook sender; delivery-assignment, which reads
 * the scopes), after a change that matters to deliveries: connect (and reconnect), signing-secret
 * rotation, disconnect, uninstall. A whole snapshot with a revision that grows per installation,
 * so a consumer keeps the newest and drops one arriving late.
 * The signing secret is sealed for the webhook sender (`WEBHOOK_SECRET_TRANSPORT_KEY`), never in clear.
 */
export function installationChanged(
  ctx: GatewayContext,
  after: Installation,
  revision: number,
  signingSecret: string | null,
): OutgoingEvent<PlatformTopics, typeof TOPICS.installations> {
  return {
    topic: TOPICS.installations,
    key: after._id,
    type: 'installation.changed',
    data: {
      installationId: after._id,
      tenantId: after.tenantId,
      appId: after.appId,
      contractVersion: after.contractVersion,
      status: after.status,
      connected: after.status === 'Connected',
      webhookUrl: after.webhookUrl,
      subscribedEvents: after.subscribedEvents,
      // The scopes granted at connect (empty before the first connect and after uninstall; kept
      // through a disconnect, so read them with `connected`), for consumers that decide what an
      // installation may be given (a delivery to a provider holding the Delivery scopes).
      scopes: after.scopes,
      webhookSecretSealed:
        signingSecret === null ? null : sealWebhookSecret(ctx.webhookSecretTransportKey, after._id, signingSecret),
      revision,
      changedAt: after.updatedAt.toISOString(),
    },
  };
}

/** The next revision of an installation's events (under the installation lock). */
export const nextRevision = (installation: Installation) => (installation.eventRevision ?? 0) + 1;
