import { conflict } from '@marketplace/errors';
import type { GatewayContext } from '../context';
import { findInstallation } from './find-installation';
import { mintCredentials } from './mint-credentials';
import { startOAuthConnect, type ConnectResult } from './start-oauth-connect';
import { withInstallationLock } from './with-installation-lock';

export type { ConnectResult };

/**
 * Connect (first time) and reconnect (later) mint credentials. ApiKey apps get them at once;
 * OAuth2 apps get an authorization URL for the restaurant's browser, and the credentials when the
 * partner's server sends the browser back to the callback (see completeOAuthConnect).
 */
export function connectInstallation(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
  mode: 'connect' | 'reconnect',
): Promise<ConnectResult> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    if (mode === 'connect' && installation.status === 'Connected') {
      throw conflict(
        'marketplace.installation.already_connected',
        'The installation is already connected; use reconnect to mint new credentials.',
      );
    }
    if (mode === 'reconnect' && installation.status !== 'Connected' && installation.status !== 'Disconnected') {
      throw conflict(
        'marketplace.installation.not_connected',
        'The installation has never been connected; use connect.',
      );
    }
    if (installation.authType === 'OAuth2') return startOAuthConnect(ctx, installation);
    const { installation: connected, credentials } = await mintCredentials(ctx, installation);
    return { installation: connected, credentials, authorizationUrl: null };
  });
}
