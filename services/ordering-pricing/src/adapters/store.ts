import type { Collection, Db } from 'mongodb';
import type { OutboxFields } from '@marketplace/outbox';
import type { IndexPlan } from '@marketplace/store';
import type { CopiedEntity } from '../domain/catalog-copy';
import type { OrderDoc } from '../domain/order';
import type { Promotion } from '../domain/promotion';
import type { DeliveryZone } from '../domain/delivery-zone';

/**
 * Ordering's database. Almost every read is by `_id`, which FerretDB answers from its primary key
 * whatever the collection's size; claims (an external order id, an order number, a promotion
 * use) are documents whose `_id` is the claimed value, so a unique insert decides a race exactly.
 */

/**
 * One catalog resource as the catalog last published it (`_id`: tenant:entity:id); and per tenant
 * one `meta` document (`_id`: tenant:meta) holding the highest sequence applied.
 */
export interface CatalogCopyDoc {
  _id: string;
  tenantId: string;
  entity: CopiedEntity | 'meta';
  sequence: number;
  deleted: boolean;
  state: Record<string, unknown>;
}

/** An installation's external order id, claimed by the order that carries it (`_id`: installation:externalOrderId). */
export interface ExternalOrderClaimDoc {
  _id: string;
  orderId: string;
  idempotencyKey: string;
  createdAt: Date;
}

/** A tenant's order number, claimed by one order (`_id`: tenant:number). */
export interface OrderNumberClaimDoc {
  _id: string;
  orderId: string;
}

/** The highest order number a tenant is known to have used: a starting point, the claims decide. */
export interface OrderCounterDoc {
  _id: string;
  last: number;
}

/** One use of a limited promotion (`_id`: promotion:slot, slots 1 to the limit). */
export interface PromotionUseDoc {
  _id: string;
  orderId: string;
}

/** A tenant's promotion code, pointing to its promotion (`_id`: tenant:CODE). */
export interface PromotionCodeDoc {
  _id: string;
  promotionId: string;
}

export type PromotionDoc = Omit<Promotion, 'id'> & { _id: string; createdAt: Date; updatedAt: Date };
/**
 * The geometry is kept as JSON text: FerretDB 1.x stores no arrays nested directly in arrays,
 * which every GeoJSON polygon is.
 */
export type DeliveryZoneDoc = Omit<DeliveryZone, 'id' | 'geometry'> & { _id: string; geometryJson: string; createdAt: Date; updatedAt: Date };

/** A tenant's fee settings (`_id`: tenant id). */
export interface TenantSettingsDoc {
  _id: string;
  serviceFee: { fixedMinor: number; percent: number };
  updatedAt: Date;
}

export interface OrderingCollections {
  orders: Collection<OrderDoc & OutboxFields>;
  externalOrderIds: Collection<ExternalOrderClaimDoc>;
  orderNumbers: Collection<OrderNumberClaimDoc>;
  orderCounters: Collection<OrderCounterDoc>;
  catalogCopy: Collection<CatalogCopyDoc>;
  zones: Collection<DeliveryZoneDoc>;
  promotions: Collection<PromotionDoc>;
  promotionCodes: Collection<PromotionCodeDoc>;
  promotionUses: Collection<PromotionUseDoc>;
  settings: Collection<TenantSettingsDoc>;
}

export const ORDERS = 'orders';

export function orderingCollections(db: Db): OrderingCollections {
  return {
    orders: db.collection(ORDERS),
    externalOrderIds: db.collection('external_order_ids'),
    orderNumbers: db.collection('order_numbers'),
    orderCounters: db.collection('order_counters'),
    catalogCopy: db.collection('catalog_copy'),
    zones: db.collection('delivery_zones'),
    promotions: db.collection('promotions'),
    promotionCodes: db.collection('promotion_codes'),
    promotionUses: db.collection('promotion_uses'),
    settings: db.collection('tenant_settings'),
  };
}

// Listings name the tenant first.
export const orderingIndexes: IndexPlan = {
  orders: [{ key: { tenantId: 1, createdAt: -1 }, name: 'tenant_recent' }],
  delivery_zones: [{ key: { tenantId: 1 }, name: 'tenant' }],
  promotions: [{ key: { tenantId: 1 }, name: 'tenant' }],
};
