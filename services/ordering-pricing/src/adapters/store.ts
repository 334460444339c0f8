import type { Db } from 'mongodb';
import { indexPlanOf, type IndexPlan } from '@marketplace/store';
import { CatalogCopyRepository } from './catalog-copy-repository';
import { DeliveryZonesRepository } from './delivery-zones-repository';
import { OrderClaimsRepository } from './order-claims-repository';
import { OrdersRepository } from './orders-repository';
import { PaymentNotificationsRepository } from './payment-notifications-repository';
import { PromotionUsesRepository } from './promotion-uses-repository';
import { PromotionsRepository } from './promotions-repository';
import { TenantSettingsRepository } from './tenant-settings-repository';

/**
 * Ordering's database, one repository per collection or aggregate. Every method on owned data
 * takes its owner (tenant or installation) and puts it in the filter or in the `_id`. Claims (an
 * external order id, an order number, a promotion code or use) are documents whose `_id` is the
 * claimed value, so a unique insert decides a race exactly, on every engine.
 */
export interface OrderingStore {
  orders: OrdersRepository;
  orderClaims: OrderClaimsRepository;
  catalogCopy: CatalogCopyRepository;
  zones: DeliveryZonesRepository;
  promotions: PromotionsRepository;
  promotionUses: PromotionUsesRepository;
  settings: TenantSettingsRepository;
  paymentNotifications: PaymentNotificationsRepository;
}

export function orderingStore(db: Db): OrderingStore {
  return {
    orders: new OrdersRepository(db),
    orderClaims: new OrderClaimsRepository(db),
    catalogCopy: new CatalogCopyRepository(db),
    zones: new DeliveryZonesRepository(db),
    promotions: new PromotionsRepository(db),
    promotionUses: new PromotionUsesRepository(db),
    settings: new TenantSettingsRepository(db),
    paymentNotifications: new PaymentNotificationsRepository(db),
  };
}

/** The collection whose documents carry an outbox (the shared relay reads it by name). */
export const ORDERS = OrdersRepository.storage.collection;

/** Each repository's collections and the indexes serving its queries (test/repositories.int.test.ts proves them). */
export const orderingIndexes: IndexPlan = indexPlanOf(
  OrdersRepository.storage,
  ...OrderClaimsRepository.storages,
  CatalogCopyRepository.storage,
  DeliveryZonesRepository.storage,
  ...PromotionsRepository.storages,
  PromotionUsesRepository.storage,
  TenantSettingsRepository.storage,
  PaymentNotificationsRepository.storage,
);
