import { TOPICS } from '@marketplace/contracts';
import { AppError } from '@marketplace/errors';
import { describeBehind, type EventHandler, type PlatformTopics } from '@marketplace/events';
import { defineConsumer, type ConsumerSpec } from '@marketplace/runtime';
import { webhookOf, WEBHOOK_SOURCE_TOPICS } from '../domain/webhook-events';
import type { WebhookContext } from '../usecases/context';
import type { InstallationsProgress } from '../usecases/ports';
import { applyInstallationChange } from '../usecases/apply-installation-change';
import { applyProviderEvent } from '../usecases/apply-provider-event';
import { createDeliveries } from '../usecases/create-deliveries';

/**
 * Kafka consumers of this service (groups `webhook-sender.<name>`): the copy of the installations,
 * the domain events that become webhooks, and provider-delivery's events that become provider
 * callbacks. The attempt topics have their own consumer (adapters/attempt-queue.ts).
 */
export function consumers(
  ctx: WebhookContext,
  installations: InstallationsProgress,
  since: Date,
  installationsFromBeginning = true,
): ConsumerSpec[] {
  return [
    defineConsumer({
      name: 'installations',
      topics: [TOPICS.installations],
      fromBeginning: installationsFromBeginning,
      dedupe: false, // a snapshot with a revision: applying it twice changes nothing
      handler: async (event) => {
        await applyInstallationChange(ctx.store, event.data);
        installations.handledUpTo(event.partition, event.offset);
      },
    }),
    defineConsumer({
      name: 'domain-events',
      topics: WEBHOOK_SOURCE_TOPICS,
      // Read from the beginning, so that no partition is ever skipped after a restart; events
      // older than the sender's first start (`since`) are passed over: a new sender does not
      // replay the platform's history to partners.
      dedupe: false, // a delivery's id comes from the event id: a repeat creates nothing
      // Waiting for the installation copy is short: look again soon.
      retryBackoffMs: { initial: 100, max: 1_000 },
      handler: domainEventHandler(ctx, installations, since),
    }),
    defineConsumer({
      name: 'provider-events',
      topics: [TOPICS.providerEvents],
      // From the beginning, like the domain events: no partition is ever skipped, and events from
      // before `since` are passed over (their account secret is still kept, see applyProviderEvent).
      fromBeginning: true,
      dedupe: false, // a callback's id comes from the event id, the secret copy keeps the newest: repeats change nothing
      handler: async (event) => {
        const outcome = await applyProviderEvent(
          ctx,
          event.data,
          { eventId: event.eventId, occurredAt: event.occurredAt },
          since,
        );
        // Ids only: the body holds a driver's personal data, the callback URL (even sealed) stays out of logs.
        event.log.debug({ type: event.type, accountId: event.data.accountId, outcome }, 'provider event handled');
      },
    }),
  ];
}

/**
 * A domain event becomes webhooks once the installation copy is current: history (before `since`)
 * and events that make no webhook are passed over.
 */
function domainEventHandler(
  ctx: WebhookContext,
  installations: InstallationsProgress,
  since: Date,
): EventHandler<PlatformTopics, (typeof WEBHOOK_SOURCE_TOPICS)[number]> {
  return async (event) => {
    if (event.occurredAt !== undefined && new Date(event.occurredAt) < since) return;
    const webhook = webhookOf(event);
    if (!webhook) return;
    // Retried (with backoff, the partition waiting) until the installation copy is current; a
    // wait past CONSUMER_HOLD_ALARM_MS is an alarm naming these partitions.
    const behind = await installations.behindAt(new Date(event.occurredAt ?? Date.now()));
    if (behind.length > 0) {
      throw new AppError(
        'unavailable',
        'webhook.installations_behind',
        `the installation copy is behind the event (${TOPICS.installations} ${describeBehind(behind)})`,
        { details: { topic: TOPICS.installations, behind } },
      );
    }
    const created = await createDeliveries(ctx, webhook, event.eventId, event.occurredAt ?? new Date().toISOString());
    event.log.debug({ type: webhook.type, created }, 'webhook deliveries created');
  };
}
