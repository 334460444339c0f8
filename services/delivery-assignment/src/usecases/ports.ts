import type { Delivery } from '../domain/delivery';
import type { AssignmentTransition } from '../domain/transitions';

/** What assignments report to Prometheus: status transitions, never a tenant, an order or an installation. */
export interface AssignmentMetrics {
  transitioned(transition: AssignmentTransition): void;
}

/** Publishes the events waiting in a delivery's document (the outbox) right after the write. */
export interface DeliveryEvents {
  publish(orderId: string): Promise<void>;
}

/**
 * The deliveries this process wrote last (adapters/recent-deliveries.ts): spares a read, never
 * decides alone (usecases/change-delivery.ts).
 */
export interface RecentDeliveries {
  get(tenantId: string, orderId: string): Delivery | undefined;
  remember(delivery: Delivery): void;
  forget(orderId: string): void;
}
