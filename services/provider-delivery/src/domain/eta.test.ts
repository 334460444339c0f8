import {
  DROPOFF_HANDOVER_SECONDS,
  estimateDelivery,
  etaChangedEnough,
  ETA_CHANGE_THRESHOLD_MS,
  PICKUP_HANDOVER_SECONDS,
  readyAt,
  travelSeconds,
  type EtaInput,
} from './eta';

const now = new Date('2030-01-01T12:00:00Z');
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
// 0.009° of latitude is about 1,000 m straight, 1,300 m on the road, 260 s at 18 km/h.
const pickup = { lat: 52.5, lng: 13.4 };
const dropoff = { lat: 52.509, lng: 13.4 };
const nearPickup = { lat: 52.491, lng: 13.4 };
const input = (overrides: Partial<EtaInput> = {}): EtaInput => ({
  status: 'driver_assigned',
  driver: nearPickup,
  pickup,
  dropoff,
  readyAt: now,
  timeScale: 1,
  ...overrides,
});

it('travel time: great-circle distance × 1.3 at 18 km/h', () => {
  expect(travelSeconds(pickup, dropoff)).toBeCloseTo((6_371_000 * 0.009 * (Math.PI / 180) * 1.3) / 5, 6);
  expect(Math.round(travelSeconds(pickup, dropoff))).toBe(260);
  expect(travelSeconds(pickup, pickup)).toBe(0);
});

it('the food is ready at creation plus the preparation time', () => {
  expect(readyAt(now, 15)).toEqual(at(15 * 60));
});

describe('estimated delivery time', () => {
  const leg = travelSeconds(pickup, dropoff);
  const toPickup = travelSeconds(nearPickup, pickup);

  it('before pickup: to the pickup, handover, to the drop-off, handover', () => {
    const expected = Math.round((toPickup + PICKUP_HANDOVER_SECONDS + leg + DROPOFF_HANDOVER_SECONDS) * 1000);
    for (const status of ['provider_accepted', 'driver_assigned'] as const)
      expect(estimateDelivery(input({ status }), now)).toEqual(new Date(now.getTime() + expected));
  });

  it('before pickup: waits at the pickup until the food is ready', () => {
    const ready = at(20 * 60);
    const expected = Math.round((PICKUP_HANDOVER_SECONDS + leg + DROPOFF_HANDOVER_SECONDS) * 1000);
    expect(estimateDelivery(input({ readyAt: ready }), now)).toEqual(new Date(ready.getTime() + expected));
    expect(estimateDelivery(input({ status: 'arrived_at_pickup', driver: pickup, readyAt: ready }), now)).toEqual(
      new Date(ready.getTime() + expected),
    );
  });

  it('after pickup: from where the driver is to the drop-off, ready time irrelevant', () => {
    const driver = { lat: 52.5045, lng: 13.4 };
    const expected = at(travelSeconds(driver, dropoff) + DROPOFF_HANDOVER_SECONDS);
    for (const status of ['picked_up', 'on_the_way'] as const) {
      const eta = estimateDelivery(input({ status, driver, readyAt: at(3600) }), now)!;
      expect(Math.abs(eta.getTime() - expected.getTime())).toBeLessThanOrEqual(1);
    }
  });

  it('none during a return or after a terminal status', () => {
    for (const status of ['return_requested', 'delivered', 'cancelled', 'failed'] as const)
      expect(estimateDelivery(input({ status }), now)).toBeNull();
  });
});

it('eta.updated: the first estimate, then only a change of more than 2 minutes either way', () => {
  expect(ETA_CHANGE_THRESHOLD_MS).toBe(120_000);
  expect(etaChangedEnough(null, now)).toBe(true);
  expect(etaChangedEnough(now, null)).toBe(false);
  expect(etaChangedEnough(null, null)).toBe(false);
  expect(etaChangedEnough(now, at(120))).toBe(false);
  expect(etaChangedEnough(now, at(-120))).toBe(false);
  expect(etaChangedEnough(now, at(121))).toBe(true);
  expect(etaChangedEnough(now, at(-121))).toBe(true);
});
