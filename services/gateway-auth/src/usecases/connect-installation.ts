import { installationChanged, nextRevision } from './installation-events';
import { createHash } from 'node:crypto';
import { conflict } from '@marketplace/errors';
import { authorizationUrl, newPkcePair, newState, type OAuth2ClientSettings } from '../adapters/oauth2-client';
import { InstallationsRepository } from '../adapters/store/installations-repository';
import { clientSecretContext, oauthRedirectUri, type GatewayContext } from './context';
import { issueApiKey, newWebhookSecret } from './credentials';
import type { Credentials, Installation, OAuth2Settings } from './entities';
import { findInstallation, ownerOf, withInstallationLock } from './installations';

export interface ConnectResult {
  installation: Installation;
  credentials: Credentials | null;
  authorizationUrl: string | null;
}

/**
 * Connect (first time) and reconnect (later) mint credentials. ApiKey apps get them at once;
 * OAuth2 apps get an authorization URL for the restaurant's browser, and the credentials when the
 * partner's server sends the browser back to the callback (see complete-oauth-connect).
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

/** New API key and (when events are subscribed) signing secret; the old ones stop working. Lock held. */
export async function mintCredentials(
  ctx: GatewayContext,
  installation: Installation,
  oauth: Installation['oauth'] = installation.oauth,
): Promise<{ installation: Installation; credentials: Credentials }> {
  const scopes = installation.contractScopes; // fixed at connect time from the consented version
  const key = await issueApiKey(ctx, installation, scopes);
  const webhook = installation.subscribedEvents.length > 0 ? newWebhookSecret(ctx, installation._id) : null;
  const now = ctx.now();
  const revision = nextRevision(installation);
  const changes = {
    status: 'Connected' as const,
    scopes,
    apiKeyId: key.keyId,
    webhookSecretSealed: webhook?.sealed ?? null,
    oauth,
    connectedAt: now,
    updatedAt: now,
    eventRevision: revision,
  };
  const event = installationChanged(ctx, { ...installation, ...changes }, revision, webhook?.secret ?? null);
  await ctx.store.installations.updateWithEvent(installation, installation._id, changes, event, now);
  await ctx.outbox.flush(InstallationsRepository.storage.collection, installation._id);
  return {
    installation: { ...installation, ...changes },
    credentials: { apiKey: key.apiKey, webhookSigningSecret: webhook?.secret ?? null },
  };
}

export const stateId = (state: string) => createHash('sha256').update(state).digest('base64url');

export function oauthSettings(
  ctx: GatewayContext,
  appId: string,
  version: number,
  oauth2: OAuth2Settings,
): OAuth2ClientSettings {
  return {
    authorizationEndpoint: oauth2.authorizationEndpoint,
    tokenEndpoint: oauth2.tokenEndpoint,
    clientId: oauth2.clientId,
    clientSecret: ctx.box.open(oauth2.clientSecretSealed, clientSecretContext(appId, version)),
    scopes: oauth2.scopes,
    tokenEndpointAuthMethod: oauth2.tokenEndpointAuthMethod,
  };
}

async function startOAuthConnect(ctx: GatewayContext, installation: Installation): Promise<ConnectResult> {
  const version = await ctx.store.contractVersions.findVersion(installation.appId, installation.contractVersion);
  if (!version?.oauth2)
    throw conflict('marketplace.installation.oauth_unavailable', 'The contract version has no OAuth2 settings.');
  const state = newState();
  const pkce = newPkcePair();
  const now = ctx.now();
  await ctx.store.oauthStates.insert(ownerOf(installation), {
    _id: stateId(state),
    codeVerifierSealed: ctx.box.seal(pkce.verifier, `oauth-state:${stateId(state)}`),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.oauthStateTtlSeconds * 1000),
  });
  let current = installation;
  if (installation.status !== 'Connected') {
    // A reconnect of a connected installation keeps its current credentials until the callback.
    await ctx.store.installations.markConnecting(installation, installation._id, now);
    current = { ...installation, status: 'Connecting', updatedAt: now };
  }
  const url = authorizationUrl(oauthSettings(ctx, installation.appId, installation.contractVersion, version.oauth2), {
    state,
    codeChallenge: pkce.challenge,
    redirectUri: oauthRedirectUri(ctx),
  });
  return { installation: current, credentials: null, authorizationUrl: url };
}
