import type { Logger } from '@marketplace/logging';
import type { DeliveryStore } from '../adapters/store';
import type { AssignmentMetrics, DeliveryEvents, RecentDeliveries } from './ports';

/** What the use cases work with; service.ts wires the adapters in. */
export interface DeliveryContext {
  store: DeliveryStore;
  /** Publishes a delivery's events once its write landed. */
  events: DeliveryEvents;
  /** The deliveries this process wrote last: spares a read, never decides alone. */
  recent: RecentDeliveries;
  /**
   * Resolves once this service's copies (orders, installations, branches) hold everything
   * published before `time`; rejects with a 503 naming what is behind past the configured wait.
   */
  copiesCaughtUp(time: Date): Promise<void>;
  /** How long a partner action's answer is kept for a repeat of its Idempotency-Key. */
  partnerRequestRetentionMs: number;
  metrics: AssignmentMetrics;
  logger: Logger;
  now(): Date;
  newId(): string;
}
