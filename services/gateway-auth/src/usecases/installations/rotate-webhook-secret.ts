import { conflict } from '@marketplace/errors';
import { WEBHOOK_SECRET_OVERLAP_SECONDS, webhookSecretContext } from '../../domain/api-key';
import type { Credentials, Installation } from '../../domain/entities';
import { nextRevision } from '../../domain/installations';
import type { GatewayContext } from '../context';
import { mintWebhookSecret } from '../credentials/mint-webhook-secret';
import { changeInstallation, type PreviousSigningSecret } from './change-installation';
import { findInstallation } from './find-installation';
import { withInstallationLock } from './with-installation-lock';

/**
 * A new webhook signing secret; the next delivery attempt is signed with it. The secret it replaces
 * goes on signing beside it (Standard Webhooks' `webhook-signature` only) for
 * WEBHOOK_SECRET_OVERLAP_SECONDS, so a partner can switch over without refusing a delivery.
 */
export function rotateWebhookSecret(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
): Promise<{ installation: Installation; credentials: Credentials }> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    if (installation.status !== 'Connected')
      throw conflict('marketplace.installation.not_connected', 'The installation is not connected.');
    if (installation.subscribedEvents.length === 0)
      throw conflict(
        'marketplace.installation.no_events',
        'The app subscribes to no events, so it has no signing secret.',
      );
    const secret = mintWebhookSecret(ctx, installationId);
    const updatedAt = ctx.now();
    const changes = { webhookSecretSealed: secret.sealed, updatedAt, eventRevision: nextRevision(installation) };
    await changeInstallation(ctx, installation, changes, secret.secret, replacedSecret(ctx, installation, updatedAt));
    return {
      installation: { ...installation, webhookSecretSealed: secret.sealed, updatedAt },
      credentials: { apiKey: null, webhookSigningSecret: secret.secret },
    };
  });
}

/**
 * The secret being replaced, opened, with the end of its overlap. None when there is no secret, or
 * when the stored one does not open (sealed under a retired key, so it could not sign either): the
 * rotation then goes ahead without an overlap rather than fail.
 */
function replacedSecret(ctx: GatewayContext, installation: Installation, now: Date): PreviousSigningSecret | undefined {
  if (!installation.webhookSecretSealed) return undefined;
  try {
    return {
      secret: ctx.box.open(installation.webhookSecretSealed, webhookSecretContext(installation._id)),
      expiresAt: new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_SECONDS * 1000),
    };
  } catch {
    return undefined;
  }
}
