import { AppError, notFound } from '@marketplace/errors';
import type { DeliveryStatus } from '../domain/delivery-status';
import { callbackOrigin } from '../domain/provider-callback';
import type { WebhookContext } from './context';
import type { ProviderCallbackDelivery } from './entities';
import { startNewRound } from './rounds';

/**
 * A provider callback as the administrator API shows it: the delivery, and where it goes as far as
 * may be shown (the callback's scheme and host; null when the sealed URL does not open).
 */
export interface ProviderCallbackRecord {
  delivery: ProviderCallbackDelivery;
  callbackOrigin: string | null;
}

/**
 * The use cases of the administrator API (provider-delivery's operators, over every platform
 * account): the callbacks of an account with their attempts, one callback with its body, and
 * redelivery.
 */
export async function listProviderCallbacks(
  ctx: WebhookContext,
  accountId: string,
  options: { providerDeliveryId?: string; status?: DeliveryStatus; limit: number },
): Promise<ProviderCallbackRecord[]> {
  const found = await ctx.store.deliveries.listForAccount({ accountId }, options);
  return found.map((delivery) => recordOf(ctx, delivery));
}

export async function getProviderCallback(ctx: WebhookContext, deliveryId: string): Promise<ProviderCallbackRecord> {
  const delivery = await ctx.store.deliveries.findProviderCallback(deliveryId);
  if (!delivery) throw notFound();
  return recordOf(ctx, delivery);
}

/**
 * Sends a finished callback again (a new round, the whole schedule, the same body and so the same
 * signature unless the account's secret was rotated). 409 while it is pending, and for a
 * nonterminal event once a terminal event of its delivery was received: the contract never lets
 * one follow the other.
 */
export async function redeliverProviderCallback(
  ctx: WebhookContext,
  deliveryId: string,
): Promise<ProviderCallbackRecord> {
  const delivery = await startNewRound(
    ctx,
    deliveryId,
    () => ctx.store.deliveries.findProviderCallback(deliveryId),
    async (d) => {
      if (
        !d.terminal &&
        (await ctx.store.deliveries.hasTerminalEvent({ accountId: d.accountId }, d.providerDeliveryId))
      )
        throw new AppError(
          'conflict',
          'provider_callback.superseded',
          'A terminal event of this provider delivery was received; its nonterminal events are not sent again.',
        );
    },
  );
  return recordOf(ctx, delivery);
}

function recordOf(ctx: WebhookContext, delivery: ProviderCallbackDelivery): ProviderCallbackRecord {
  let origin: string | null = null;
  try {
    origin = callbackOrigin(ctx.unseal.callbackUrl(delivery.providerDeliveryId, delivery.callbackUrlSealed));
  } catch {
    origin = null; // sealed under another key: the attempts say so; the listing still answers
  }
  return { delivery, callbackOrigin: origin };
}
