import type { TenantIdentity, PartnerIdentity } from '@marketplace/identity';
import type { Logger } from '@marketplace/logging';
import type { OutboxRelay } from '@marketplace/outbox';
import type { DeliveryStore } from '../adapters/store';
import type { AssignmentTransition } from '../domain/transitions';
import type { RecentDeliveries } from './recent-deliveries';

/** What assignments report to Prometheus: status transitions, never a tenant, an order or an installation. */
export interface AssignmentMetrics {
  transitioned(transition: AssignmentTransition): void;
}

/** What the use cases work with. */
export interface DeliveryContext {
  store: DeliveryStore;
  outbox: OutboxRelay;
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

/** The owner a request acts for: the tenant of the signed identity. */
export const tenantOf = (identity: TenantIdentity | PartnerIdentity) => ({ tenantId: identity.tenantId });
