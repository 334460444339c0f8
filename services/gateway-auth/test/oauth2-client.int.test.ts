import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@marketplace/errors';
import {
  authorizationUrl,
  exchangeCode as exchangeCodeWith,
  newPkcePair,
  newState,
  oauthHttpClient,
  type OAuth2ClientSettings,
} from '../src/adapters/oauth2-client';
import { followAuthorization, startOAuthServer, type TestOAuthServer } from './support/oauth-server';

// The OAuth2 client adapter against a real authorization server (oidc-provider) playing the
// partner, and against a small server that misbehaves in the ways a partner's can.
const redirectUri = 'http://127.0.0.1:4101/api/marketplace/oauth/callback';
// Characters that RFC 6749 §2.3.1 form-encoding changes, so a wrong Basic header would fail.
const clientId = 'marketplace:test client';
const clientSecret = 's3cret with spaces & symbols:+/=%';

// The exchange goes through the SSRF-safe client; loopback http is allowed, as in local and test setups.
const http = oauthHttpClient({ timeoutMs: 10_000, allowLoopbackHttp: true });
const exchangeCode = (
  settings: OAuth2ClientSettings,
  request: Omit<Parameters<typeof exchangeCodeWith>[1], 'http'>,
): ReturnType<typeof exchangeCodeWith> => exchangeCodeWith(settings, { ...request, http });

let basicServer: TestOAuthServer;
let postServer: TestOAuthServer;
let misbehaving: Server;
let misbehavingUrl: string;

beforeAll(async () => {
  misbehaving = createServer((req, res) => {
    req.resume();
    if (req.url === '/hang') return; // never answers
    if (req.url === '/500')
      return void res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'server_error', error_description: `echo ${clientSecret}` }));
    if (req.url === '/no-token')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"token_type":"Bearer"}');
    if (req.url === '/huge')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: 'x'.repeat(70_000), token_type: 'Bearer' }));
    if (req.url === '/redirect') return void res.writeHead(307, { location: postServer.tokenEndpoint }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => misbehaving.listen(0, '127.0.0.1', resolve));
  misbehavingUrl = `http://127.0.0.1:${(misbehaving.address() as AddressInfo).port}`;
  [basicServer, postServer] = await Promise.all([
    startOAuthServer({ clientId, clientSecret, redirectUri }),
    startOAuthServer({ clientId, clientSecret, redirectUri, authMethod: 'client_secret_post' }),
  ]);
});

afterAll(async () => {
  http.close();
  await Promise.all([basicServer?.stop(), postServer?.stop()]);
  misbehaving?.closeAllConnections();
  await new Promise((resolve) => misbehaving?.close(resolve));
});

function settingsFor(server: TestOAuthServer, overrides: Partial<OAuth2ClientSettings> = {}): OAuth2ClientSettings {
  return {
    authorizationEndpoint: server.authorizationEndpoint,
    tokenEndpoint: server.tokenEndpoint,
    clientId,
    clientSecret,
    scopes: ['openid', 'orders:write'],
    tokenEndpointAuthMethod: server === postServer ? 'client_secret_post' : 'client_secret_basic',
    ...overrides,
  };
}

/** Runs the browser part of the flow and returns what the callback would receive. */
async function authorize(settings: OAuth2ClientSettings, deny = false) {
  const state = newState();
  const pkce = newPkcePair();
  const callback = new URL(
    await followAuthorization(authorizationUrl(settings, { state, codeChallenge: pkce.challenge, redirectUri }), {
      deny,
      timeoutMs: 10_000,
    }),
  );
  return { state, verifier: pkce.verifier, callback, code: callback.searchParams.get('code') ?? '' };
}

async function exchangeFailure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Message and details are shown and logged: none of the flow's secrets may appear in them. */
function expectNoSecrets(error: AppError, ...secrets: string[]) {
  const shown = JSON.stringify({ message: error.message, details: error.details });
  for (const secret of [clientSecret, ...secrets]) expect(shown).not.toContain(secret);
}

describe.each(['client_secret_basic', 'client_secret_post'] as const)(
  'the authorization code flow with %s',
  (method) => {
    it('ends in an access token and a refresh token', async () => {
      const settings = settingsFor(method === 'client_secret_post' ? postServer : basicServer);
      const { state, verifier, callback, code } = await authorize(settings);
      expect(callback.origin + callback.pathname).toBe(redirectUri);
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('error')).toBeNull();
      expect(code).not.toBe('');

      const before = Date.now();
      const tokens = await exchangeCode(settings, { code, codeVerifier: verifier, redirectUri, timeoutMs: 5_000 });
      expect(tokens.accessToken).toEqual(expect.any(String));
      expect(tokens.accessToken).not.toBe('');
      expect(tokens.refreshToken).toEqual(expect.any(String));
      expect(tokens.tokenType.toLowerCase()).toBe('bearer');
      expect(tokens.expiresAt!.getTime()).toBeGreaterThan(before);
      expect(tokens.scope?.split(' ')).toEqual(expect.arrayContaining(['orders:write']));
    });
  },
);

