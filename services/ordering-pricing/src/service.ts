import { TOPICS } from '@marketplace/contracts';
import { gatewayGuards, publicKeyFrom } from '@marketplace/identity';
import { dropoffSealer } from './adapters/dropoff-sealer';
import type { ServiceDefinition } from '@marketplace/runtime';
import { RedisLock } from '@marketplace/redis';
import { CopyCache, uncached } from './adapters/catalog-copy-cache';
import { OrderLock } from './adapters/order-lock';
import { OrderNumbers } from './adapters/order-numbers';
import { orderOutbox } from './adapters/order-outbox';
import { ORDERS, orderingIndexes, orderingStore } from './adapters/store';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import type { OrderingContext } from './usecases/context';

/** Ordering and pricing: what it owns, the topics it uses and its indexes, in one place. */
export const orderingPricingService: ServiceDefinition<typeof settings> = {
  name: 'ordering-pricing',
  defaultPort: 4103,
  settings,
  topics: [TOPICS.catalog, TOPICS.orders, TOPICS.deliveries],
  indexes: orderingIndexes,
  outboxCollections: [ORDERS],
  async setup(context) {
    const { config } = context;
    // Partner, tenant and processor routes answer only requests whose identity the gateway signed.
    const gateway = gatewayGuards(publicKeyFrom(config.identityPublicKey), 'ordering-pricing');
    context.routes
      .guard('partner', gateway.partner)
      .guard('tenant', gateway.tenant)
      .guard('processor', gateway.processor);
    const store = orderingStore(context.db);
    const orderLock = new OrderLock(new RedisLock(context.redis, 'ordering-pricing:'), {
      waitMs: config.orderLockWaitMs,
      ttlMs: 30_000,
    });
    const ordering: OrderingContext = {
      store,
      orderOutbox: orderOutbox(context.outbox),
      orderLock,
      orderNumbers: new OrderNumbers(store.orderClaims),
      catalogCopy: new CopyCache(store.catalogCopy),
      uncachedCatalogCopy: uncached(store.catalogCopy),
      sealDropoff: dropoffSealer(config.customerDataTransportKey),
      logger: context.logger,
      now: () => new Date(),
    };
    registerRoutes(context, ordering);
    return { consumers: consumers(context, { catalogCopy: store.catalogCopy, ordering }) };
  },
};
