import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@marketplace/errors';

/**
 * The OAuth 2.0 client side of "connect" for apps whose contract version declares OAuth2: we send
 * the restaurant's browser to the partner's authorization endpoint and exchange the code it brings
 * back at the partner's token endpoint. Transport only: state, verifier and tokens are stored by
 * the caller. Nothing here logs, and no error message or detail carries a secret (client secret,
 * code, code verifier, tokens); the partner's response body is never echoed.
 */
export interface OAuth2ClientSettings {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  /** May be empty: then the request has no scope parameter and the partner applies its default. */
  scopes: string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
}

export interface OAuth2Tokens {
  accessToken: string;
  refreshToken: string | null;
  tokenType: string;
  expiresAt: Date | null;
  scope: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
// A token response is a few hundred bytes; the cap keeps a misbehaving partner from filling memory.
const MAX_RESPONSE_BYTES = 64 * 1024;
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

export async function exchangeCode(
  settings: OAuth2ClientSettings,
  request: { code: string; codeVerifier: string; redirectUri: string; timeoutMs?: number; now?: () => Date },
): Promise<OAuth2Tokens> {
  const url = endpoint(settings.tokenEndpoint, 'token endpoint');
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    code_verifier: request.codeVerifier,
    client_id: settings.clientId,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (settings.tokenEndpointAuthMethod === 'client_secret_post') body.set('client_secret', settings.clientSecret);
  else headers.authorization = basicAuthorization(settings.clientId, settings.clientSecret);

  const signal = AbortSignal.timeout(request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let status: number;
  let text: string | undefined;
  try {
    // A redirect from a token endpoint is never followed: it would resend the code elsewhere.
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
    status = response.status;
    text = await readLimited(response);
  } catch (error) {
    if (signal.aborted) {
      throw new AppError(
        'gateway_timeout',
        'oauth.token_exchange_timeout',
        "The partner's token endpoint did not answer in time.",
      );
    }
    // Transport errors (refused, reset, DNS) carry no request body or headers, so keep them as cause.
    throw failed('could not be reached or broke off', undefined, error);
  }

  const json = text === undefined ? undefined : parseJson(text);
  if (status !== 200) {
    const oauthError = typeof json?.error === 'string' && KNOWN_ERRORS.has(json.error) ? json.error : undefined;
    throw failed(`answered HTTP ${status}`, oauthError);
  }
  if (text === undefined) throw failed(`answered with more than ${MAX_RESPONSE_BYTES} bytes`);
  if (typeof json?.access_token !== 'string' || json.access_token === '')
    throw failed('answered without an access token');

  const now = (request.now ?? (() => new Date()))();
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

/** The body as text, or undefined when it is over the cap (the rest is not downloaded). */
async function readLimited(response: Response): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks).toString('utf8');
}
