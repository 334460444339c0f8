import type { Driver } from '../../domain/driver';
import { trackingUrlOf, type StoredDelivery } from '../../domain/delivery';
import { offerGone } from '../../domain/errors';
import { progressWithEstimate } from '../../domain/progress-estimate';
import type { ProgressReport } from '../../domain/progress';
import type { ProviderContext } from '../context';
import { changeDelivery } from '../deliveries/change-delivery';

/**
 * The driver takes the delivery: first their own record (the offer must still run, and they must
 * carry nothing), then the delivery (still waiting for this driver's offer), which moves to
 * driver_assigned with the driver's name, phone and position, its tracking page and an estimate.
 * If the delivery moved on meanwhile (cancelled), the driver is given back and the answer is 409.
 */
export async function acceptOffer(
  ctx: ProviderContext,
  driver: Driver,
  providerDeliveryId: string,
): Promise<StoredDelivery> {
  const owner = { accountId: driver.accountId };
  if (!(await ctx.store.drivers.takeOffered(owner, driver.id, providerDeliveryId, ctx.now()))) throw offerGone();
  try {
    return await changeDelivery(ctx, owner, providerDeliveryId, (delivery, now) => {
      const offer = delivery.offers.find((o) => o.driverId === driver.id && o.outcome === 'pending');
      if (!offer || delivery.driverId !== null) throw offerGone();
      const report: ProgressReport = {
        eventType: 'driver.assigned',
        driverName: driver.name,
        driverPhone: driver.phone,
        ...(driver.position ? { driverLat: driver.position.lat, driverLng: driver.position.lng } : {}),
        trackingUrl: trackingUrlOf(ctx.publicBaseUrl, delivery.trackingToken),
      };
      const decision = progressWithEstimate(delivery, report, now);
      return {
        ...decision,
        changes: {
          ...decision.changes,
          driverId: driver.id,
          dispatchAt: null,
          offers: delivery.offers.map((o) => (o === offer ? { ...o, outcome: 'accepted' as const } : o)),
        },
        answer: { ...delivery, ...decision.changes, driverId: driver.id },
      };
    });
  } catch (error) {
    await ctx.store.drivers.release(owner, driver.id, providerDeliveryId, ctx.now());
    throw error;
  }
}
