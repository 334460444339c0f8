import { AppError } from '@marketplace/errors';
import type { WebhookContext } from './context';
import { describeProviderCallback, type ProviderCallbackRecord } from './describe-provider-callback';
import { startNewRound } from './start-new-round';

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
  return describeProviderCallback(ctx, delivery);
}
