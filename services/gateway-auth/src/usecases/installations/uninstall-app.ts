import { nextRevision, ownerOf } from '../../domain/installations';
import type { GatewayContext } from '../context';
import { revokeApiKeys } from '../credentials/revoke-api-keys';
import { changeInstallation } from './change-installation';
import { findInstallation } from './find-installation';
import { withInstallationLock } from './with-installation-lock';

/** Revokes everything and removes the installation from the tenant's view; the app may be installed again. */
export function uninstallApp(ctx: GatewayContext, tenantId: string, installationId: string): Promise<void> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    await revokeApiKeys(ctx, ownerOf(installation));
    await ctx.store.oauthStates.deleteForInstallation(ownerOf(installation));
    // Last, in one write: the installation leaves the tenant's view and frees its slot together.
    const changes = {
      status: 'Uninstalled' as const,
      slot: installationId,
      apiKeyId: null,
      webhookSecretSealed: null,
      oauth: null,
      scopes: [],
      updatedAt: ctx.now(),
      eventRevision: nextRevision(installation),
    };
    await changeInstallation(ctx, installation, changes, null);
  });
}
