import { TOPICS, type ProviderEventTypeName } from '@marketplace/contracts';
import type { OutgoingEvent } from '@marketplace/events';
import type { StoredDelivery } from '../../domain/delivery';
import { eventBody, isTerminalEvent } from '../../domain/delivery-event';
import { eventsFor, webhookSecretContext } from '../../domain/platform-account';
import { sealSecretForTransport } from '../accounts/seal-secret-for-transport';
import type { ProviderContext } from '../context';
import type { AccountPublishing } from '../ports';

/**
 * The `provider-events` messages of events about the delivery as it is after the change: each the
 * flat body the platform receives, the delivery's sealed callback (null: the platform polls, the
 * sender sends nothing) and the account's sealed signing secret. Keyed by delivery, so one
 * delivery's events stay in order. Only the types the account receives (its `eventTypes`: the
 * spec's table unless it opted in to ours) are published; the webhook sender is this topic's only
 * consumer, so a type left out here reaches no platform, while the change itself is still stored.
 */
export async function buildPlatformEvents(
  ctx: ProviderContext,
  delivery: StoredDelivery,
  types: readonly ProviderEventTypeName[],
  at: Date,
): Promise<OutgoingEvent[]> {
  if (types.length === 0) return [];
  const { secret: webhookSecret, eventTypes } = await ctx.transportSecrets.of(
    delivery.accountId,
    ctx.now().getTime(),
    () => loadPublishing(ctx, delivery.accountId),
  );
  return eventsFor(eventTypes, types).map((type) => {
    const body = eventBody(delivery, type, at);
    return {
      topic: TOPICS.providerEvents,
      key: delivery.id,
      type,
      occurredAt: body.eventTimeUtc,
      data: {
        accountId: delivery.accountId,
        webhookSecret,
        delivery: {
          providerDeliveryId: delivery.id,
          callbackUrlSealed: delivery.callbackUrlSealed,
          terminal: isTerminalEvent(body),
          body,
        },
      },
    };
  });
}

/** The account's secret at rest, opened and sealed again for the webhook sender, and its chosen event types. */
async function loadPublishing(ctx: ProviderContext, accountId: string): Promise<AccountPublishing> {
  const stored = await ctx.store.accounts.findPublishing({ accountId });
  if (!stored) throw new Error('the account of a delivery has no webhook secret');
  const plain = ctx.box.open(stored.secret.sealed, webhookSecretContext(accountId));
  return {
    secret: sealSecretForTransport(ctx, accountId, plain, stored.secret.rotatedAt),
    eventTypes: stored.eventTypes,
  };
}
