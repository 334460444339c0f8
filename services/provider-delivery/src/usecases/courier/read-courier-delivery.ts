import type { Driver } from '../../domain/driver';
import { deliveryNotFound } from '../../domain/errors';
import type { ProviderContext } from '../context';

/** A delivery the driver carries or carried; 404 for any other. */
export async function readCourierDelivery(ctx: ProviderContext, driver: Driver, providerDeliveryId: string) {
  const delivery = await ctx.store.deliveries.find({ accountId: driver.accountId }, providerDeliveryId);
  if (!delivery || delivery.driverId !== driver.id) throw deliveryNotFound();
  return delivery;
}