it('without scopes the request has no scope parameter and the partner applies its default', async () => {
  const settings = settingsFor(basicServer, { scopes: [] });
  const { code, verifier, callback } = await authorize(settings);
  expect(callback.searchParams.get('error')).toBeNull();
  const now = new Date('2030-01-01T00:00:00Z');
  const tokens = await exchangeCode(settings, { code, codeVerifier: verifier, redirectUri, now: () => now });
  expect(tokens.scope?.split(' ').sort()).toEqual(['orders:read', 'orders:write']);
  // The test server's access tokens live one hour.
  expect(tokens.expiresAt).toEqual(new Date('2030-01-01T01:00:00Z'));
});

describe('failures', () => {
  it('a denial comes back as access_denied with the same state and no code', async () => {
    const { state, callback } = await authorize(settingsFor(basicServer), true);
    expect(callback.origin + callback.pathname).toBe(redirectUri);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.has('code')).toBe(false);
  });

  it('a wrong client secret is a bad gateway naming invalid_client, without secrets', async () => {
    const { code, verifier } = await authorize(settingsFor(basicServer));
    const wrongSecret = 'wrong-secret-value';
    const error = await exchangeFailure(
      exchangeCode(settingsFor(basicServer, { clientSecret: wrongSecret }), {
        code,
        codeVerifier: verifier,
        redirectUri,
      }),
    );
    expect(error).toMatchObject({
      kind: 'bad_gateway',
      code: 'oauth.token_exchange_failed',
      details: { oauthError: 'invalid_client' },
    });
    expectNoSecrets(error, wrongSecret, code, verifier);
  });

  it('a code is good for one exchange only', async () => {
    const settings = settingsFor(basicServer);
    const { code, verifier } = await authorize(settings);
    await exchangeCode(settings, { code, codeVerifier: verifier, redirectUri });
    const error = await exchangeFailure(exchangeCode(settings, { code, codeVerifier: verifier, redirectUri }));
    expect(error).toMatchObject({
      kind: 'bad_gateway',
      code: 'oauth.token_exchange_failed',
      details: { oauthError: 'invalid_grant' },
    });
    expectNoSecrets(error, code, verifier);
  });

  it('a wrong code verifier is refused (PKCE is checked)', async () => {
    const settings = settingsFor(basicServer);
    const { code } = await authorize(settings);
    const error = await exchangeFailure(
      exchangeCode(settings, { code, codeVerifier: newPkcePair().verifier, redirectUri }),
    );
    expect(error).toMatchObject({ code: 'oauth.token_exchange_failed', details: { oauthError: 'invalid_grant' } });
  });

  it('a redirect from the token endpoint is not followed', async () => {
    // With credentials in the body (a cross-origin redirect would drop a Basic header anyway),
    // following the 307 to the real token endpoint would succeed.
    const { code, verifier } = await authorize(settingsFor(postServer));
    const error = await exchangeFailure(
      exchangeCode(settingsFor(postServer, { tokenEndpoint: `${misbehavingUrl}/redirect` }), {
        code,
        codeVerifier: verifier,
        redirectUri,
      }),
    );
    expect(error).toMatchObject({ kind: 'bad_gateway', code: 'oauth.token_exchange_failed' });
  });

  it.each([
    ['HTTP 500', '/500', 'server_error'],
    ['a 200 without an access token', '/no-token', undefined],
    ['a body over 64 KiB', '/huge', undefined],
  ])('%s is a bad gateway', async (_name, path, oauthError) => {
    const settings = settingsFor(basicServer, { tokenEndpoint: `${misbehavingUrl}${path}` });
    const error = await exchangeFailure(
      exchangeCode(settings, { code: 'a-code', codeVerifier: 'a-verifier', redirectUri }),
    );
    expect(error).toMatchObject({ kind: 'bad_gateway', code: 'oauth.token_exchange_failed', details: { oauthError } });
    expectNoSecrets(error, 'a-code', 'a-verifier');
  });

  it('an unreachable token endpoint is a bad gateway', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const settings = settingsFor(basicServer, { tokenEndpoint: `http://127.0.0.1:${port}/token` });
    const error = await exchangeFailure(
      exchangeCode(settings, { code: 'a-code', codeVerifier: 'a-verifier', redirectUri, timeoutMs: 5_000 }),
    );
    expect(error).toMatchObject({ kind: 'bad_gateway', code: 'oauth.token_exchange_failed' });
  });

  it('a loopback token endpoint is refused when loopback http is not allowed (production)', async () => {
    const production = oauthHttpClient({ timeoutMs: 5_000, allowLoopbackHttp: false });
    try {
      const { code, verifier } = await authorize(settingsFor(basicServer));
      const error = await exchangeFailure(
        exchangeCodeWith(settingsFor(basicServer), { http: production, code, codeVerifier: verifier, redirectUri }),
      );
      expect(error).toMatchObject({ kind: 'bad_gateway', code: 'oauth.token_exchange_failed' });
      expect(error.message).toMatch(/not at an address/);
      expectNoSecrets(error, code, verifier);
    } finally {
      production.close();
    }
  });

  it('a token endpoint that never answers times out as a gateway timeout', async () => {
    const settings = settingsFor(basicServer, { tokenEndpoint: `${misbehavingUrl}/hang` });
    const started = Date.now();
    const error = await exchangeFailure(
      exchangeCode(settings, { code: 'a-code', codeVerifier: 'a-verifier', redirectUri, timeoutMs: 300 }),
    );
    expect(error).toMatchObject({ kind: 'gateway_timeout', code: 'oauth.token_exchange_timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
