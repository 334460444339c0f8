import type { OutboxRelay } from '@marketplace/outbox';
import type { Logger } from '@marketplace/logging';
import type { ApiKeyCache } from '../adapters/api-key-cache';
import type { RedisLock } from '@marketplace/redis';
import type { SecretBox } from '@marketplace/identity';
import type { GatewayRepositories } from '../adapters/store/repositories';

/** How an idempotent request went: run (its answer stored, or not: an error), replayed, refused. */
export type IdempotencyOutcome = 'stored' | 'not_stored' | 'replayed' | 'conflict' | 'in_progress';

/** What the Partner API edge reports to Prometheus: never a key, an address or an installation. */
export interface GatewayMetrics {
  /** A request refused by a rate limit: per client IP or per installation. */
  rateLimited(scope: 'ip' | 'installation'): void;
  idempotency(outcome: IdempotencyOutcome): void;
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
  metrics: GatewayMetrics;
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
