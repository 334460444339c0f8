import type { Logger } from '@marketplace/logging';
import type { OrderLock } from '../adapters/order-lock';
import type { Order } from '../domain/order';
import type { CopyReader, OrderingRepositories, OrderNumbering, OrderOutbox } from './ports';

export type { TenantScope } from '../domain/tenant-scope';

/** What the use cases work with: their ports, wired by service.ts. */
export interface OrderingContext {
  store: OrderingRepositories;
  /** Publishes an order's staged events right after its write. */
  orderOutbox: OrderOutbox;
  /** One change at a time per order (by order id). */
  orderLock: Pick<OrderLock, 'run'>;
  orderNumbers: OrderNumbering;
  /** The catalog copy as order pricing reads it (cached per tenant sequence). */
  catalogCopy: CopyReader;
  /** The catalog copy read straight from the database, uncached (the tenant API's checks). */
  uncachedCatalogCopy: CopyReader;
  /**
   * Seals a Delivery order's drop-off for its `orders.created` event (only delivery-assignment
   * opens it, to hand it to a delivery provider).
   */
  sealDropoff(order: Order): string | undefined;
  logger: Logger;
  now(): Date;
}
