import type { Installation } from '../../domain/entities';
import { nextRevision, ownerOf } from '../../domain/installations';
import type { GatewayContext } from '../context';
import { revokeApiKeys } from '../credentials/revoke-api-keys';
import { changeInstallation } from './change-installation';
import { findInstallation } from './find-installation';
import { withInstallationLock } from './with-installation-lock';

/** Revokes everything: API keys, the signing secret and the OAuth tokens. */
export function disconnectInstallation(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
): Promise<Installation> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    if (installation.status === 'Disconnected') return installation;
    await revokeApiKeys(ctx, ownerOf(installation));
    await ctx.store.oauthStates.deleteForInstallation(ownerOf(installation)); // a pending authorization ends here too
    const changes = {
      status: 'Disconnected' as const,
      apiKeyId: null,
      webhookSecretSealed: null,
      oauth: null,
      updatedAt: ctx.now(),
      eventRevision: nextRevision(installation),
    };
    await changeInstallation(ctx, installation, changes, null);
    return { ...installation, ...changes };
  });
}
