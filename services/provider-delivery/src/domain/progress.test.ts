import { NO_TRACKING, type Delivery } from './delivery';
import { decideProgress } from './progress';

const now = new Date('2030-01-01T10:00:00Z');
const delivery = (overrides: Partial<Delivery> = {}): Delivery => ({
  id: 'd',
  accountId: 'a',
  order: {} as Delivery['order'],
  status: 'provider_accepted',
  statusEventTimeUtc: new Date(0),
  tracking: NO_TRACKING(new Date(0)),
  lastSentLocation: null,
  returnReasonCode: null,
  timeScale: 1,
  trackingToken: 'trk_0123456789abcdefghijkl',
  driverId: null,
  offers: [],
  dispatchAt: null,
  failureReason: null,
  version: 1,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...overrides,
});

it('moves along the table and keeps the driver it is told', () => {
  const outcome = decideProgress(delivery(), { eventType: 'driver.assigned', driverName: 'Dana' }, now);
  expect(outcome).toMatchObject({ kind: 'apply', status: 'driver_assigned', event: 'driver.assigned' });
  expect(outcome.kind === 'apply' && outcome.tracking.driverName).toBe('Dana');
});

it('refuses a move the table does not have, and any event after a terminal status', () => {
  expect(decideProgress(delivery(), { eventType: 'delivery.delivered' }, now).kind).toBe('refused');
  const done = delivery({ status: 'delivered' });
  for (const eventType of ['delivery.failed', 'eta.updated', 'driver.location_updated'] as const)
    expect(decideProgress(done, { eventType, driverLat: 1, driverLng: 1, estimatedDeliveryAtUtc: now }, now).kind).toBe(
      'refused',
    );
});

it('requires the data an event needs, and the coordinates in pairs', () => {
  expect(decideProgress(delivery(), { eventType: 'driver.assigned' }, now)).toEqual({
    kind: 'invalid',
    errors: { driverName: ['is required for driver.assigned'] },
  });
  expect(decideProgress(delivery(), { eventType: 'eta.updated' }, now).kind).toBe('invalid');
  expect(decideProgress(delivery(), { eventType: 'tracking.updated', driverLat: 1 }, now).kind).toBe('invalid');
});

it('coalesces a location update too close in time to the last one sent', () => {
  const recent = delivery({
    status: 'driver_assigned',
    lastSentLocation: { at: new Date(now.getTime() - 1_000), lat: 52, lng: 13 },
  });
  const outcome = decideProgress(recent, { eventType: 'driver.location_updated', driverLat: 52.1, driverLng: 13 }, now);
  expect(outcome).toMatchObject({ kind: 'apply', event: null, tracking: { driverLat: 52.1 } });
});
