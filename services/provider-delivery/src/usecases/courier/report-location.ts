import type { ProviderEventTypeName } from '@marketplace/contracts';
import type { Driver } from '../../domain/driver';
import { isTerminal } from '../../domain/lifecycle';
import { progressWithEstimate } from '../../domain/progress-estimate';
import type { ProviderContext } from '../context';
import { changeDelivery } from '../deliveries/change-delivery';

/**
 * The driver's position: kept on the driver, and for the delivery they carry, the tracking
 * position (driver.location_updated, coalesced: domain/delivery.ts) and the estimate (eta.updated
 * when it moved by more than the threshold).
 */
export async function reportLocation(
  ctx: ProviderContext,
  driver: Driver,
  point: { lat: number; lng: number },
): Promise<{ eventsSent: ProviderEventTypeName[] }> {
  const owner = { accountId: driver.accountId };
  await ctx.store.drivers.setPosition(owner, driver.id, { ...point, at: ctx.now() });
  if (driver.activeDeliveryId === null) return { eventsSent: [] };
  try {
    const { eventsSent } = await changeDelivery(ctx, owner, driver.activeDeliveryId, (delivery, now) => {
      if (delivery.driverId !== driver.id || isTerminal(delivery.status))
        return { answer: { status: delivery.status, eventsSent: [] } };
      return progressWithEstimate(
        delivery,
        { eventType: 'driver.location_updated', driverLat: point.lat, driverLng: point.lng },
        now,
      );
    });
    return { eventsSent };
  } catch (error) {
    // The delivery ended or went away between the two reads: the position is kept, nothing to send.
    if ((error as { code?: string }).code === 'delivery.not_found') return { eventsSent: [] };
    throw error;
  }
}
