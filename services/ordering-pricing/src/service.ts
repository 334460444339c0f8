import { TOPICS } from '@marketplace/contracts';
import { guardGatewayRoutes, publicKeyFrom } from '@marketplace/identity';
import type { ServiceDefinition } from '@marketplace/runtime';
import { RedisLock } from '@marketplace/redis';
import { OrderLock } from './adapters/order-lock';
import { ORDERS, orderingIndexes, orderingStore } from './adapters/store';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import { CopyCache } from './usecases/catalog-copy';
import { liveAssignmentOwnership } from './usecases/delivery-ownership';
import { OrderNumbers } from './usecases/order-numbers';

/** Ordering and pricing: what it owns, the topics it uses and its indexes, in one place. */
export const orderingPricingService: ServiceDefinition<typeof settings> = {
  name: 'ordering-pricing',
  defaultPort: 4103,
  settings,
  topics: [TOPICS.catalog, TOPICS.orders],
  indexes: orderingIndexes,
  outboxCollections: [ORDERS],
  setup(context) {
    // Partner and tenant routes answer only requests whose identity the gateway signed.
    context.useBeforeBody(guardGatewayRoutes(publicKeyFrom(context.config.identityPublicKey)));
    const store = orderingStore(context.db);
    const orderLock = new OrderLock(new RedisLock(context.redis, 'ordering-pricing:'), {
      waitMs: context.config.orderLockWaitMs,
      ttlMs: 30_000,
    });
    registerRoutes(context, {
      store,
      outbox: context.outbox,
      orderLock,
      deliveryOwnership: liveAssignmentOwnership,
      orderNumbers: new OrderNumbers(store.orderClaims),
      catalogCopy: new CopyCache(store.catalogCopy),
      logger: context.logger,
      now: () => new Date(),
    });
    return { consumers: consumers(context, store.catalogCopy) };
  },
};
