import type { Logger } from '@marketplace/logging';
import type { RedisLock } from '@marketplace/redis';
import type { SecretBox } from '@marketplace/identity';
import type { RateLimitScope } from '../domain/rate-limits';
import type { GatewayStore, InstallationEvents, KeyCache, OAuthClient, Port, RevocationList } from './ports';

/** How an idempotent request went: run (its answer stored, or not: an error), replayed, refused. */
export type IdempotencyOutcome = 'stored' | 'not_stored' | 'replayed' | 'conflict' | 'in_progress';

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

/**
 * What the use cases work with, wired by service.ts: the repositories, the secret box, caches and
 * locks, the OAuth client, the clock.
 */
export interface GatewayContext {
  store: GatewayStore;
  box: Port<SecretBox>;
  /** Seals signing secrets for the installation events (shared with webhook-sender). */
  webhookSecretTransportKey: Buffer;
  /** Publishes the installation events staged in installation documents. */
  installationEvents: InstallationEvents;
  keyCache: KeyCache;
  locks: Port<RedisLock>;
  apiKeyHashSecret: Buffer;
  tokenSecret: Buffer;
  publicBaseUrl: string;
  allowLoopbackHttpUrls: boolean;
  oauthStateTtlSeconds: number;
  /** Partners' authorization and token endpoints (the exchange goes through the SSRF-safe client). */
  oauth: OAuthClient;
  metrics: GatewayMetrics;
  auditMetrics: AuditMetrics;
  /** The revoked tenant-token ids, checked by the tenant guard; a revocation here adds to it at once. */
  revokedTokens: RevocationList;
  /** How long audit events are kept (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  logger: Logger;
  now: () => Date;
}
