import { TOPICS } from '@marketplace/contracts';
import { defineConsumer, type ConsumerSpec, type ServiceContext } from '@marketplace/runtime';
import type { CatalogCopyStore as CatalogCopyRepository } from '../usecases/catalog-copy';
import type { settings } from '../config';
import { applyCatalogChange } from '../usecases/catalog-copy';

/**
 * Kafka consumers of this service; each runs in the consumer group `ordering-pricing.<name>`.
 * `catalog-copy` reads the catalog topic from its beginning (it is kept forever), so a new
 * database fills itself.
 */
export function consumers(
  context: ServiceContext<typeof settings>,
  catalogCopy: CatalogCopyRepository,
): ConsumerSpec[] {
  return [
    defineConsumer({
      name: 'catalog-copy',
      topics: [TOPICS.catalog],
      fromBeginning: context.config.catalogCopyStart === 'earliest',
      dedupe: false, // the copy keeps the highest sequence: a repeat changes nothing
      handler: (event) => applyCatalogChange(catalogCopy, event.data),
    }),
  ];
}
