import type { Logger } from '@marketplace/logging';
import type { DeliveryKinds } from '../domain/delivery-kinds';
import type { AttemptMetrics, Locks, Unsealer, WebhookHttp, WebhookStore } from './ports';

/** What the use cases work with: their ports, wired by service.ts. */
export interface WebhookContext {
  /** The repositories of the sender's collections; those that stage events publish them. */
  store: WebhookStore;
  http: WebhookHttp;
  kinds: DeliveryKinds;
  unseal: Unsealer;
  /** Serializes the changes of one delivery (recording an attempt, a redelivery). */
  locks: Locks;
  /** The longest one attempt can take, connection, response and recording included (a lock's lease). */
  attemptLeaseMs: number;
  metrics: AttemptMetrics;
  logger: Logger;
  now(): Date;
}
