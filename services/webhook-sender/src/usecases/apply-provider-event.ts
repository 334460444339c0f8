import { TOPICS, type ProviderEvent } from '@marketplace/contracts';
import { AppError } from '@marketplace/errors';
import { attemptEvent } from '../domain/attempt-event';
import { newDeliveryState, type ProviderCallbackDelivery } from '../domain/delivery';
import { deliveryIdOf } from '../domain/delivery-id';
import type { WebhookContext } from './context';

/** Where a provider event came from on Kafka. */
export interface ProviderEventSource {
  eventId: string;
  /** The event's `occurred-at` header, when it has one. */
  occurredAt: string | undefined;
}

/** What became of a provider event: each is logged at debug level by the consumer. */
export type ProviderEventOutcome = 'created' | 'duplicate' | 'no-callback' | 'history' | 'secret-only';

/**
 * Handles one message of `provider-events` (provider-delivery's outbox):
 * 1. keeps the account's sealed signing secret, replacing the copy only with a newer one (every
 *    message carries it; a rotation carries nothing else), so the next attempt of any callback of
 *    the account, a redelivery included, signs with the newest;
 * 2. for a delivery event with a callback, creates a `provider-callback` delivery whose first
 *    attempt is due now. Its id comes from the event id and the account, so an event Kafka hands
 *    over twice is sent once; its body is the flat event serialized once, the bytes every attempt
 *    sends and signs.
 * Events from before the sender's first start (`since`) are history and are not sent, as for
 * domain events; their secret is still kept (a copy, newest wins), as the installation copy keeps
 * the whole history.
 */
export async function applyProviderEvent(
  ctx: WebhookContext,
  event: ProviderEvent,
  source: ProviderEventSource,
  since: Date,
): Promise<ProviderEventOutcome> {
  const owner = { accountId: event.accountId };
  await ctx.store.accountSecrets.saveIfNewer(owner, {
    sealed: event.webhookSecret.sealed,
    rotatedAt: new Date(event.webhookSecret.rotatedAt),
  });
  const { delivery } = event;
  if (!delivery) return 'secret-only';
  if (source.occurredAt !== undefined && new Date(source.occurredAt) < since) return 'history';
  // No callback chosen at creation: the platform polls, nothing is pushed ("Per-delivery callback").
  if (delivery.callbackUrlSealed === null) return 'no-callback';
  if (delivery.body.providerDeliveryId !== delivery.providerDeliveryId)
    // The callback URL is bound to one delivery and the terminal rule is kept per delivery: an event
    // that names two can never be sent right. A dead letter (not retried), for provider-delivery to fix.
    throw new AppError(
      'unprocessable',
      'provider_event.delivery_mismatch',
      "the event's body names another provider delivery than the event itself",
    );

  const now = ctx.now();
  const id = deliveryIdOf(source.eventId, event.accountId);
  const callback: Omit<ProviderCallbackDelivery, 'accountId'> = {
    _id: id,
    kind: 'provider-callback',
    providerDeliveryId: delivery.providerDeliveryId,
    callbackUrlSealed: delivery.callbackUrlSealed,
    terminal: delivery.terminal,
    type: delivery.body.eventType,
    sourceEventId: source.eventId,
    occurredAt: source.occurredAt ?? now.toISOString(),
    body: JSON.stringify(delivery.body),
    ...newDeliveryState(now),
  };
  const first = attemptEvent(TOPICS.webhookAttempts, { ...callback, ...owner }, 1, 1, now);
  // The repository publishes the first attempt it stages.
  if (!(await ctx.store.deliveries.createForAccount(owner, callback, [first], now))) return 'duplicate';
  return 'created';
}
