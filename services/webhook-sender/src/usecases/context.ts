import type { Logger } from '@marketplace/logging';
import type { OutboxRelay } from '@marketplace/outbox';
import type { RedisLock } from '@marketplace/redis';
import type { SafeHttpClient } from '@marketplace/http';
import type { WebhookStore } from '../adapters/store';
import type { DeliveryKinds } from './delivery-kinds';

/** What attempts report to Prometheus. */
export interface AttemptMetrics {
  attempted(type: string, verdict: string, errorClass: string | null, seconds: number): void;
  ended(status: string): void;
}

/** What the use cases work with. */
export interface WebhookContext {
  /** The repositories of the sender's collections. */
  store: WebhookStore;
  outbox: OutboxRelay;
  http: SafeHttpClient;
  kinds: DeliveryKinds;
  /** Opens an installation's sealed signing secret (WEBHOOK_SECRET_TRANSPORT_KEY). */
  openSecret(installationId: string, sealed: string): string;
  /** Serializes the changes of one delivery (recording an attempt, a redelivery). */
  locks: RedisLock;
  metrics: AttemptMetrics;
  logger: Logger;
  now(): Date;
}
