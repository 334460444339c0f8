import { randomBytes } from 'node:crypto';
import type { Declaration } from '../model';
import type { CallbackBox } from '../test-api';

/** A fresh platform reference: the platform's correlation id, also the idempotency key (as the contract says, "currently equal"). */
export const newPlatformReference = (): string => `sdp-${randomBytes(12).toString('hex')}`;

/**
 * A valid create request from the declaration's area. `overrides` replace fields; a value
 * `undefined` removes the field (to leave a required one out).
 */
export function buildDeliveryRequest(
  declaration: Declaration,
  overrides: Record<string, unknown> = {},
  callback: CallbackBox | null = null,
): Record<string, unknown> {
  const reference = newPlatformReference();
  const { pickup, dropoff } = declaration.area;
  const request: Record<string, unknown> = {
    platformReference: reference,
    idempotencyKey: reference,
    pickupAddress: pickup.address,
    pickupLat: pickup.lat,
    pickupLng: pickup.lng,
    customerName: 'Conformance Customer',
    customerPhone: '+49 30 1234567',
    dropoffAddress: dropoff.address,
    dropoffLat: dropoff.lat,
    dropoffLng: dropoff.lng,
    paymentMethod: 'card',
    amount: 23.5,
    deliveryFeeAmount: 2.99,
    currency: 'EUR',
    notes: 'sdp-conformance test delivery',
    preparationTimeMinutes: 0,
  };
  if (callback) request.webhook = { url: callback.url };
  for (const [field, value] of Object.entries(overrides)) {
    if (value === undefined) delete request[field];
    else request[field] = value;
  }
  return request;
}
