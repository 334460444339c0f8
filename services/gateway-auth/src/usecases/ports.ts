import type { IncomingMessage } from 'node:http';
import type { TenantProfile } from '@marketplace/identity';
import type { ApiKeysRepository } from '../adapters/store/api-keys-repository';
import type { AppsRepository } from '../adapters/store/apps-repository';
import type { AuditEventsRepository } from '../adapters/store/audit-events-repository';
import type { ContractVersionsRepository } from '../adapters/store/contract-versions-repository';
import type { IdempotencyRecordsRepository } from '../adapters/store/idempotency-records-repository';
import type { InstallationsRepository } from '../adapters/store/installations-repository';
import type { OAuthStatesRepository } from '../adapters/store/oauth-states-repository';
import type { TenantTokensRepository } from '../adapters/store/tenant-tokens-repository';
import type { TenantsRepository } from '../adapters/store/tenants-repository';

/**
 * The ports the use cases work through. Each is what an adapter offers (its public methods), so a
 * unit test hands a use case a plain object in its place; service.ts wires the adapters.
 */
export type Port<T> = { [K in keyof T]: T[K] };

/** Everything the gateway stores, one repository per collection: the only way use cases reach it. */
export interface GatewayStore {
  tenants: Port<TenantsRepository>;
  apps: Port<AppsRepository>;
  contractVersions: Port<ContractVersionsRepository>;
  installations: Port<InstallationsRepository>;
  apiKeys: Port<ApiKeysRepository>;
  oauthStates: Port<OAuthStatesRepository>;
  idempotencyRecords: Port<IdempotencyRecordsRepository>;
  tenantTokens: Port<TenantTokensRepository>;
  auditEvents: Port<AuditEventsRepository>;
}

/**
 * Publishes the installation events a change staged in its installation's document (the outbox
 * relay's fast path; its sweep catches whatever a failed publish left). The collection is the
 * adapter's business (adapters/installation-events.ts).
 */
export interface InstallationEvents {
  publish(installationId: string): Promise<void>;
}

/** The partner's OAuth client settings of a contract version, its client secret opened. */
export interface OAuth2ClientSettings {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  /** May be empty: then the request has no scope parameter and the partner applies its default. */
  scopes: string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
}

/** The tokens a partner's token endpoint granted. */
export interface OAuth2Tokens {
  accessToken: string;
  refreshToken: string | null;
  tokenType: string;
  expiresAt: Date | null;
  scope: string | null;
}

/**
 * The OAuth 2.0 client side of "connect" (adapters/oauth2-client.ts): the authorization URL the
 * restaurant's browser is sent to, and the code exchange at the partner's token endpoint (an
 * outbound call through the SSRF-safe client, bounded in time).
 */
export interface OAuthClient {
  newState(): string;
  newPkcePair(): { verifier: string; challenge: string };
  authorizationUrl(
    settings: OAuth2ClientSettings,
    request: { state: string; codeChallenge: string; redirectUri: string },
  ): string;
  exchangeCode(
    settings: OAuth2ClientSettings,
    request: { code: string; codeVerifier: string; redirectUri: string },
  ): Promise<OAuth2Tokens>;
}

/** What authentication needs about a key, without a database read on every request. */
export interface CachedApiKey {
  secretHash: string;
  tenantId: string;
  installationId: string;
  appId: string;
  scopes: string[];
  /** The tenant's currency and default language; both are fixed when the tenant is created. */
  tenant: TenantProfile;
  /**
   * When the key stops working (epoch ms; a previous key after a rotation with an overlap), checked
   * on every request; absent or null: until revoked. The entry never lives in Redis past it either.
   */
  expiresAt?: number | null;
}

/** The API keys as every gateway instance sees them (adapters/api-key-cache.ts: Redis). */
export interface KeyCache {
  /** The entry, `'revoked'`, or undefined when not cached. */
  get(keyId: string): Promise<CachedApiKey | 'revoked' | undefined>;
  fill(keyId: string, entry: CachedApiKey): Promise<void>;
  expire(entries: ReadonlyArray<{ keyId: string; entry: CachedApiKey }>): Promise<void>;
  revoke(keyIds: string[]): Promise<void>;
}

/** What the tenant guard asks: whether a token id (`jti`) was revoked. */
export interface TokenRevocations {
  isRevoked(tokenId: string): Promise<boolean>;
}

/** The revoked tenant-token ids this process holds: a revocation made here is added at once. */
export interface RevocationList {
  add(tokenId: string): void;
}

/** A request as it goes on to an owner service. */
export interface UpstreamRequest {
  method: string;
  /** Path and query, as the partner sent them. */
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A response whose body is passed on as it arrives (reads: a whole menu need not sit in memory). */
export interface StreamedUpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: IncomingMessage;
}

/**
 * What forwards a request to an internal service (adapters/upstream.ts: kept-alive connections, a
 * deadline, failures as AppErrors the partner can act on).
 */
export interface Upstream {
  forward(baseUrl: string, req: UpstreamRequest): Promise<UpstreamResponse>;
  forward(baseUrl: string, req: UpstreamRequest, options: { stream: true }): Promise<StreamedUpstreamResponse>;
}
