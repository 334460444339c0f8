import { TOPICS } from '@marketplace/contracts';
import type { OutgoingEvent, PlatformTopics } from '@marketplace/events';
import { sealWebhookSecret } from '@marketplace/identity';
import type { Installation } from '../../domain/entities';
import type { GatewayContext } from '../context';

/** The fields of an installation a change that matters to deliveries sets, its event revision included. */
export type InstallationChange = Partial<Omit<Installation, '_id' | 'tenantId' | 'appId'>> & {
  updatedAt: Date;
  eventRevision: number;
};

/** A rotation's replaced signing secret, in clear, and when it stops signing. */
export interface PreviousSigningSecret {
  secret: string;
  expiresAt: Date;
}

/**
 * Writes a change that matters to deliveries (connect and reconnect, signing-secret rotation,
 * disconnect, uninstall) with its installation event staged in the same write, then publishes the
 * event. `signingSecret`: a new signing secret, in clear, for the event to carry sealed;
 * `previous`: on a rotation, the secret it replaced, carried sealed the same way with its end.
 * Under the installation lock.
 */
export async function changeInstallation(
  ctx: GatewayContext,
  installation: Installation,
  changes: InstallationChange,
  signingSecret: string | null,
  previous?: PreviousSigningSecret,
): Promise<void> {
  const after = { ...installation, ...changes };
  const event = installationChanged(ctx, after, changes.eventRevision, signingSecret, previous);
  await ctx.store.installations.updateWithEvent(
    { tenantId: installation.tenantId },
    installation._id,
    changes,
    event,
    changes.updatedAt,
  );
  await ctx.installationEvents.publish(installation._id);
}

/**
 * The installation as its consumers need it (the webhook sender; delivery-assignment, which reads
 * the scopes). A whole snapshot with a revision that grows per installation, so a consumer keeps
 * the newest and drops one arriving late. The signing secret (and a rotation's previous one) is
 * sealed for the webhook sender (`WEBHOOK_SECRET_TRANSPORT_KEY`), never in clear.
 */
function installationChanged(
  ctx: GatewayContext,
  after: Installation,
  revision: number,
  signingSecret: string | null,
  previous: PreviousSigningSecret | undefined,
): OutgoingEvent<PlatformTopics, typeof TOPICS.installations> {
  const seal = (secret: string) => sealWebhookSecret(ctx.webhookSecretTransportKey, after._id, secret);
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
      webhookSecretSealed: signingSecret === null ? null : seal(signingSecret),
      ...(previous && {
        previousWebhookSecretSealed: seal(previous.secret),
        previousWebhookSecretExpiresAt: previous.expiresAt.toISOString(),
      }),
      revision,
      changedAt: after.updatedAt.toISOString(),
    },
  };
}
