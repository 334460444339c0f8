import { notFound } from '@marketplace/errors';
import type { WebhookContext } from './context';
import { describeProviderCallback, type ProviderCallbackRecord } from './describe-provider-callback';

/** One provider callback with its body and attempts, whatever its account (a partner webhook is 404). */
export async function getProviderCallback(ctx: WebhookContext, deliveryId: string): Promise<ProviderCallbackRecord> {
  const delivery = await ctx.store.deliveries.findProviderCallback(deliveryId);
  if (!delivery) throw notFound();
  return describeProviderCallback(ctx, delivery);
}
