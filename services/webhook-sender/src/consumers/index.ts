import type { ConsumerSpec } from '@marketplace/runtime';
import type { WebhookContext } from '../usecases/context';
import { webhookOf, WEBHOOK_SOURCE_TOPICS } from '../domain/webhook-events';
import { createDeliveries } from '../usecases/deliveries';
import { applyInstallationChange, type InstallationChange } from '../usecases/installations';

export const INSTALLATIONS_TOPIC = 'installations';

/**
 * Kafka consumers of this service (groups `webhook-sender.<name>`): the copy of the installations,
 * and the domain events that become webhooks. The attempt topics have their own consumer
 * (adapters/attempt-queue.ts).
 */
export function consumers(ctx: WebhookContext): ConsumerSpec[] {
  return [
    { name: 'installations', topics: [INSTALLATIONS_TOPIC], handler: (event) => applyInstallationChange(ctx.store, event.data as InstallationChange) },
    {
      name: 'domain-events',
      topics: WEBHOOK_SOURCE_TOPICS,
      // Only events from now on: a new sender does not replay the platform's history to partners.
      fromBeginning: false,
      handler: async (event) => {
        const webhook = webhookOf(event.topic, event.type, event.data);
        if (!webhook) return;
        const created = await createDeliveries(ctx, webhook, event.eventId, event.occurredAt ?? new Date().toISOString());
        event.log.debug({ type: webhook.type, created }, 'webhook deliveries created');
      },
    },
  ];
}
