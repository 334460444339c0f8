import { NO_TRACKING, type StoredDelivery } from './delivery';
import { ETA_CHANGE_THRESHOLD_MS } from './eta';
import { progressWithEstimate } from './progress-estimate';

// The estimate that follows a courier's report (pure): eta.updated for the first estimate and then
// only when it moved by more than the threshold, on the delivery's clock.

const now = new Date('2030-01-01T12:00:00Z');
const pickup = { pickupLat: 52.5, pickupLng: 13.4 };
const dropoff = { dropoffLat: 52.509, dropoffLng: 13.4 };

const delivery = (overrides: Partial<StoredDelivery> = {}): StoredDelivery => ({
  id: 'd',
  accountId: 'a',
  order: { ...pickup, ...dropoff, preparationTimeMinutes: 0, notes: null } as StoredDelivery['order'],
  status: 'driver_assigned',
  statusEventTimeUtc: now,
  tracking: { ...NO_TRACKING(now), driverName: 'Dana', driverLat: 52.491, driverLng: 13.4 },
  lastSentLocation: null,
  returnReasonCode: null,
  timeScale: 1,
  trackingToken: 'trk_0123456789abcdefghijkl',
  driverId: 'driver',
  offers: [],
  dispatchAt: null,
  failureReason: null,
  version: 3,
  createdAt: now,
  updatedAt: now,
  callbackSource: 'none',
  callbackUrlSealed: null,
  ...overrides,
});

it('sends the first estimate with the move that makes it known', () => {
  const decision = progressWithEstimate(delivery(), { eventType: 'driver.arrived_at_pickup' }, now);
  expect(decision.events).toEqual(['driver.arrived_at_pickup', 'eta.updated']);
  expect(decision.changes?.tracking?.estimatedDeliveryAtUtc).toBeInstanceOf(Date);
});

it('keeps a close estimate without an event, and sends one that moved past the threshold', () => {
  const first = progressWithEstimate(delivery(), { eventType: 'driver.arrived_at_pickup' }, now);
  const known = first.changes!.tracking!.estimatedDeliveryAtUtc!;
  const atPickup = delivery({ status: 'arrived_at_pickup', tracking: { ...first.changes!.tracking! } });
  // The same estimate a minute later is a minute later: within the 2-minute threshold.
  const later = new Date(now.getTime() + 60_000);
  const quiet = progressWithEstimate(atPickup, { eventType: 'delivery.picked_up' }, later);
  expect(quiet.events).toEqual(['delivery.picked_up']);
  expect(quiet.changes?.tracking?.estimatedDeliveryAtUtc).toEqual(known);
  // Much later, the estimate moves by more than the threshold.
  const muchLater = new Date(now.getTime() + ETA_CHANGE_THRESHOLD_MS * 3);
  const moved = progressWithEstimate(atPickup, { eventType: 'delivery.picked_up' }, muchLater);
  expect(moved.events).toEqual(['delivery.picked_up', 'eta.updated']);
});

it('counts the threshold on the delivery’s clock: 2 minutes are 2 seconds at 60 times faster', () => {
  const tenSecondsLater = new Date(now.getTime() + 10_000);
  const pickedUpLater = (timeScale: number) => {
    const first = progressWithEstimate(delivery({ timeScale }), { eventType: 'driver.arrived_at_pickup' }, now);
    const atPickup = delivery({ timeScale, status: 'arrived_at_pickup', tracking: { ...first.changes!.tracking! } });
    return progressWithEstimate(atPickup, { eventType: 'delivery.picked_up' }, tenSecondsLater).events;
  };
  // Ten seconds move the estimate by about ten seconds: nothing at real time, past 2 s at 60×.
  expect(pickedUpLater(1)).toEqual(['delivery.picked_up']);
  expect(pickedUpLater(60)).toEqual(['delivery.picked_up', 'eta.updated']);
});

it('sends no estimate at the end nor during a return, and refuses an illegal move with 409', () => {
  const done = progressWithEstimate(delivery({ status: 'on_the_way' }), { eventType: 'delivery.delivered' }, now);
  expect(done.events).toEqual(['delivery.delivered']);
  const returning = progressWithEstimate(
    delivery({ status: 'return_requested', tracking: { ...delivery().tracking, estimatedDeliveryAtUtc: now } }),
    { eventType: 'delivery.returning_to_origin' },
    now,
  );
  expect(returning.events).toEqual(['delivery.returning_to_origin']);
  expect(returning.changes?.tracking?.estimatedDeliveryAtUtc).toBeNull();
  expect(() => progressWithEstimate(delivery(), { eventType: 'delivery.delivered' }, now)).toThrow(
    expect.objectContaining({ code: 'delivery.transition_not_allowed' }),
  );
});
