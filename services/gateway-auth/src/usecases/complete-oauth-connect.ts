import { AppError } from '@marketplace/errors';
import { exchangeCode } from '../adapters/oauth2-client';
import { oauthRedirectUri, type GatewayContext } from './context';
import { mintCredentials, oauthSettings, stateId } from './connect-installation';
import type { Credentials, Installation } from './entities';
import { withInstallationLock } from './installations';

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

const stateInvalid = () =>
  new AppError('validation', 'oauth.state_invalid', 'The authorization response is unknown, expired or already used.');

/**
 * The partner's authorization server sent the restaurant's browser back. The state (single use,
 * expiring) names the installation; the code is exchanged server to server with the PKCE verifier;
 * the tokens are stored encrypted and the API key (and signing secret) minted and shown once.
 */
export async function completeOAuthConnect(
  ctx: GatewayContext,
  query: CallbackQuery,
): Promise<{ installation: Installation; credentials: Credentials }> {
  if (!query.state) throw stateInvalid();
  const state = await ctx.store.oauthStates.takeByStateHashAcrossTenants(stateId(query.state));
  if (!state || state.expiresAt.getTime() <= ctx.now().getTime()) throw stateInvalid();
  const owner = { tenantId: state.tenantId }; // the state names its installation and tenant
  const installation = await ctx.store.installations.findLive(owner, state.installationId);
  if (!installation) throw stateInvalid();
  const revertConnecting = async () => {
    if (installation.status === 'Connecting')
      await ctx.store.installations.revertConnecting(
        owner,
        installation._id,
        installation.connectedAt ? 'Disconnected' : 'Installed',
        ctx.now(),
      );
  };

  if (query.error || !query.code) {
    await revertConnecting();
    const reason = query.error && /^[A-Za-z0-9_.-]{1,64}$/.test(query.error) ? query.error : 'no_code';
    throw new AppError(
      'validation',
      'oauth.authorization_denied',
      `The partner's authorization server did not grant access (${reason}).`,
    );
  }
  const version = await ctx.store.contractVersions.findVersion(installation.appId, installation.contractVersion);
  if (!version?.oauth2) throw stateInvalid();
  const verifier = ctx.box.open(state.codeVerifierSealed, `oauth-state:${state._id}`);
  let tokens;
  try {
    tokens = await exchangeCode(oauthSettings(ctx, installation.appId, installation.contractVersion, version.oauth2), {
      http: ctx.oauthHttp,
      code: query.code,
      codeVerifier: verifier,
      redirectUri: oauthRedirectUri(ctx),
      timeoutMs: ctx.oauthTimeoutMs,
      now: ctx.now,
    });
  } catch (error) {
    await revertConnecting();
    throw error;
  }
  return withInstallationLock(ctx, installation._id, async () => {
    const current = await ctx.store.installations.findLive(owner, installation._id);
    // A disconnect (or another callback) may have come in while we were exchanging the code.
    if (!current || (current.status !== 'Connecting' && current.status !== 'Connected')) throw stateInvalid();
    const sealed = (value: string, what: string) => ctx.box.seal(value, `installation:${current._id}:oauth-${what}`);
    const oauth = {
      accessTokenSealed: sealed(tokens.accessToken, 'access-token'),
      refreshTokenSealed: tokens.refreshToken === null ? null : sealed(tokens.refreshToken, 'refresh-token'),
      tokenType: tokens.tokenType,
      expiresAt: tokens.expiresAt,
      scope: tokens.scope,
    };
    return mintCredentials(ctx, current, oauth);
  });
}
