import type { OutboxFields } from '@marketplace/outbox';
import type { TenantOwner } from '@marketplace/store';
import type { CatalogCopyDoc } from '../adapters/catalog-copy-repository';
import type { Order } from '../domain/order';
import type { OrderingStore } from '../adapters/store';

/**
 * The ports the use cases work through that are not a repository of their own: adapters/
 * implements each, service.ts wires them into the context, and a unit test fakes them with plain
 * objects.
 */

/**
 * Ordering's copy of the catalog as the use cases need it; adapters/catalog-copy-repository.ts
 * keeps it in MongoDB (one document per resource, and per tenant the highest sequence applied).
 */
export interface CatalogCopyStore {
  /** Replaces the held resource if it holds an earlier sequence; false when it holds this one or a later one, or none. */
  replaceIfOlder(owner: TenantOwner, doc: CatalogCopyDoc): Promise<boolean>;
  /** Stores a resource not held yet; false when it is held already. */
  insertIfAbsent(owner: TenantOwner, doc: CatalogCopyDoc): Promise<boolean>;
  /** Records that the tenant's copy as a whole has reached `sequence` (never lowers it). */
  raiseSequence(owner: TenantOwner, sequence: number): Promise<void>;
  /** The highest sequence applied to the tenant's copy (0 before the first). */
  findSequence(owner: TenantOwner): Promise<number>;
  /** The tenant's documents by copy id; ids not held are absent. */
  findByIds(owner: TenantOwner, ids: readonly string[]): Promise<Map<string, CatalogCopyDoc>>;
}

/** What loads copied resources: a cache in front of the database (or the database itself). */
export interface CopyReader {
  /** The tenant's documents by copy id (null for those not held). */
  load(owner: TenantOwner, ids: string[]): Promise<Map<string, CatalogCopyDoc | null>>;
  /** A reader for the loads of one request, which may share what they look up (a cache's sequence). */
  session(): CopyReader;
}

/** Gives each new order the tenant's next free order number (adapters/order-numbers.ts). */
export interface OrderNumbering {
  claim(owner: TenantOwner, orderId: string): Promise<string>;
}

/**
 * Publishes the events an order's write staged (its outbox) right away, instead of waiting for the
 * relay's sweep. The collection the events are staged in is the adapter's to know.
 */
export interface OrderOutbox {
  flush(orderId: string): Promise<void>;
  /**
   * `flush` for an order this process has just inserted, as `insertWithEvents` wrote it: published
   * without reading it back (only for a new order; a change goes through `flush`).
   */
  flushInserted(inserted: Order & OutboxFields): Promise<void>;
}

/** What a use case sees of a repository: its public methods, so a plain object can stand in for it. */
type PublicOf<T> = { [P in keyof T]: T[P] };

/** Ordering's repositories as the use cases reach them (adapters/store.ts builds the real ones). */
export type OrderingRepositories = { [K in keyof OrderingStore]: PublicOf<OrderingStore[K]> };
