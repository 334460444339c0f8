import { TOPICS } from '@marketplace/contracts';
import { CopyProgress, createKafka } from '@marketplace/events';
import { gatewayGuards, publicKeyFrom } from '@marketplace/identity';
import type { ServiceDefinition } from '@marketplace/runtime';
import { RedisLock } from '@marketplace/redis';
import { KafkaDeliveriesCopyProgress } from './adapters/deliveries-copy-progress';
import { OrderLock } from './adapters/order-lock';
import { ORDERS, orderingIndexes, orderingStore } from './adapters/store';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import { CopyCache } from './usecases/catalog-copy';
import type { OrderingContext } from './usecases/context';
import { liveAssignmentOwnership } from './usecases/delivery-ownership';
import { OrderNumbers } from './usecases/order-numbers';

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
    // Partner and tenant routes answer only requests whose identity the gateway signed.
    const gateway = gatewayGuards(publicKeyFrom(config.identityPublicKey), 'ordering-pricing');
    context.routes.guard('partner', gateway.partner).guard('tenant', gateway.tenant);
    const store = orderingStore(context.db);
    const orderLock = new OrderLock(new RedisLock(context.redis, 'ordering-pricing:'), {
      waitMs: config.orderLockWaitMs,
      ttlMs: 30_000,
    });
    // Partner reads wait on the delivery copy's progress: its consumer group (named as the
    // runtime names it: `<prefix>.<consumer name>`) against the topic's offsets.
    const admin = createKafka({
      brokers: config.kafkaBrokers,
      clientId: 'ordering-pricing-copy-progress',
      logger: context.logger,
    }).admin();
    await admin.connect();
    const deliveries = new KafkaDeliveriesCopyProgress(
      new CopyProgress(admin, `${config.consumerGroupPrefix ?? 'ordering-pricing'}.delivery-copy`, TOPICS.deliveries),
      config.deliveryCopyWaitMs,
    );
    const ordering: OrderingContext = {
      store,
      outbox: context.outbox,
      orderLock,
      deliveryOwnership: liveAssignmentOwnership,
      deliveriesCopy: deliveries,
      orderNumbers: new OrderNumbers(store.orderClaims),
      catalogCopy: new CopyCache(store.catalogCopy),
      logger: context.logger,
      now: () => new Date(),
    };
    registerRoutes(context, ordering);
    return {
      consumers: consumers(context, { catalogCopy: store.catalogCopy, ordering, deliveries }),
      onStop: () => admin.disconnect(),
    };
  },
};
