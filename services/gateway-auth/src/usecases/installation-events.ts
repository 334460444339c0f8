import type { OutgoingEvent } from '@marketplace/events';
import { sealWebhookSecret } from '@marketplace/identity';
import type { InstallationDoc } from '../adapters/store/documents';
import type { GatewayContext } from './context';

export const INSTALLATIONS_TOPIC = 'installations';

/**
 * The installation as the webhook sender needs it, after a change that matters to deliveries:
 * connect (and reconnect), signing-secret rotation, disconnect, uninstall. A whole snapshot with a
 * revision that grows per installation, so a consumer keeps the newest and drops one arriving late.
 * The signing secret is sealed for the webhook sender (`WEBHOOK_SECRET_TRANSPORT_KEY`), never in clear.
 */
export function installationChanged(ctx: GatewayContext, after: InstallationDoc, revision: number, signingSecret: string | null): OutgoingEvent {
  return {
    topic: INSTALLATIONS_TOPIC,
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
      webhookSecretSealed: signingSecret === null ? null : sealWebhookSecret(ctx.webhookSecretTransportKey, after._id, signingSecret),
      revision,
      changedAt: after.updatedAt.toISOString(),
    },
  };
}

/** The next revision of an installation's events (under the installation lock). */
export const nextRevision = (installation: InstallationDoc) => (installation.eventRevision ?? 0) + 1;
