import { TOPICS } from '@marketplace/contracts';
import type { CopyProgress } from '@marketplace/events';
import { defineConsumer, type ConsumerSpec } from '@marketplace/runtime';
import type { DeliveryContext } from '../usecases/context';
import { applyCatalogChange } from '../usecases/apply-catalog-change';
import { applyInstallationChange } from '../usecases/apply-installation-change';
import { applyOrderEvent } from '../usecases/apply-order-event';
import { openDispatch } from '../usecases/dispatch/open-dispatch';
import { requestProviderCancel } from '../usecases/dispatch/request-provider-cancel';

/** How far each copy has read its topic (assignments wait for them: usecases/assign-delivery.ts). */
export interface CopiesProgress {
  orders: CopyProgress;
  installations: CopyProgress;
  catalog: CopyProgress;
}

/** The consumer names, which make the consumer groups (`<prefix>.<name>`) the progress reads. */
export const COPY_CONSUMERS = { orders: 'orders', installations: 'installations', catalog: 'branches' } as const;

/**
 * Kafka consumers of this service (groups `delivery-assignment.<name>`): its copies of orders,
 * installations and branches, and the platform's dispatch to provider connections. Each handler is idempotent by itself (see usecases/apply-order-event.ts and the two apply-* beside it), and
 * tells the progress what it handled, so that an assignment can wait for the copies to catch up
 * (`servesRequests`: on SIGTERM they keep going until the last assignment in flight is answered).
 */
export function consumers(ctx: DeliveryContext, progress: CopiesProgress, fromBeginning: boolean): ConsumerSpec[] {
  return [
    defineConsumer({
      name: COPY_CONSUMERS.orders,
      topics: [TOPICS.orders],
      fromBeginning,
      dedupe: false,
      servesRequests: true,
      handler: async (event) => {
        await applyOrderEvent(ctx, event.type, event.data);
        progress.orders.handledUpTo(event.partition, event.offset);
      },
    }),
    defineConsumer({
      name: COPY_CONSUMERS.installations,
      topics: [TOPICS.installations],
      fromBeginning,
      dedupe: false,
      servesRequests: true,
      handler: async (event) => {
        await applyInstallationChange(ctx, event.data);
        progress.installations.handledUpTo(event.partition, event.offset);
      },
    }),
    defineConsumer({
      name: COPY_CONSUMERS.catalog,
      topics: [TOPICS.catalog],
      fromBeginning,
      dedupe: false,
      servesRequests: true,
      handler: async (event) => {
        await applyCatalogChange(ctx, event.data);
        progress.catalog.handledUpTo(event.partition, event.offset);
      },
    }),
    // The platform's dispatch (its own topic): an assignment to a provider connection opens its
    // dispatch; a superseded or terminated one cancels it at the provider. Idempotent by itself.
    defineConsumer({
      name: 'provider-dispatch',
      topics: [TOPICS.deliveries],
      fromBeginning,
      dedupe: false,
      handler: async (event) => {
        if (event.type === 'delivery.assigned') await openDispatch(ctx, event.data);
        else if (event.type === 'delivery.cancelled' || event.type === 'delivery.superseded')
          await requestProviderCancel(ctx, event.data);
      },
    }),
  ];
}
