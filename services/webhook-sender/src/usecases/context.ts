import type { Logger } from '@marketplace/logging';
import type { OutboxRelay } from '@marketplace/outbox';
import type { RedisLock } from '@marketplace/redis';
import type { SafeHttpClient } from '@marketplace/http';
import type { WebhookStore } from '../adapters/store';
import type { DeliveryKindName, DeliveryKinds } from './delivery-kinds';

/** What attempts report to Prometheus (never an id, a URL or a secret as a label). */
export interface AttemptMetrics {
  /** `attempt`: the attempt's number in its round (1 the first), reported as its retry tier. */
  attempted(
    kind: DeliveryKindName,
    type: string,
    attempt: number,
    verdict: string,
    errorClass: string | null,
    seconds: number,
  ): void;
  ended(kind: DeliveryKindName, status: string): void;
}

/**
 * Opens what arrives sealed under WEBHOOK_SECRET_TRANSPORT_KEY, each bound to its owner (a value
 * sealed for another owner does not open). Each throws when the value does not open.
 */
export interface Unsealer {
  /** An installation's signing secret (the gateway's installation events). */
  installationSecret(installationId: string, sealed: string): string;
  /** A platform account's signing secret (provider-delivery's `provider-events`). */
  accountSecret(accountId: string, sealed: string): string;
  /** A provider delivery's callback URL, whose path holds a confidential token (`provider-events`). */
  callbackUrl(providerDeliveryId: string, sealed: string): string;
}

/** What the use cases work with. */
export interface WebhookContext {
  /** The repositories of the sender's collections. */
  store: WebhookStore;
  outbox: OutboxRelay;
  http: SafeHttpClient;
  kinds: DeliveryKinds;
  unseal: Unsealer;
  /** Serializes the changes of one delivery (recording an attempt, a redelivery). */
  locks: RedisLock;
  /** The longest one attempt can take, connection, response and recording included (a lock's lease). */
  attemptLeaseMs: number;
  metrics: AttemptMetrics;
  logger: Logger;
  now(): Date;
}
