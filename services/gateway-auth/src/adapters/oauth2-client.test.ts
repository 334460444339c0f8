import {
  authorizationUrl,
  basicAuthorization,
  exchangeCode,
  newPkcePair,
  newState,
  pkceChallenge,
  type OAuth2ClientSettings,
  type OAuthHttp,
} from './oauth2-client';

const settings: OAuth2ClientSettings = {
  authorizationEndpoint: 'https://partner.example/oauth/authorize?tenant=eu&scope=ignored',
  tokenEndpoint: 'https://partner.example/oauth/token',
  clientId: 'marketplace client',
  clientSecret: 'not used here',
  scopes: ['orders:write', 'orders:read'],
  tokenEndpointAuthMethod: 'client_secret_basic',
};

describe('PKCE and state', () => {
  it('derives the S256 challenge of the RFC 7636 appendix B example', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes fresh verifiers of 43 unreserved characters whose challenge matches', () => {
    const a = newPkcePair();
    const b = newPkcePair();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).toBe(pkceChallenge(a.verifier));
    expect(a.verifier).not.toBe(b.verifier);
  });

  it('makes states of 32 random bytes in base64url', () => {
    const state = newState();
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    expect(newState()).not.toBe(state);
  });
});

describe('authorizationUrl', () => {
  const request = {
    state: 'st-1',
    codeChallenge: 'ch-1',
    redirectUri: 'https://market.example/api/marketplace/oauth/callback',
  };

  it('carries every parameter of a PKCE code request once and keeps the endpoint query', () => {
    const url = new URL(authorizationUrl(settings, request));
    expect(url.origin + url.pathname).toBe('https://partner.example/oauth/authorize');
    const params = url.searchParams;
    expect(params.get('tenant')).toBe('eu');
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe('marketplace client');
    expect(params.get('redirect_uri')).toBe(request.redirectUri);
    expect(params.get('state')).toBe('st-1');
    expect(params.get('code_challenge')).toBe('ch-1');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.getAll('scope')).toEqual(['orders:write orders:read']);
    expect(params.has('client_secret')).toBe(false);
  });

  it('sends no scope parameter when the settings have none', () => {
    const url = new URL(
      authorizationUrl(
        { ...settings, authorizationEndpoint: 'https://partner.example/authorize', scopes: [] },
        request,
      ),
    );
    expect(url.searchParams.has('scope')).toBe(false);
  });

  it('refuses an endpoint that is not an absolute http(s) URL', () => {
    expect(() => authorizationUrl({ ...settings, authorizationEndpoint: '/authorize' }, request)).toThrow(
      expect.objectContaining({ code: 'oauth.endpoint_invalid' }),
    );
    expect(() => authorizationUrl({ ...settings, authorizationEndpoint: 'javascript:alert(1)' }, request)).toThrow(
      expect.objectContaining({ kind: 'validation' }),
    );
  });
});

describe('basicAuthorization', () => {
  it('form-encodes id and secret before base64 (RFC 6749 section 2.3.1)', () => {
    const header = basicAuthorization('an:identifier', 'some secure & non-standard secret');
    expect(header.startsWith('Basic ')).toBe(true);
    expect(Buffer.from(header.slice(6), 'base64').toString('utf8')).toBe(
      'an%3Aidentifier:some+secure+%26+non-standard+secret',
    );
  });

  it('leaves plain values as they are', () => {
    expect(basicAuthorization('client', 'secret')).toBe(`Basic ${Buffer.from('client:secret').toString('base64')}`);
  });
});

describe('exchangeCode through the safe HTTP client', () => {
  type Result = Awaited<ReturnType<OAuthHttp['request']>>;
  const request = { code: 'the-code', codeVerifier: 'the-verifier', redirectUri: 'https://market.example/cb' };
  const response = (status: number, body: string, truncated = false): Result => ({
    kind: 'response',
    status,
    latencyMs: 1,
    headers: {},
    body: Buffer.from(body),
    truncated,
  });
  const fakeHttp = (result: Result) => {
    const http = { request: jest.fn<ReturnType<OAuthHttp['request']>, Parameters<OAuthHttp['request']>>() };
    http.request.mockResolvedValue(result);
    return http;
  };

  it('POSTs the form with Basic authentication to the token endpoint and reads the tokens', async () => {
    const http = fakeHttp(
      response(200, JSON.stringify({ access_token: 'at', refresh_token: 'rt', expires_in: '60', scope: 'a b' })),
    );
    const now = new Date('2030-01-01T00:00:00Z');
    const tokens = await exchangeCode(settings, { ...request, http, timeoutMs: 1234, now: () => now });

    expect(tokens).toEqual({
      accessToken: 'at',
      refreshToken: 'rt',
      tokenType: 'Bearer',
      expiresAt: new Date('2030-01-01T00:01:00Z'),
      scope: 'a b',
    });
    expect(http.request).toHaveBeenCalledTimes(1);
    const [url, options] = http.request.mock.calls[0]!;
    expect(url).toBe('https://partner.example/oauth/token');
    expect(options).toMatchObject({
      method: 'POST',
      timeoutMs: 1234,
      maxResponseBytes: 64 * 1024,
      headers: {
        accept: 'application/json',
        authorization: basicAuthorization(settings.clientId, settings.clientSecret),
      },
      body: { contentType: 'application/x-www-form-urlencoded' },
    });
    const form = new URLSearchParams(String(options!.body!.bytes));
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: 'https://market.example/cb',
      code_verifier: 'the-verifier',
      client_id: 'marketplace client',
    });
  });

  it('puts the secret into the form with client_secret_post', async () => {
    const http = fakeHttp(response(200, '{"access_token":"at"}'));
    await exchangeCode({ ...settings, tokenEndpointAuthMethod: 'client_secret_post' }, { ...request, http });

    const options = http.request.mock.calls[0]![1]!;
    expect(options.headers).not.toHaveProperty('authorization');
    expect(new URLSearchParams(String(options.body!.bytes)).get('client_secret')).toBe('not used here');
  });

  const network = (errorClass: string): Result =>
    ({ kind: 'network', errorClass, message: 'm', latencyMs: 1 }) as Result;
  it.each([
    ['a timeout', 'gateway_timeout', 'oauth.token_exchange_timeout', network('timeout')],
    ['a refused address', 'bad_gateway', 'oauth.token_exchange_failed', network('refused_address')],
    ['a reset', 'bad_gateway', 'oauth.token_exchange_failed', network('reset')],
    ['a redirect (not followed)', 'bad_gateway', 'oauth.token_exchange_failed', response(307, '')],
    ['a body over the cap', 'bad_gateway', 'oauth.token_exchange_failed', response(200, '{"access_token":"at"', true)],
    ['no access token', 'bad_gateway', 'oauth.token_exchange_failed', response(200, '{"token_type":"Bearer"}')],
  ] as Array<[string, string, string, Result]>)('%s is %s (%s)', async (_name, kind, code, result) => {
    const error: unknown = await exchangeCode(settings, { ...request, http: fakeHttp(result) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind, code });
    expect(JSON.stringify(error)).not.toContain('the-code');
  });

  it('names only a registered OAuth error code from an error answer', async () => {
    for (const [error, named] of [
      ['invalid_grant', 'invalid_grant'],
      ['echo the-verifier', undefined],
    ]) {
      const http = fakeHttp(response(400, JSON.stringify({ error })));
      await expect(exchangeCode(settings, { ...request, http })).rejects.toMatchObject({
        code: 'oauth.token_exchange_failed',
        details: { oauthError: named },
      });
    }
  });
});
