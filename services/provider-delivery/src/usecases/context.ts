import type { Logger } from '@marketplace/logging';
import type { WebhookTestMemory } from '../adapters/webhook-test-memory';
import type {
  ApiKeyCache,
  OutboundHttp,
  ProviderMetrics,
  ProviderRepositories,
  PublishingCache,
  RequestLimits,
  SecretSealer,
  StagedEvents,
} from './ports';

/**
 * What the use cases work with: their ports (repositories, caches, outbound calls, clock, ids) and
 * this deployment's settings. service.ts wires the adapters in; a unit test gives fakes.
 */
export interface ProviderContext {
  store: ProviderRepositories;
  /** Publishes the events staged in a write at once (the relay's sweep publishes what a crash left). */
  events: StagedEvents;
  box: SecretSealer;
  keyCache: ApiKeyCache;
  /** The rate limits: per platform account, per client IP of each surface, per administrator, driver and tracking link (counted in Redis). */
  rateLimits: RequestLimits;
  /** HMAC key of the API keys' stored hashes (PROVIDER_KEY_HASH_SECRET). */
  keyHashSecret: Buffer;
  /** Local and test setups: plain-HTTP webhook URLs on loopback (ALLOW_LOOPBACK_HTTP_URLS). */
  allowLoopbackHttpUrls: boolean;
  /** Seals what the webhook sender needs (signing secrets, callback URLs) on `provider-events` (WEBHOOK_SECRET_TRANSPORT_KEY). */
  transportKey: Buffer;
  transportSecrets: PublishingCache;
  /** The webhook tests of the dedupe window (a platform's retry answers the first test's outcome). */
  webhookTests: WebhookTestMemory;
  /** Outbound calls to platform URLs (the webhook test): public addresses only, no redirects. */
  http: OutboundHttp;
  /** The addresses a host name resolves to (callback URLs are checked when they are given). */
  resolveHost(hostname: string): Promise<string[]>;
  /** Where the public tracking pages are reached (PUBLIC_BASE_URL, or this process's address). */
  publicBaseUrl: string;
  metrics: ProviderMetrics;
  logger: Logger;
  now(): Date;
  newId(): string;
}
