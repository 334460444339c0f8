import { testAccount } from './platform-account.fixture';
import { planUpdate, updateFieldErrors } from './update-rules';

const account = (supportsScheduledDelivery = true) => testAccount({ supportsScheduledDelivery });
const dropoff = { dropoffAddress: 'New 1', dropoffLat: 52.5, dropoffLng: 13.5 };

it('changes the drop-off before pickup, refuses it after, answering on its three fields', () => {
  const before = planUpdate(account(), 'driver_assigned', dropoff);
  expect(before.changes).toEqual(dropoff);
  expect(before.fieldAccepted).toEqual({ dropoffAddress: true, dropoffLat: true, dropoffLng: true });
  const after = planUpdate(account(), 'picked_up', { ...dropoff, customerName: 'Ada C.' });
  expect(after.changes).toEqual({ customerName: 'Ada C.' });
  expect(after.fieldAccepted).toEqual({
    dropoffAddress: false,
    dropoffLat: false,
    dropoffLng: false,
    customerName: true,
  });
  expect(after.reasons).toEqual(['the drop-off changes only before pickup']);
});

it('refuses a drop-off outside the service area', () => {
  const plan = planUpdate(account(), 'provider_accepted', { ...dropoff, dropoffLat: 48.1 });
  expect(plan.fieldAccepted.dropoffLat).toBe(false);
  expect(plan.reasons).toEqual(['the new drop-off lies outside the service area']);
});

it('leaves a field sent as null unchanged and answers true', () => {
  const plan = planUpdate(account(), 'provider_accepted', { notes: null, customerPhone: '+49 2' });
  expect(plan.fieldAccepted).toEqual({ notes: true, customerPhone: true });
  expect(plan.changes).toEqual({ customerPhone: '+49 2' });
});

it('converts money to minor units, and the scheduled time needs the capability', () => {
  expect(planUpdate(account(), 'provider_accepted', { amount: 12.3 }).changes).toEqual({ amountMinor: 1230 });
  const noCapability = planUpdate(account(false), 'provider_accepted', {
    scheduledDeliveryAtUtc: '2030-01-01T00:00:00Z',
  });
  expect(noCapability.fieldAccepted).toEqual({ scheduledDeliveryAtUtc: false });
  expect(updateFieldErrors({ amount: 1.234, deliveryFeeAmount: 2.5 })).toEqual({
    amount: ['must have at most two decimals'],
  });
});

it('changes nothing in a terminal status, and says the status', () => {
  const plan = planUpdate(account(), 'delivered', { notes: 'x' });
  expect(plan.fieldAccepted).toEqual({ notes: false });
  expect(plan.reasons).toEqual(['the delivery is delivered']);
});
