import type { StoredDelivery } from '../../domain/delivery';
import { deliveryNotFound } from '../../domain/errors';
import type { AccountOwner } from '../../domain/platform-account';
import type { ProviderContext } from '../context';

/** The account's delivery as it is (status and tracking reads). */
export async function readDelivery(
  ctx: ProviderContext,
  owner: AccountOwner,
  providerDeliveryId: string,
): Promise<StoredDelivery> {
  const delivery = await ctx.store.deliveries.find(owner, providerDeliveryId);
  if (!delivery) throw deliveryNotFound();
  return delivery;
}
