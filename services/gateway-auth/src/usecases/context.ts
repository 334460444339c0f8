import type { OutboxRelay } from '@marketplace/outbox';
import type { Logger } from '@marketplace/logging';
import type { ApiKeyCache } from '../adapters/api-key-cache';
import type { RedisLock } from '@marketplace/redis';
import type { SecretBox } from '@marketplace/identity';
import type { GatewayRepositories } from '../adapters/store/repositories';
import type { OAuthHttp } from '../adapters/oauth2-client';
import type { RevokedTokenIds } from './token-revocations';

/** How an idempotent request went: run (its answer stored, or not: an error), replayed, refused. */
export type IdempotencyOutcome = 'stored' | 'not_stored' | 'replayed' | 'conflict' | 'in_progress';

/**
 * The limit that refused a request: the Partner API's (and the public pages') per client IP and per
 * installation, the tenant API's per client IP and per tenant, the administrator API's per client
 * IP and per administrator.
 */
export type RateLimitScope = 'ip' | 'installation' | 'public_ip' | 'tenant_ip' | 'tenant' | 'admin_ip' | 'admin';
export const RATE_LIMIT_SCOPES: readonly RateLimitScope[] = [
  'ip',
  'installation',
  'public_ip',
  'tenant_ip',
  'tenant',
  'admin_ip',
  'admin',
];

/** What the gateway's edge reports to Prometheus: never a key, an address, a tenant or an installation. */
export interface GatewayMetrics {
  /** A request refused by a rate limit, by the limit's scope. */
  rateLimited(scope: RateLimitScope): void;
  idempotency(outcome: IdempotencyOutcome): void;
}

/** What the audit log reports to Prometheus. */
export interface AuditMetrics {
  /** An audit event that could not be written (the answer went out regardless). */
  writeFailed(): void;
}

/** What the use cases work with: the repositories, the secret box, caches and locks, the clock. */
export interface GatewayContext {
  store: GatewayRepositories;
  box: SecretBox;
  /** Seals signing secrets for the installation events (shared with webhook-sender). */
  webhookSecretTransportKey: Buffer;
  /** Publishes the events staged in installation documents (installation events). */
  outbox: OutboxRelay;
  keyCache: ApiKeyCache;
  locks: RedisLock;
  apiKeyHashSecret: Buffer;
  tokenSecret: Buffer;
  publicBaseUrl: string;
  allowLoopbackHttpUrls: boolean;
  oauthStateTtlSeconds: number;
  oauthTimeoutMs: number;
  /** Calls partners' token endpoints: the SSRF-safe client (see oauthHttpClient). */
  oauthHttp: OAuthHttp;
  metrics: GatewayMetrics;
  auditMetrics: AuditMetrics;
  /** The revoked tenant-token ids, checked by the tenant guard; a revocation here adds to it at once. */
  revokedTokens: RevokedTokenIds;
  /** How long audit events are kept (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  logger: Logger;
  now: () => Date;
}

/** Path of the OAuth callback, pre-registered with every partner's authorization server. */
export const OAUTH_CALLBACK_PATH = '/api/marketplace/oauth/callback';

export function oauthRedirectUri(context: GatewayContext): string {
  return new URL(OAUTH_CALLBACK_PATH, context.publicBaseUrl).toString();
}

/** What a contract version's OAuth client secret is sealed to (see SecretBox). */
export const clientSecretContext = (appId: string, version: number) => `contract:${appId}:${version}:client-secret`;
