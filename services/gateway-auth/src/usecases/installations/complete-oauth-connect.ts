import { AppError } from '@marketplace/errors';
import type { Credentials, Installation } from '../../domain/entities';
import { oauthRedirectUri, stateId, stateVerifierContext } from '../../domain/oauth-connect';
import type { GatewayContext } from '../context';
import type { OAuth2ClientSettings, OAuth2Tokens } from '../ports';
import { mintCredentials } from './mint-credentials';
import { openOAuthSettings } from './open-oauth-settings';
import { withInstallationLock } from './with-installation-lock';

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

const stateInvalid = () =>
  new AppError('validation', 'oauth.state_invalid', 'The authorization response is unknown, expired or already used.');

/** The callback's state, taken (single use), and the connecting installation it names. */
interface Pending {
  owner: { tenantId: string };
  installation: Installation;
  codeVerifierSealed: string;
  stateId: string;
}

/**
 * The partner's authorization server sent the restaurant's browser back. The state (single use,
 * expiring) names the installation; the code is exchanged server to server with the PKCE verifier;
 * the tokens are stored encrypted and the API key (and signing secret) minted and shown once.
 */
export async function completeOAuthConnect(
  ctx: GatewayContext,
  query: CallbackQuery,
): Promise<{ installation: Installation; credentials: Credentials }> {
  const pending = await takeState(ctx, query.state);
  const revertConnecting = async () => {
    const { installation } = pending;
    if (installation.status === 'Connecting')
      await ctx.store.installations.revertConnecting(
        pending.owner,
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
  const exchange = await prepareExchange(ctx, pending, query.code);
  let tokens;
  try {
    tokens = await ctx.oauth.exchangeCode(exchange.settings(), exchange.request);
  } catch (error) {
    await revertConnecting();
    throw error;
  }
  return storeTokens(ctx, pending, tokens);
}

/** Takes the state (it cannot be used twice) and finds the live installation it names. */
async function takeState(ctx: GatewayContext, state: string | undefined): Promise<Pending> {
  if (!state) throw stateInvalid();
  const taken = await ctx.store.oauthStates.takeByStateHashAcrossTenants(stateId(state));
  if (!taken || taken.expiresAt.getTime() <= ctx.now().getTime()) throw stateInvalid();
  const owner = { tenantId: taken.tenantId }; // the state names its installation and tenant
  const installation = await ctx.store.installations.findLive(owner, taken.installationId);
  if (!installation) throw stateInvalid();
  return { owner, installation, codeVerifierSealed: taken.codeVerifierSealed, stateId: taken._id };
}

/**
 * What the code's exchange needs: the version's OAuth settings (the client secret opened when the
 * exchange starts) and the state's PKCE verifier.
 */
async function prepareExchange(
  ctx: GatewayContext,
  pending: Pending,
  code: string,
): Promise<{
  settings: () => OAuth2ClientSettings;
  request: { code: string; codeVerifier: string; redirectUri: string };
}> {
  const { installation } = pending;
  const version = await ctx.store.contractVersions.findVersion(installation.appId, installation.contractVersion);
  const oauth2 = version?.oauth2;
  if (!oauth2) throw stateInvalid();
  const verifier = ctx.box.open(pending.codeVerifierSealed, stateVerifierContext(pending.stateId));
  return {
    settings: () => openOAuthSettings(ctx, installation.appId, installation.contractVersion, oauth2),
    request: { code, codeVerifier: verifier, redirectUri: oauthRedirectUri(ctx.publicBaseUrl) },
  };
}

/** Under the installation lock: the tokens sealed and stored with new credentials. */
function storeTokens(
  ctx: GatewayContext,
  pending: Pending,
  tokens: OAuth2Tokens,
): Promise<{ installation: Installation; credentials: Credentials }> {
  return withInstallationLock(ctx, pending.installation._id, async () => {
    const current = await ctx.store.installations.findLive(pending.owner, pending.installation._id);
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
