import type { COURIER_EVENT_TYPES, ProviderEventTypeName } from '@marketplace/contracts';
import { validationError } from '@marketplace/errors';
import type { StoredDelivery } from '../../domain/delivery';
import type { Driver } from '../../domain/driver';
import { deliveryNotFound } from '../../domain/errors';
import { progressWithEstimate } from '../../domain/progress-estimate';
import type { ProviderContext } from '../context';
import { changeDelivery } from '../deliveries/change-delivery';

/** The moves a courier reports (the contract's COURIER_EVENT_TYPES: a return request and a cancellation are the platform's). */
export type CourierEventType = (typeof COURIER_EVENT_TYPES)[number];
/** A failure needs its reason: the contract's event has none, so operators read it on the delivery. */
const NEEDS_REASON: readonly CourierEventType[] = ['delivery.failed', 'delivery.return_failed'];

/** A move the driver reports on the delivery they carry (the table of moves decides), with its estimate. */
export async function reportCourierEvent(
  ctx: ProviderContext,
  driver: Driver,
  providerDeliveryId: string,
  eventType: CourierEventType,
  reason: string | null,
): Promise<{ status: StoredDelivery['status']; eventsSent: ProviderEventTypeName[] }> {
  if (NEEDS_REASON.includes(eventType) && !reason)
    throw validationError('request.invalid', 'The report is invalid.', { reason: [`is required for ${eventType}`] });
  const owner = { accountId: driver.accountId };
  const result = await changeDelivery(ctx, owner, providerDeliveryId, (delivery, now) => {
    if (delivery.driverId !== driver.id) throw deliveryNotFound();
    const position = driver.position ? { driverLat: driver.position.lat, driverLng: driver.position.lng } : {};
    const decision = progressWithEstimate(delivery, { eventType, ...position }, now);
    if (NEEDS_REASON.includes(eventType)) decision.changes = { ...decision.changes, failureReason: reason };
    return decision;
  });
  if (NEEDS_REASON.includes(eventType))
    ctx.logger.info(
      { accountId: driver.accountId, providerDeliveryId, eventType, reason },
      'courier reported a failure',
    );
  return result;
}
