import type { ProviderCreateDeliveryRequest } from '@marketplace/contracts';
import { orderOf, rejectionOf } from './create-rules';
import { testAccount } from './platform-account.fixture';

const account = (supportsScheduledDelivery = true) => testAccount({ supportsScheduledDelivery });

const request = (overrides: Partial<ProviderCreateDeliveryRequest> = {}): ProviderCreateDeliveryRequest => ({
  platformReference: 'r',
  idempotencyKey: 'r',
  pickupAddress: 'A',
  pickupLat: 52.5,
  pickupLng: 13.4,
  customerName: 'Ada',
  customerPhone: '+49 1',
  dropoffAddress: 'B',
  dropoffLat: 52.6,
  dropoffLng: 13.5,
  paymentMethod: 'cash',
  amount: 23.5,
  currency: 'EUR',
  preparationTimeMinutes: 0,
  ...overrides,
});

function order(overrides: Partial<ProviderCreateDeliveryRequest> = {}) {
  const checked = orderOf(request(overrides));
  if ('errors' in checked) throw new Error(JSON.stringify(checked.errors));
  return checked.order;
}

it('keeps money in minor units and absent optional fields as null', () => {
  expect(order({ deliveryFeeAmount: 2.99 })).toMatchObject({
    amountMinor: 2_350,
    deliveryFeeMinor: 299,
    notes: null,
    scheduledDeliveryAtUtc: null,
    customerEmail: null,
  });
});

it('refuses money with more than two decimals, naming each field', () => {
  expect(orderOf(request({ amount: 1.001, deliveryFeeAmount: 0.125 }))).toEqual({
    errors: { amount: ['must have at most two decimals'], deliveryFeeAmount: ['must have at most two decimals'] },
  });
});

it('rejects a scheduled time without the capability, before the area', () => {
  const scheduled = order({ scheduledDeliveryAtUtc: '2030-01-01T10:00:00Z', dropoffLat: 40 });
  expect(rejectionOf(account(false), scheduled)).toBe('scheduled_delivery_not_supported');
  expect(rejectionOf(account(true), scheduled)).toBe('outside_service_area');
});

it('rejects a pickup or a drop-off outside the service area, and accepts inside', () => {
  expect(rejectionOf(account(true), order({ pickupLng: 12.9 }))).toBe('outside_service_area');
  expect(rejectionOf(account(true), order({ dropoffLat: 53.1 }))).toBe('outside_service_area');
  expect(rejectionOf(account(true), order())).toBeNull();
});
