import type { ProviderStatusName } from '@marketplace/contracts';
import type { SafeHttpClient } from '@marketplace/http';
import type { Logger } from '@marketplace/logging';
import type { OutboxRelay } from '@marketplace/outbox';
import type { ProviderStore } from '../adapters/store';
import type { WebhookTestMemory } from '../adapters/webhook-test-memory';
import type { TransportSecrets } from './account-secrets';
import type { KeyCache } from './key-cache';
import type { RateLimits } from './rate-limits';

/** Seals and opens secrets at rest, bound to what they belong to (SecretBox of @marketplace/identity). */
export interface SecretSealer {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** What deliveries report to Prometheus: counts by outcome and status, never an account or a delivery. */
export interface ProviderMetrics {
  /** A new delivery request decided: accepted, or refused by a business rule (rejected). */
  deliveryCreated(outcome: 'accepted' | 'rejected'): void;
  /** A delivery moved to `status` (however it came: platform, courier, dispatcher, operator). */
  deliveryStatusChanged(status: ProviderStatusName): void;
}

/** What the use cases work with. */
export interface ProviderContext {
  store: ProviderStore;
  box: SecretSealer;
  keyCache: KeyCache;
  /** The rate limits: per platform account, per client IP of each surface, per administrator, driver and tracking link (counted in Redis). */
  rateLimits: RateLimits;
  /** HMAC key of the API keys' stored hashes (PROVIDER_KEY_HASH_SECRET). */
  keyHashSecret: Buffer;
  /** Local and test setups: plain-HTTP webhook URLs on loopback (ALLOW_LOOPBACK_HTTP_URLS). */
  allowLoopbackHttpUrls: boolean;
  /** Seals what the webhook sender needs (signing secrets, callback URLs) on `provider-events` (WEBHOOK_SECRET_TRANSPORT_KEY). */
  transportKey: Buffer;
  transportSecrets: TransportSecrets;
  /** Publishes the events staged in a write at once (the relay's sweep publishes what a crash left). */
  outbox: OutboxRelay;
  /** The webhook tests of the dedupe window (a platform's retry answers the first test's outcome). */
  webhookTests: WebhookTestMemory;
  /** Outbound calls to platform URLs (the webhook test): public addresses only, no redirects. */
  http: SafeHttpClient;
  /** The addresses a host name resolves to (callback URLs are checked when they are given). */
  resolveHost(hostname: string): Promise<string[]>;
  /** Where the public tracking pages are reached (PUBLIC_BASE_URL, or this process's address). */
  publicBaseUrl: string;
  metrics: ProviderMetrics;
  logger: Logger;
  now(): Date;
  newId(): string;
}

/** Where an account's sealed webhook secret is bound (associated data of the seal). */
export const webhookSecretContext = (accountId: string) => `platform-account:${accountId}:webhook-secret`;
