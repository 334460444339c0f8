import { conflict } from '@marketplace/errors';
import type { Credentials, Installation } from '../../domain/entities';
import { ownerOf } from '../../domain/installations';
import { oauthRedirectUri, stateId, stateVerifierContext } from '../../domain/oauth-connect';
import type { GatewayContext } from '../context';
import { openOAuthSettings } from './open-oauth-settings';

export interface ConnectResult {
  installation: Installation;
  credentials: Credentials | null;
  authorizationUrl: string | null;
}

/**
 * The first half of an OAuth2 connect (lock held): a single-use state with its PKCE verifier
 * stored sealed, the installation marked connecting, and the partner's authorization URL for the
 * restaurant's browser. The credentials come with the callback (see completeOAuthConnect).
 */
export async function startOAuthConnect(ctx: GatewayContext, installation: Installation): Promise<ConnectResult> {
  const version = await ctx.store.contractVersions.findVersion(installation.appId, installation.contractVersion);
  if (!version?.oauth2)
    throw conflict('marketplace.installation.oauth_unavailable', 'The contract version has no OAuth2 settings.');
  const state = ctx.oauth.newState();
  const pkce = ctx.oauth.newPkcePair();
  const now = ctx.now();
  await ctx.store.oauthStates.insert(ownerOf(installation), {
    _id: stateId(state),
    codeVerifierSealed: ctx.box.seal(pkce.verifier, stateVerifierContext(stateId(state))),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.oauthStateTtlSeconds * 1000),
  });
  let current = installation;
  if (installation.status !== 'Connected') {
    // A reconnect of a connected installation keeps its current credentials until the callback.
    await ctx.store.installations.markConnecting(installation, installation._id, now);
    current = { ...installation, status: 'Connecting', updatedAt: now };
  }
  const url = ctx.oauth.authorizationUrl(
    openOAuthSettings(ctx, installation.appId, installation.contractVersion, version.oauth2),
    { state, codeChallenge: pkce.challenge, redirectUri: oauthRedirectUri(ctx.publicBaseUrl) },
  );
  return { installation: current, credentials: null, authorizationUrl: url };
}
