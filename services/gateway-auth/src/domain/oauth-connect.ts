import { createHash } from 'node:crypto';

/** Path of the OAuth callback, pre-registered with every partner's authorization server. */
export const OAUTH_CALLBACK_PATH = '/api/marketplace/oauth/callback';

/** The callback's absolute URL, as sent to (and checked by) the partner's authorization server. */
export const oauthRedirectUri = (publicBaseUrl: string): string =>
  new URL(OAUTH_CALLBACK_PATH, publicBaseUrl).toString();

/** What a contract version's OAuth client secret is sealed to (see SecretBox). */
export const clientSecretContext = (appId: string, version: number) => `contract:${appId}:${version}:client-secret`;

/** The stored id of an OAuth state: its SHA-256, so the state itself (a bearer of the flow) is never stored. */
export const stateId = (state: string) => createHash('sha256').update(state).digest('base64url');

/** What a state's PKCE verifier is sealed to (see SecretBox). */
export const stateVerifierContext = (id: string) => `oauth-state:${id}`;
