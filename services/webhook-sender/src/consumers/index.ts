import { AppError } from '@marketplace/errors';
import type { ConsumerSpec } from '@marketplace/runtime';
import type { InstallationsProgress } from '../adapters/installations-progress';
import type { WebhookContext } from '../usecases/context';
import { describeBehind } from '../domain/installations-catch-up';
import { webhookOf, WEBHOOK_SOURCE_TOPICS } from '../domain/webhook-events';
import { createDeliveries } from '../usecases/deliveries';
import { applyInstallationChange, type InstallationChange } from '../usecases/installations';

export const INSTALLATIONS_TOPIC = 'installations';

/**
 * Kafka consumers of this service (groups `webhook-sender.<name>`): the copy of the installations,
 * and the domain events that become webhooks. The attempt topics have their own consumer
 * (adapters/attempt-queue.ts).
 */
export function consumers(ctx: WebhookContext, installations: InstallationsProgress, since: Date, installationsFromBeginning = true): ConsumerSpec[] {
  return [
    {
      name: 'installations',
      topics: [INSTALLATIONS_TOPIC],
      fromBeginning: installationsFromBeginning,
      dedupe: false, // a snapshot with a revision: applying it twice changes nothing
      handler: async (event) => {
        await applyInstallationChange(ctx.store, event.data as InstallationChange);
        installations.handledUpTo(event.partition, event.offset);
      },
    },
    {
      name: 'domain-events',
      topics: WEBHOOK_SOURCE_TOPICS,
      // Read from the beginning, so that no partition is ever skipped after a restart; events
      // older than the sender's first start (`since`) are passed over: a new sender does not
      // replay the platform's history to partners.
      dedupe: false, // a delivery's id comes from the event id: a repeat creates nothing
      // Waiting for the installation copy is short: look again soon.
      retryBackoffMs: { initial: 100, max: 1_000 },

      handler: async (event) => {
        if (event.occurredAt !== undefined && new Date(event.occurredAt) < since) return;
        const webhook = webhookOf(event.topic, event.type, event.data);
        if (!webhook) return;
        // Retried (with backoff, the partition waiting) until the installation copy is current; a
        // wait past CONSUMER_HOLD_ALARM_MS is an alarm naming these partitions.
        const behind = await installations.behindAt(new Date(event.occurredAt ?? Date.now()));
        if (behind.length > 0) {
          throw new AppError('unavailable', 'webhook.installations_behind', `the installation copy is behind the event (${INSTALLATIONS_TOPIC} ${describeBehind(behind)})`, { details: { topic: INSTALLATIONS_TOPIC, behind } });
        }
        const created = await createDeliveries(ctx, webhook, event.eventId, event.occurredAt ?? new Date().toISOString());
        event.log.debug({ type: webhook.type, created }, 'webhook deliveries created');
      },
    },
  ];
}
