import { randomUUID } from 'node:crypto';
import { TOPICS } from '@marketplace/contracts';
import { AppError } from '@marketplace/errors';
import { CopyProgress, createKafka, waitForCopies } from '@marketplace/events';
import { gatewayGuards, publicKeyFrom } from '@marketplace/identity';
import type { ServiceDefinition } from '@marketplace/runtime';
import { DELIVERIES, deliveryIndexes, deliveryStore } from './adapters/store';
import { assignmentMetrics } from './adapters/assignment-metrics';
import { outboxDeliveryEvents } from './adapters/delivery-events';
import { RecentDeliveryCache } from './adapters/recent-deliveries';
import { settings } from './config';
import { consumers, COPY_CONSUMERS, type CopiesProgress } from './consumers';
import { registerRoutes } from './http/routes';
import type { DeliveryContext } from './usecases/context';

/** How often answers kept for Idempotency-Key repeats are removed once past their retention. */
const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Delivery assignment: what it owns, the topics it uses and its indexes, in one place. */
export const deliveryAssignmentService: ServiceDefinition<typeof settings> = {
  name: 'delivery-assignment',
  defaultPort: 4104,
  settings,
  topics: [TOPICS.deliveries, TOPICS.orders, TOPICS.installations, TOPICS.catalog],
  indexes: deliveryIndexes,
  outboxCollections: [DELIVERIES],
  async setup(context) {
    const { config } = context;
    // Partner and tenant routes answer only requests whose identity the gateway signed.
    const gateway = gatewayGuards(publicKeyFrom(config.identityPublicKey), 'delivery-assignment');
    context.routes.guard('partner', gateway.partner).guard('tenant', gateway.tenant);

    const admin = createKafka({
      brokers: config.kafkaBrokers,
      clientId: 'delivery-assignment-progress',
      logger: context.logger,
    }).admin();
    await admin.connect();
    const group = (name: string) => `${config.consumerGroupPrefix ?? 'delivery-assignment'}.${name}`;
    const progress: CopiesProgress = {
      orders: new CopyProgress(admin, group(COPY_CONSUMERS.orders), TOPICS.orders),
      installations: new CopyProgress(admin, group(COPY_CONSUMERS.installations), TOPICS.installations),
      catalog: new CopyProgress(admin, group(COPY_CONSUMERS.catalog), TOPICS.catalog),
    };
    const copies = (Object.keys(progress) as Array<keyof CopiesProgress>).map((name) => ({
      name,
      progress: progress[name],
    }));

    const ctx: DeliveryContext = {
      store: deliveryStore(context.db),
      events: outboxDeliveryEvents(context.outbox),
      recent: new RecentDeliveryCache(),
      copiesCaughtUp: async (time) => {
        const behind = await waitForCopies(copies, time, { timeoutMs: config.copyWaitMs }).catch(
          (error: unknown) => `Kafka could not say (${error instanceof Error ? error.message : String(error)})`,
        );
        if (behind === undefined) return;
        context.logger.warn({ behind }, 'assignment refused: copies behind after the wait');
        throw new AppError(
          'unavailable',
          'delivery.copies_behind',
          'Orders, installations or branches published a moment ago are not read yet; try again shortly.',
          { retryAfterSeconds: 1 },
        );
      },
      partnerRequestRetentionMs: config.idempotencyRetentionHours * 3_600_000,
      metrics: assignmentMetrics(context.metrics),
      logger: context.logger,
      now: () => new Date(),
      newId: randomUUID,
    };
    registerRoutes(context, ctx);
    const pruning = setInterval(() => {
      ctx.store.deliveries
        .deleteExpiredPartnerRequests(ctx.now())
        .catch((error: unknown) => context.logger.warn({ err: error }, 'pruning expired partner requests failed'));
    }, PRUNE_INTERVAL_MS);
    pruning.unref();
    return {
      consumers: consumers(ctx, progress, config.copiesStart === 'earliest'),
      onStop: async () => {
        clearInterval(pruning);
        await admin.disconnect();
      },
    };
  },
};
