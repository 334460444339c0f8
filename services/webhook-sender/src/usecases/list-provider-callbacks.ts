import type { DeliveryStatus } from '../domain/delivery-status';
import type { WebhookContext } from './context';
import { describeProviderCallback, type ProviderCallbackRecord } from './describe-provider-callback';

/**
 * The callbacks of a platform account with their attempts, newest first, for provider-delivery's
 * operators (the administrator API, over every platform account).
 */
export async function listProviderCallbacks(
  ctx: WebhookContext,
  accountId: string,
  options: { providerDeliveryId?: string; status?: DeliveryStatus; limit: number },
): Promise<ProviderCallbackRecord[]> {
  const found = await ctx.store.deliveries.listForAccount({ accountId }, options);
  return found.map((delivery) => describeProviderCallback(ctx, delivery));
}
