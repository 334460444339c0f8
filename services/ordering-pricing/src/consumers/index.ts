import { TOPICS } from '@marketplace/contracts';
import { defineConsumer, type ConsumerSpec, type ServiceContext } from '@marketplace/runtime';
import type { CatalogCopyStore as CatalogCopyRepository } from '../usecases/catalog-copy';
import type { settings } from '../config';
import { applyCatalogChange } from '../usecases/catalog-copy';
import type { OrderingContext } from '../usecases/context';
import { applyDeliveryEvent } from '../usecases/delivery-copy';
import type { DeliveriesCopyProgress } from '../usecases/delivery-ownership';

/**
 * Kafka consumers of this service; each runs in the consumer group `ordering-pricing.<name>`.
 * Both copies read their topic from its beginning (each is kept forever), so a new database fills
 * itself.
 * - `catalog-copy`: the catalog, for pricing.
 * - `delivery-copy`: each order's live delivery assignment (who may read it as its delivery
 *   provider), and Delivered deliveries complete their orders. Reads wait on its progress
 *   (`deliveries`), so it reports each message it handled.
 */
export function consumers(
  context: ServiceContext<typeof settings>,
  parts: { catalogCopy: CatalogCopyRepository; ordering: OrderingContext; deliveries: DeliveriesCopyProgress },
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
      handler: async (event) => {
        await applyDeliveryEvent(parts.ordering, event.type, event.data, event.log);
        parts.deliveries.handledUpTo(event.partition, event.offset);
      },
    }),
  ];
}
