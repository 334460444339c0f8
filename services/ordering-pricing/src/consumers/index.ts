import { TOPICS } from '@marketplace/contracts';
import { defineConsumer, type ConsumerSpec, type ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import { applyCatalogChange } from '../usecases/catalog/apply-catalog-change';
import type { OrderingContext } from '../usecases/context';
import { applyDeliveryEvent } from '../usecases/deliveries/apply-delivery-event';
import type { CatalogCopyStore } from '../usecases/ports';

/**
 * Kafka consumers of this service; each runs in the consumer group `ordering-pricing.<name>`.
 * Both copies read their topic from its beginning (each is kept forever), so a new database fills
 * itself.
 * - `catalog-copy`: the catalog, for pricing.
 * - `delivery-copy`: each order's live delivery assignment (carried by the order's events), and
 *   Delivered deliveries complete their orders. Who may read an order as its delivery provider is
 *   not decided from this copy: delivery-assignment answers it per read (see usecases/orders/read-order-as-partner.ts).
 */
export function consumers(
  context: ServiceContext<typeof settings>,
  parts: { catalogCopy: CatalogCopyStore; ordering: OrderingContext },
): ConsumerSpec[] {
  return [
    defineConsumer({
      name: 'catalog-copy',
      topics: [TOPICS.catalog],
      fromBeginning: context.config.catalogCopyStart === 'earliest',
      dedupe: false, // the copy keeps the highest sequence: a repeat changes nothing
      handler: (event) => applyCatalogChange(parts.catalogCopy, event.data),
    }),
    defineConsumer({
      name: 'delivery-copy',
      topics: [TOPICS.deliveries],
      fromBeginning: context.config.deliveryCopyStart === 'earliest',
      dedupe: false, // the order keeps the highest revision, and completing is done once: a repeat changes nothing
      handler: (event) => applyDeliveryEvent(parts.ordering, event.type, event.data, event.log),
    }),
  ];
}
