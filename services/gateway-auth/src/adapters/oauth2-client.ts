import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@marketplace/errors';
import { SafeHttpClient } from '@marketplace/http';
import type { OAuth2ClientSettings, OAuth2Tokens, OAuthClient } from '../usecases/ports';

/**
 * The OAuth 2.0 client side of "connect" for apps whose contract version declares OAuth2: we send
 * the restaurant's browser to the partner's authorization endpoint and exchange the code it brings
 * back at the partner's token endpoint. Transport only: state, verifier and tokens are stored by
 * the caller. Nothing here logs, and no error message or detail carries a secret (client secret,
 * code, code verifier, tokens); the partner's response body is never echoed.
 */
export type { OAuth2ClientSettings, OAuth2Tokens };

const DEFAULT_TIMEOUT_MS = 10_000;
// A token response is a few hundred bytes; the cap keeps a misbehaving partner from filling memory.
const MAX_RESPONSE_BYTES = 64 * 1024;

/** What the token exchange needs of an HTTP client (a `SafeHttpClient`; a fake in unit tests). */
export type OAuthHttp = Pick<SafeHttpClient, 'request'>;

/**
 * The client for calls to partners' token endpoints: the SSRF-safe one (every resolved address
 * checked, the connection pinned to the checked address, no redirects, bounded time and body).
 * `allowLoopbackHttp` only in local and test setups (the deployment's ALLOW_LOOPBACK_HTTP_URLS).
 */
export function oauthHttpClient(options: { timeoutMs: number; allowLoopbackHttp: boolean }): SafeHttpClient {
  return new SafeHttpClient({
    connectTimeoutMs: options.timeoutMs,
    responseTimeoutMs: options.timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    allowLoopbackHttp: options.allowLoopbackHttp,
  });
}
// Only registered error codes (RFC 6749 §5.2, RFC 8707) go into details: a free-form `error` from
// the partner could echo anything it was sent, and details are shown to the tenant.
const KNOWN_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'server_error',
  'temporarily_unavailable',
]);

/** RFC 7636 S256: 32 random bytes give a 43-character verifier, the minimum length allowed. */
export function newPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function newState(): string {
  return randomBytes(32).toString('base64url');
}

export function authorizationUrl(
  settings: OAuth2ClientSettings,
  request: { state: string; codeChallenge: string; redirectUri: string },
): string {
  // RFC 6749 §3.1: a query already in the endpoint is kept; our parameters appear once each.
  const url = endpoint(settings.authorizationEndpoint, 'authorization endpoint');
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', settings.clientId);
  params.set('redirect_uri', request.redirectUri);
  params.set('state', request.state);
  params.set('code_challenge', request.codeChallenge);
  params.set('code_challenge_method', 'S256');
  if (settings.scopes.length > 0) params.set('scope', settings.scopes.join(' '));
  else params.delete('scope');
  return url.toString();
}

/** RFC 6749 §2.3.1: id and secret are form-encoded before being joined and base64-encoded. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`, 'utf8').toString('base64')}`;
}

/** What the code's exchange sends: the form, and the client's authentication (header or form). */
interface TokenRequest {
  url: URL;
  headers: Record<string, string>;
  body: URLSearchParams;
}

export async function exchangeCode(
  settings: OAuth2ClientSettings,
  request: {
    http: OAuthHttp;
    code: string;
    codeVerifier: string;
    redirectUri: string;
    timeoutMs?: number;
    now?: () => Date;
  },
): Promise<OAuth2Tokens> {
  const token = tokenRequest(settings, request);
  // The safe client checks the endpoint's addresses, connects to the checked one only, never
  // follows a redirect (it would resend the code elsewhere) and reads at most the cap (+ whether
  // there was more). Its results carry no header or body, so a transport message holds no secret.
  const result = await request.http.request(token.url.toString(), {
    method: 'POST',
    headers: token.headers,
    body: { bytes: token.body.toString(), contentType: 'application/x-www-form-urlencoded' },
    timeoutMs: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
  });
  if (result.kind === 'network') throw transportFailure(result);
  const text = result.truncated ? undefined : result.body.toString('utf8');
  return tokensOf(result.status, text, request.now ?? (() => new Date()));
}

