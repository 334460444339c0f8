import type { PROVIDER_REJECTION_REASONS, ProviderCreateDeliveryRequest } from '@marketplace/contracts';
import type { FieldErrors } from '@marketplace/errors';
import { areaContains } from '@marketplace/geo';
import { toMinorUnits, type DeliveryOrder } from './delivery';
import type { PlatformAccount } from './platform-account';

/**
 * The create request's rules beyond its schema, without I/O: the decimals of money (a schema's
 * `multipleOf` misjudges binary fractions), and the business decisions that answer `accepted:
 * false` (the contract leaves their set open; ours, in order):
 * - `scheduled_delivery_not_supported`: a scheduled time, and the account lacks the capability;
 * - `outside_service_area`: the pickup or the drop-off lies outside the account's service area.
 */
export function orderOf(request: ProviderCreateDeliveryRequest): { order: DeliveryOrder } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const amountMinor = toMinorUnits(request.amount);
  if (amountMinor === undefined) errors.amount = ['must have at most two decimals'];
  const fee = request.deliveryFeeAmount ?? null;
  const deliveryFeeMinor = fee === null ? null : toMinorUnits(fee);
  if (deliveryFeeMinor === undefined) errors.deliveryFeeAmount = ['must have at most two decimals'];
  if (Object.keys(errors).length > 0) return { errors };
  return {
    order: {
      platformReference: request.platformReference,
      pickupAddress: request.pickupAddress,
      pickupLat: request.pickupLat,
      pickupLng: request.pickupLng,
      customerName: request.customerName,
      customerPhone: request.customerPhone,
      customerEmail: null,
      dropoffAddress: request.dropoffAddress,
      dropoffLat: request.dropoffLat,
      dropoffLng: request.dropoffLng,
      paymentMethod: request.paymentMethod,
      amountMinor: amountMinor!,
      deliveryFeeMinor: deliveryFeeMinor ?? null,
      currency: request.currency,
      notes: request.notes ?? null,
      preparationTimeMinutes: request.preparationTimeMinutes,
      scheduledDeliveryAtUtc: request.scheduledDeliveryAtUtc ? new Date(request.scheduledDeliveryAtUtc) : null,
    },
  };
}

export type RejectionReason = keyof typeof PROVIDER_REJECTION_REASONS;

/** Why the account's request is refused (answered 200 `accepted: false`), or null to accept it. */
export function rejectionOf(account: PlatformAccount, order: DeliveryOrder): RejectionReason | null {
  if (order.scheduledDeliveryAtUtc !== null && !account.capabilities.supportsScheduledDelivery)
    return 'scheduled_delivery_not_supported';
  if (
    !servesPoint(account, order.pickupLat, order.pickupLng) ||
    !servesPoint(account, order.dropoffLat, order.dropoffLng)
  )
    return 'outside_service_area';
  return null;
}

export const servesPoint = (account: PlatformAccount, latitude: number, longitude: number): boolean =>
  areaContains(account.serviceArea, { latitude, longitude });
