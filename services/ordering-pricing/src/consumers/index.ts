import type { ConsumerSpec, ServiceContext } from '@marketplace/runtime';
import type { CatalogCopyRepository } from '../adapters/catalog-copy-repository';
import type { settings } from '../config';
import { applyCatalogChange, CATALOG_TOPIC, type CatalogChange } from '../usecases/catalog-copy';

/**
 * Kafka consumers of this service; each runs in the consumer group `ordering-pricing.<name>`.
 * `catalog-copy` reads the catalog topic from its beginning (it is kept forever), so a new
 * database fills itself.
 */
export function consumers(context: ServiceContext<typeof settings>, catalogCopy: CatalogCopyRepository): ConsumerSpec[] {
  return [
    {
      name: 'catalog-copy',
      topics: [CATALOG_TOPIC],
      fromBeginning: context.config.catalogCopyStart === 'earliest',
      dedupe: false, // the copy keeps the highest sequence: a repeat changes nothing
      handler: (event) => applyCatalogChange(catalogCopy, event.data as CatalogChange),
    },
  ];
}
