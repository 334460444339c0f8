// A real OAuth 2.0 authorization server (oidc-provider) standing in for a partner's, for tests of
// the OAuth2 connect flow. It runs as its own node process because oidc-provider is ESM-only and
// jest runs CommonJS; startOAuthServer in test/support/oauth-server.ts starts it.
//
// Settings, from the environment:
//   OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET   the one confidential client (required)
//   OAUTH_REDIRECT_URIS                    its redirect URIs, space-separated (required)
//   OAUTH_AUTH_METHOD                      client_secret_basic (default) or client_secret_post
//   OAUTH_SCOPES                           the partner API's scopes, space-separated (default orders:write orders:read)
//   OAUTH_PORT                             0 (default) for an ephemeral port
// When listening it prints one JSON line on stdout: {"issuer","authorizationEndpoint","tokenEndpoint"}.
//
// Interactions are automatic: the first one signs in account 'restaurant-owner', the second
// consents to everything requested; an authorization request with login_hint=deny is refused with
// access_denied instead, which is how tests simulate a restaurant declining.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider, { errors } from 'oidc-provider';

const ACCOUNT_ID = 'restaurant-owner';
// Partner API scopes are not OpenID Connect scopes: oidc-provider only issues them for a resource
// server (RFC 8707 resource indicators), so every request gets this one resource by default.
const RESOURCE = 'urn:test:partner-api';
const AUTHORIZATION_PATH = '/auth';

function required(name) {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`oauth-server: ${name} is required\n`);
    process.exit(2);
  }
  return value;
}

const clientId = required('OAUTH_CLIENT_ID');
const clientSecret = required('OAUTH_CLIENT_SECRET');
const redirectUris = required('OAUTH_REDIRECT_URIS').split(/\s+/).filter(Boolean);
const authMethod = process.env.OAUTH_AUTH_METHOD || 'client_secret_basic';
const resourceScopes = (process.env.OAUTH_SCOPES || 'orders:write orders:read').split(/\s+/).filter(Boolean).join(' ');
const port = Number(process.env.OAUTH_PORT || 0);

// The port is known only once listening, and the issuer must contain it: listen first, then
// build the provider and start routing requests to it.
let handle = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => handle(req, res));
await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

// Fresh keys per run: without them oidc-provider would use its development keys (and say so).
const signingKey = {
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: 'test',
  use: 'sig',
  alg: 'RS256',
};

const provider = new Provider(issuer, {
  // A web client may register plain http redirect URIs for the code flow (only implicit flow
  // requires https), so http://127.0.0.1:<port>/api/marketplace/oauth/callback is accepted as is.
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: authMethod,
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  scopes: ['openid', 'offline_access'],
  pkce: { required: () => true }, // S256 is the only method oidc-provider 9 accepts
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  // The marketplace stores a refresh token for every connection, offline_access or not.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  routes: { authorization: AUTHORIZATION_PATH },
  interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
  features: {
    devInteractions: { enabled: false },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => RESOURCE,
      // With openid also requested the token would otherwise be for the userinfo endpoint only.
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, indicator) => {
        if (indicator !== RESOURCE) throw new errors.InvalidTarget();
        return { scope: resourceScopes, accessTokenFormat: 'opaque' };
      },
    },
    userinfo: { enabled: false },
    rpInitiatedLogout: { enabled: false },
    pushedAuthorizationRequests: { enabled: false },
    dPoP: { enabled: false },
  },
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 60,
    IdToken: 3600,
    RefreshToken: 86400,
    Interaction: 600,
    Session: 3600,
    Grant: 86400,
  },
  // Errors shown to the browser as JSON, so a test's failure message says what went wrong.
  renderError: async (ctx, out) => {
    ctx.type = 'json';
    ctx.body = out;
  },
});

async function interact(req, res) {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  let result;
  if (params.login_hint === 'deny') {
    result = { error: 'access_denied', error_description: 'The restaurant declined' };
  } else if (prompt.name === 'login') {
    result = { login: { accountId: ACCOUNT_ID } };
  } else if (prompt.name === 'consent') {
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    result = { consent: { grantId: await grant.save() } };
  } else {
    result = { error: 'access_denied', error_description: `unexpected prompt ${prompt.name}` };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}

// Every code and token issued is printed as a JSON line {"issued":{"kind","value"}} (opaque tokens
// have no recognisable shape): startOAuthServer records them for the secrets audit of the run.
for (const [event, kind] of [
  ['authorization_code.saved', 'OAuth authorization code'],
  ['access_token.saved', 'OAuth access token'],
  ['refresh_token.saved', 'OAuth refresh token'],
]) {
  provider.on(event, (token) => process.stdout.write(`${JSON.stringify({ issued: { kind, value: token.jti } })}\n`));
}

const callback = provider.callback();
handle = (req, res) => {
  // RFC 6749 §3.3 lets a server apply a default to a request without scope; oidc-provider would
  // deny it (nothing granted), so the default, every API scope, is filled in here.
  const url = new URL(req.url, issuer);
  if (url.pathname === AUTHORIZATION_PATH && !url.searchParams.has('scope')) {
    url.searchParams.set('scope', resourceScopes);
    req.url = `${url.pathname}${url.search}`;
  }
  if (!url.pathname.startsWith('/interaction/')) return callback(req, res);
  interact(req, res).catch((error) => {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'interaction_failed', error_description: String(error?.message ?? error) }));
  });
};

const discovery = await fetch(`${issuer}/.well-known/openid-configuration`).then((r) => r.json());
process.stdout.write(
  `${JSON.stringify({ issuer, authorizationEndpoint: discovery.authorization_endpoint, tokenEndpoint: discovery.token_endpoint })}\n`,
);

process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
