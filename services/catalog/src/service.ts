import { gatewayGuards, publicKeyFrom } from '@marketplace/identity';
import { TOPICS } from '@marketplace/contracts';
import { busy as busyError } from '@marketplace/errors';
import type { ServiceDefinition } from '@marketplace/runtime';
import { LruMenuCache } from './adapters/menu-cache';
import { catalogIndexes, catalogStore, RESOURCE_COLLECTIONS, resourceRepositories } from './adapters/store';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import { partnerViews } from './http/views/partner';

/** Catalog: what it owns, the topics it uses and its indexes, in one place. */
export const catalogService: ServiceDefinition<typeof settings> = {
  name: 'catalog',
  defaultPort: 4102,
  settings,
  topics: [TOPICS.catalog],
  indexes: catalogIndexes,
  outboxCollections: RESOURCE_COLLECTIONS,
  setup(context) {
    // Partner and tenant routes answer only requests whose identity the gateway signed.
    const gateway = gatewayGuards(publicKeyFrom(context.config.identityPublicKey), 'catalog');
    context.routes.guard('partner', gateway.partner).guard('tenant', gateway.tenant);
    const store = catalogStore(context.db, {
      waitMs: context.config.writeLockWaitMs,
      ttlMs: 30_000,
      busy: () => busyError('Another change of this catalog is in progress; retry shortly.'),
    });
    const menus = new LruMenuCache(store, {
      menus: context.config.menuCacheTenants,
      responseBytes: context.config.menuCacheResponseMegabytes * 1024 * 1024,
    });
    registerRoutes(context, {
      store,
      resources: resourceRepositories(store),
      outbox: context.outbox,
      menus,
      views: partnerViews,
      logger: context.logger,
      now: () => new Date(),
    });
    return { consumers: consumers(context) };
  },
};
