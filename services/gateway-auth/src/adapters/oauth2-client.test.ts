import {
  authorizationUrl,
  basicAuthorization,
  newPkcePair,
  newState,
  pkceChallenge,
  type OAuth2ClientSettings,
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
