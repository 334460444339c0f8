import { conflict } from '@marketplace/errors';
import type { Credentials, Installation } from '../../domain/entities';
import type { GatewayContext } from '../context';
import { issueApiKey } from '../credentials/issue-api-key';
import { findInstallation } from './find-installation';
import { withInstallationLock } from './with-installation-lock';

/**
 * A new API key. The previous one is revoked at once (`overlapSeconds` 0, the default), or keeps
 * working for `overlapSeconds` (never longer than it would have anyway), so that the partner can
 * switch without a gap; `previousKeyExpiresAt` says until when (null: it stopped at once). Scopes
 * stay those granted at connect.
 */
export function rotateApiKey(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
  overlapSeconds = 0,
): Promise<{ installation: Installation; credentials: Credentials; previousKeyExpiresAt: Date | null }> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    if (installation.status !== 'Connected')
      throw conflict('marketplace.installation.not_connected', 'The installation is not connected.');
    const key = await issueApiKey(ctx, installation, installation.scopes, overlapSeconds);
    const updatedAt = ctx.now();
    await ctx.store.installations.setApiKeyId({ tenantId }, installationId, key.keyId, updatedAt);
    return {
      installation: { ...installation, apiKeyId: key.keyId, updatedAt },
      credentials: { apiKey: key.apiKey, webhookSigningSecret: null },
      previousKeyExpiresAt: key.previousKeysEnd,
    };
  });
}