/** The authorization-code grant (RFC 6749 §4.1.3) with the PKCE verifier, the client authenticated its way. */
function tokenRequest(
  settings: OAuth2ClientSettings,
  request: { code: string; codeVerifier: string; redirectUri: string },
): TokenRequest {
  const url = endpoint(settings.tokenEndpoint, 'token endpoint');
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    code_verifier: request.codeVerifier,
    client_id: settings.clientId,
  });
  const headers: Record<string, string> = { accept: 'application/json' };
  if (settings.tokenEndpointAuthMethod === 'client_secret_post') body.set('client_secret', settings.clientSecret);
  else headers.authorization = basicAuthorization(settings.clientId, settings.clientSecret);
  return { url, headers, body };
}

/** A call that got no answer: a timeout (504), a refused address or a broken connection (502). */
function transportFailure(result: { message: string; errorClass: string }): AppError {
  const cause = Object.assign(new Error(result.message), { errorClass: result.errorClass });
  if (result.errorClass === 'timeout') {
    return new AppError(
      'gateway_timeout',
      'oauth.token_exchange_timeout',
      "The partner's token endpoint did not answer in time.",
      { cause },
    );
  }
  if (result.errorClass === 'refused_address')
    return failed('is not at an address the marketplace may call', undefined, cause);
  return failed('could not be reached or broke off', undefined, cause);
}

/** The token endpoint's answer (`text` undefined: over the cap) as tokens, or the failure to report. */
function tokensOf(status: number, text: string | undefined, clock: () => Date): OAuth2Tokens {
  const json = text === undefined ? undefined : parseJson(text);
  if (status !== 200) {
    const oauthError = typeof json?.error === 'string' && KNOWN_ERRORS.has(json.error) ? json.error : undefined;
    throw failed(`answered HTTP ${status}`, oauthError);
  }
  if (text === undefined) throw failed(`answered with more than ${MAX_RESPONSE_BYTES} bytes`);
  if (typeof json?.access_token !== 'string' || json.access_token === '')
    throw failed('answered without an access token');
  const now = clock();
  // expires_in is a number by RFC 6749; some servers send it as a numeric string.
  const expiresIn = typeof json.expires_in === 'string' ? Number(json.expires_in) : json.expires_in;
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === 'string' && json.refresh_token !== '' ? json.refresh_token : null,
    tokenType: typeof json.token_type === 'string' && json.token_type !== '' ? json.token_type : 'Bearer',
    expiresAt:
      typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
        ? new Date(now.getTime() + expiresIn * 1000)
        : null,
    scope: typeof json.scope === 'string' ? json.scope : null,
  };
}

/**
 * The OAuth client port of the use cases: these functions, the exchange going through `http`
 * (the SSRF-safe client) within `timeoutMs`, tokens' expiry reckoned from `now`.
 */
export function oauthClient(options: { http: OAuthHttp; timeoutMs: number; now: () => Date }): OAuthClient {
  return {
    newState,
    newPkcePair,
    authorizationUrl,
    exchangeCode: (settings, request) =>
      exchangeCode(settings, { ...request, http: options.http, timeoutMs: options.timeoutMs, now: options.now }),
  };
}

function failed(what: string, oauthError?: string, cause?: unknown): AppError {
  const message = `The partner's token endpoint ${what}${oauthError ? ` (${oauthError})` : ''}.`;
  return new AppError('bad_gateway', 'oauth.token_exchange_failed', message, { details: { oauthError }, cause });
}

function endpoint(value: string, name: string): URL {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new AppError('validation', 'oauth.endpoint_invalid', `The partner's ${name} is not an absolute http(s) URL.`);
  }
  url.hash = '';
  return url;
}

function formEncode(value: string): string {
  return new URLSearchParams([['v', value]]).toString().slice(2);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
