import { conflict } from '@marketplace/errors';
import type { Credentials, Installation } from '../../domain/entities';
import { nextRevision } from '../../domain/installations';
import type { GatewayContext } from '../context';
import { mintWebhookSecret } from '../credentials/mint-webhook-secret';
import { changeInstallation } from './change-installation';
import { findInstallation } from './find-installation';
import { withInstallationLock } from './with-installation-lock';

/** A new webhook signing secret; the next delivery attempt is signed with it. */
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
    await changeInstallation(ctx, installation, changes, secret.secret);
    return {
      installation: { ...installation, webhookSecretSealed: secret.sealed, updatedAt },
      credentials: { apiKey: null, webhookSigningSecret: secret.secret },
    };
  });
}
