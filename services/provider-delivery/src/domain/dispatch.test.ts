import {
  decideDispatch,
  DISPATCH_RECHECK_MS,
  DISPATCH_WINDOW_MS,
  OFFER_TIMEOUT_MS,
  pickupTargetAt,
  type DispatchDriver,
  type DispatchRequest,
  type PastOffer,
} from './dispatch';
import { deliveryLegSeconds, travelSeconds } from './eta';

const now = new Date('2030-01-01T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const pickup = { lat: 52.5, lng: 13.4 };
const dropoff = { lat: 52.52, lng: 13.4 };
// About 260 s, 520 s and 780 s from the pickup.
const near = { lat: 52.491, lng: 13.4 };
const mid = { lat: 52.482, lng: 13.4 };
const far = { lat: 52.473, lng: 13.4 };

const request = (overrides: Partial<DispatchRequest> = {}): DispatchRequest => ({
  pickup,
  dropoff,
  readyAt: now,
  timeScale: 1,
  scheduledDeliveryAtUtc: null,
  offers: [],
  ...overrides,
});
const driver = (id: string, position = near, overrides: Partial<DispatchDriver> = {}): DispatchDriver => ({
  id,
  position,
  online: true,
  onShift: true,
  busy: false,
  ...overrides,
});
const offer = (driverId: string, outcome: PastOffer['outcome'], expiresAt = at(-1_000)): PastOffer => ({
  driverId,
  expiresAt,
  outcome,
});

it('offers the delivery to the nearest available driver, for 45 seconds', () => {
  const decision = decideDispatch(request(), [driver('far', far), driver('near', near), driver('mid', mid)], now);
  expect(decision).toEqual({ kind: 'offer', driverId: 'near', expiresAt: at(OFFER_TIMEOUT_MS) });
});

it('breaks a tie in travel time by driver id', () => {
  const drivers = [driver('b'), driver('c'), driver('a')];
  expect(decideDispatch(request(), drivers, now)).toMatchObject({ kind: 'offer', driverId: 'a' });
  expect(decideDispatch(request(), [...drivers].reverse(), now)).toMatchObject({ kind: 'offer', driverId: 'a' });
});

it('skips drivers who declined or let the offer time out, an expired pending offer included', () => {
  const drivers = [driver('a', near), driver('b', mid), driver('c', far), driver('d', far)];
  const offers = [offer('a', 'declined'), offer('b', 'timed_out'), offer('c', 'pending', at(-1))];
  expect(decideDispatch(request({ offers }), drivers, now)).toMatchObject({ kind: 'offer', driverId: 'd' });
});

it('waits for a pending offer to be answered or run out', () => {
  const offers = [offer('a', 'pending', at(30_000))];
  expect(decideDispatch(request({ offers }), [driver('a'), driver('b')], now)).toEqual({
    kind: 'wait',
    until: at(30_000),
    why: 'offer_pending',
  });
});

it('skips drivers offline, off shift or busy', () => {
  const drivers = [
    driver('a', near, { online: false }),
    driver('b', near, { onShift: false }),
    driver('c', near, { busy: true }),
    driver('d', far),
  ];
  expect(decideDispatch(request(), drivers, now)).toMatchObject({ kind: 'offer', driverId: 'd' });
});

it('waits until the driver, taking the offer at its last moment, would arrive when the food is ready', () => {
  const ready = at(20 * 60_000);
  const offerFrom = new Date(Math.round(ready.getTime() - travelSeconds(near, pickup) * 1000 - OFFER_TIMEOUT_MS));
  const drivers = [driver('a', near)];
  expect(decideDispatch(request({ readyAt: ready }), drivers, now)).toEqual({
    kind: 'wait',
    until: offerFrom,
    why: 'too_early',
  });
  expect(decideDispatch(request({ readyAt: ready }), drivers, new Date(offerFrom.getTime() - 1)).kind).toBe('wait');
  expect(decideDispatch(request({ readyAt: ready }), drivers, offerFrom)).toMatchObject({
    kind: 'offer',
    driverId: 'a',
  });
});

it('a driver farther away is offered earlier: the lead time is their travel time', () => {
  const ready = at(10 * 60_000);
  expect(decideDispatch(request({ readyAt: ready }), [driver('a', near)], now).kind).toBe('wait');
  expect(decideDispatch(request({ readyAt: ready }), [driver('c', far)], now)).toMatchObject({ kind: 'offer' });
});

describe('a scheduled delivery', () => {
  const scheduled = at(2 * 3600_000);
  const target = new Date(Math.round(scheduled.getTime() - deliveryLegSeconds(pickup, dropoff) * 1000));

  it('is picked up in time to arrive at the scheduled time, not when the food is ready', () => {
    expect(pickupTargetAt(request({ scheduledDeliveryAtUtc: scheduled }))).toEqual(target);
    const offerFrom = new Date(Math.round(target.getTime() - travelSeconds(near, pickup) * 1000 - OFFER_TIMEOUT_MS));
    expect(decideDispatch(request({ scheduledDeliveryAtUtc: scheduled }), [driver('a')], now)).toEqual({
      kind: 'wait',
      until: offerFrom,
      why: 'too_early',
    });
    expect(decideDispatch(request({ scheduledDeliveryAtUtc: scheduled }), [driver('a')], offerFrom).kind).toBe('offer');
  });

  it('still not before the food is ready, nor failed before its pickup time', () => {
    const ready = at(3 * 3600_000);
    expect(pickupTargetAt(request({ scheduledDeliveryAtUtc: scheduled, readyAt: ready }))).toEqual(ready);
    expect(pickupTargetAt(request({ scheduledDeliveryAtUtc: at(-3600_000) }))).toEqual(now);
    expect(decideDispatch(request({ scheduledDeliveryAtUtc: scheduled }), [], at(60 * 60_000)).kind).toBe('wait');
  });
});

describe('no driver takes it', () => {
  it('with no driver available: waits, checking again every 15 seconds, then fails after the window', () => {
    expect(decideDispatch(request(), [], now)).toEqual({
      kind: 'wait',
      until: at(DISPATCH_RECHECK_MS),
      why: 'no_driver',
    });
    expect(decideDispatch(request(), [driver('a', near, { busy: true })], at(5 * 60_000))).toEqual({
      kind: 'wait',
      until: at(5 * 60_000 + DISPATCH_RECHECK_MS),
      why: 'no_driver',
    });
    // The last check is at the end of the window, not after it.
    expect(decideDispatch(request(), [], at(DISPATCH_WINDOW_MS - 5_000))).toMatchObject({
      until: at(DISPATCH_WINDOW_MS),
    });
    expect(decideDispatch(request(), [], at(DISPATCH_WINDOW_MS))).toEqual({
      kind: 'fail',
      reason: 'no_driver_accepted',
      message: 'No driver was available within 10 minutes of its pickup time.',
    });
  });

  it('when every offer was declined or timed out: fails after the window with the count', () => {
    const offers = [offer('a', 'declined'), offer('b', 'timed_out')];
    const drivers = [driver('a'), driver('b')];
    expect(decideDispatch(request({ offers }), drivers, at(DISPATCH_WINDOW_MS - 1)).kind).toBe('wait');
    expect(decideDispatch(request({ offers }), drivers, at(DISPATCH_WINDOW_MS))).toEqual({
      kind: 'fail',
      reason: 'no_driver_accepted',
      message: 'No driver accepted the delivery within 10 minutes of its pickup time (2 drivers offered).',
    });
  });

  it('even with drivers still available, once the window is over; an offer still running is waited for', () => {
    expect(decideDispatch(request(), [driver('a')], at(DISPATCH_WINDOW_MS)).kind).toBe('fail');
    const running = [offer('a', 'pending', at(DISPATCH_WINDOW_MS + 20_000))];
    expect(decideDispatch(request({ offers: running }), [driver('b')], at(DISPATCH_WINDOW_MS))).toMatchObject({
      kind: 'wait',
      why: 'offer_pending',
    });
    expect(decideDispatch(request({ offers: running }), [driver('b')], at(DISPATCH_WINDOW_MS + 20_000))).toMatchObject({
      kind: 'fail',
      message: expect.stringContaining('(1 driver offered)'),
    });
  });
});
