import type { StoredDelivery } from '../../domain/delivery';
import type { Driver } from '../../domain/driver';
import { isTerminal } from '../../domain/lifecycle';
import type { ProviderContext } from '../context';

/**
 * The courier API's use cases (this folder): what a driver app does. Every move goes through the one table of
 * moves (domain/progress.ts, as the operations API's reports do), so a courier can make no move an
 * operator could not; an illegal one is 409 `delivery.transition_not_allowed`. A driver reaches only
 * their own offer and the deliveries they carry or carried: any other is 404, as an unknown one.
 */

export interface CourierState {
  driver: Driver;
  /** The delivery offered to the driver while the offer runs. */
  offer: StoredDelivery | null;
  activeDelivery: StoredDelivery | null;
}

/**
 * What the app shows: the driver, their running offer and the delivery they carry. A delivery that
 * ended while the driver's release was lost (a crash between the two writes) frees them here.
 */
export async function readCourierState(ctx: ProviderContext, driver: Driver): Promise<CourierState> {
  const owner = { accountId: driver.accountId };
  const now = ctx.now();
  const offer =
    driver.offer && driver.offer.expiresAt > now
      ? ((await ctx.store.deliveries.find(owner, driver.offer.providerDeliveryId)) ?? null)
      : null;
  let active = driver.activeDeliveryId
    ? ((await ctx.store.deliveries.find(owner, driver.activeDeliveryId)) ?? null)
    : null;
  if (driver.activeDeliveryId && (!active || isTerminal(active.status) || active.driverId !== driver.id)) {
    await ctx.store.drivers.release(owner, driver.id, driver.activeDeliveryId, now);
    driver = { ...driver, activeDeliveryId: null };
    active = null;
  }
  return { driver, offer: offer && !isTerminal(offer.status) ? offer : null, activeDelivery: active };
}
