import type { AreaGeometry } from '@marketplace/geo';
import { areaContains } from '@marketplace/geo';
import { DROPOFF_HANDOVER_SECONDS, PICKUP_HANDOVER_SECONDS, travelSeconds } from '../domain/eta';
import {
  idleDriver,
  randomPointIn,
  simulatedIdentity,
  stepSimulatedDriver,
  type CourierCall,
  type SimDelivery,
  type SimDriverState,
  type SimMe,
  type StepInput,
} from './simulated-driver';

const t0 = new Date('2030-01-01T12:00:00Z').getTime();
const at = (ms: number) => new Date(t0 + ms);
// Along a meridian: 0.009° of latitude is about 1,000 m straight, 260 s at eta.ts's speed.
const start = { lat: 52.491, lng: 13.4 };
const pickup = { lat: 52.5, lng: 13.4 };
const dropoff = { lat: 52.509, lng: 13.4 };
const SCALE = 10;
const toPickupMs = (travelSeconds(start, pickup) * 1000) / SCALE;
const legMs = (travelSeconds(pickup, dropoff) * 1000) / SCALE;
const pickupHandoverMs = (PICKUP_HANDOVER_SECONDS * 1000) / SCALE;
const dropoffHandoverMs = (DROPOFF_HANDOVER_SECONDS * 1000) / SCALE;

const delivery = (overrides: Partial<SimDelivery> = {}): SimDelivery => ({
  providerDeliveryId: 'd1',
  status: 'driver_assigned',
  pickup,
  dropoff,
  notes: null,
  readyAt: at(0).toISOString(),
  timeScale: SCALE,
  ...overrides,
});
const me = (active: SimDelivery | null, offer: SimMe['offer'] = null): SimMe => ({ offer, activeDelivery: active });
const step = (state: SimDriverState, ms: number, input: Partial<StepInput> = {}) =>
  stepSimulatedDriver(state, { now: at(ms), declined: new Set(), ...input });
const events = (calls: CourierCall[]) => calls.flatMap((c) => (c.kind === 'event' ? [c.eventType] : []));

/** Steps every `everyMs` from `fromMs` while `until` is false; the calls and state at each step. */
function run(state: SimDriverState, fromMs: number, everyMs: number, until: (calls: CourierCall[]) => boolean) {
  const log: { ms: number; calls: CourierCall[]; state: SimDriverState }[] = [];
  let s = state;
  for (let ms = fromMs; ms < fromMs + 600_000; ms += everyMs) {
    const next = step(s, ms);
    s = next.state;
    log.push({ ms, calls: next.calls, state: s });
    if (until(next.calls)) return { state: s, log, ms };
  }
  throw new Error('never happened');
}

/** A driver that has just taken delivery d1 (the poll after its accept), at t0. */
const assigned = (overrides: Partial<SimDelivery> = {}) =>
  step(idleDriver(start, at(0)), 0, { me: me(delivery(overrides)) }).state;

describe('offers', () => {
  const offer = { providerDeliveryId: 'd1', expiresAt: at(45_000).toISOString() };

  it('accepts a running offer and lets an expired one be', () => {
    expect(step(idleDriver(start, at(0)), 0, { me: me(null, offer) }).calls).toEqual([
      { kind: 'accept', providerDeliveryId: 'd1' },
    ]);
    expect(step(idleDriver(start, at(0)), 45_000, { me: me(null, offer) }).calls).toEqual([]);
  });

  it('sim:decline: declines a delivery no simulated driver declined yet, and accepts it after', () => {
    const marked = { ...offer, notes: 'ring twice sim:decline' };
    expect(step(idleDriver(start, at(0)), 0, { me: me(null, marked) }).calls).toEqual([
      { kind: 'decline', providerDeliveryId: 'd1' },
    ]);
    expect(step(idleDriver(start, at(0)), 0, { me: me(null, marked), declined: new Set(['d1']) }).calls).toEqual([
      { kind: 'accept', providerDeliveryId: 'd1' },
    ]);
  });

  it('answers an offer only from a fresh poll, and never while carrying a delivery', () => {
    expect(step(idleDriver(start, at(0)), 0).calls).toEqual([]);
    const busy = step(assigned(), 100, { me: me(delivery(), offer) });
    expect(busy.calls.filter((c) => c.kind === 'accept' || c.kind === 'decline')).toEqual([]);
  });
});

describe('riding', () => {
  it('reaches the pickup after travelSeconds / timeScale, reporting its position on the way', () => {
    const { state, log, ms } = run(assigned(), 250, 250, (calls) => events(calls).includes('driver.arrived_at_pickup'));
    expect(state.arrivedAtMs).toBeCloseTo(t0 + toPickupMs, 3);
    expect(ms).toBe(Math.ceil(toPickupMs / 250) * 250);
    // Every step on the way reported a position nearer the pickup, along the straight line.
    const lats = log.flatMap((l) => l.calls.flatMap((c) => (c.kind === 'location' ? [c.position.lat] : [])));
    expect(lats.length).toBe(log.length);
    expect([...lats].sort((a, b) => a - b)).toEqual(lats);
    expect(lats.at(-1)).toBe(pickup.lat);
    expect(state.position).toEqual(pickup);
  });

  it('takes travelSeconds / timeScale on a diagonal too, whatever the step length', () => {
    const from = { lat: 52.49, lng: 13.38 };
    const expected = (travelSeconds(from, pickup) * 1000) / SCALE;
    for (const every of [100, 250, 1_000]) {
      const s = step(idleDriver(from, at(0)), 0, { me: me(delivery()) }).state;
      const { state } = run(s, every, every, (calls) => events(calls).includes('driver.arrived_at_pickup'));
      expect(Math.abs(state.arrivedAtMs! - (t0 + expected))).toBeLessThan(expected * 0.001);
    }
  });

  it('reports its position at most every locationEveryMs', () => {
    let s = assigned();
    const reports: number[] = [];
    for (let ms = 100; ms < 5_000; ms += 100) {
      const next = stepSimulatedDriver(s, { now: at(ms), declined: new Set(), locationEveryMs: 500 });
      s = next.state;
      if (next.calls.some((c) => c.kind === 'location')) reports.push(ms);
    }
    expect(reports).toEqual([100, 600, 1100, 1600, 2100, 2600, 3100, 3600, 4100, 4600]);
  });

  it('reports nothing while idle', () => {
    expect(step(idleDriver(start, at(0)), 10_000, { me: me(null) }).calls).toEqual([]);
  });
});

describe('the lifecycle', () => {
  const arrival = toPickupMs;

  it('waits at the pickup until the food is ready and handed over, then leaves at once', () => {
    const readyAt = at(arrival + 5_000).toISOString();
    const s = step(assigned({ readyAt }), arrival + 1).state;
    expect(s.phase).toBe('waiting_at_pickup');
    const pickedUpAt = arrival + 5_000 + pickupHandoverMs;
    expect(events(step(s, pickedUpAt - 1).calls)).toEqual([]);
    const next = step(s, pickedUpAt);
    expect(events(next.calls)).toEqual(['delivery.picked_up', 'delivery.on_the_way']);
    expect(next.state).toMatchObject({ phase: 'to_dropoff', delivery: { status: 'on_the_way' } });
  });

  it('a driver arriving after the food is ready only hands over', () => {
    const s = step(assigned(), arrival + 1).state;
    const pickedUpAt = Math.ceil(arrival + pickupHandoverMs);
    expect(events(step(s, pickedUpAt - 1).calls)).toEqual([]);
    expect(events(step(s, pickedUpAt).calls)).toEqual(['delivery.picked_up', 'delivery.on_the_way']);
  });

  it('delivers at the door after its handover: the timing of eta.ts, played in one step or in many', () => {
    const deliveredAt = arrival + pickupHandoverMs + legMs + dropoffHandoverMs;
    const one = step(assigned(), deliveredAt + 1);
    expect(one.calls.map((c) => (c.kind === 'event' ? c.eventType : c.kind))).toEqual([
      'location',
      'driver.arrived_at_pickup',
      'delivery.picked_up',
      'delivery.on_the_way',
      'location',
      'delivery.delivered',
    ]);
    expect(one.calls[4]).toEqual({ kind: 'location', position: dropoff });
    expect(one.state).toMatchObject({ phase: 'idle', delivery: null, position: dropoff });
    expect(events(step(assigned(), deliveredAt - 1).calls)).not.toContain('delivery.delivered');

    const many = run(assigned(), 250, 250, (calls) => events(calls).includes('delivery.delivered'));
    expect(many.ms).toBe(Math.ceil(deliveredAt / 250) * 250);
  });

  it('sim:fail: fails at the door, customer unreachable', () => {
    const { log } = run(assigned({ notes: 'sim:fail' }), 250, 250, (calls) =>
      events(calls).includes('delivery.failed'),
    );
    const last = log.at(-1)!.calls.filter((c) => c.kind === 'event');
    expect(last).toEqual([
      { kind: 'event', providerDeliveryId: 'd1', eventType: 'delivery.failed', reason: 'customer_unreachable' },
    ]);
    expect(log.at(-1)!.state.phase).toBe('idle');
  });

  it('a return: reports returning_to_origin, rides back and reports returned_to_origin after the handover', () => {
    const halfwayAt = Math.round(arrival + pickupHandoverMs + legMs / 2);
    const onTheWay = step(assigned(), halfwayAt).state;
    expect(onTheWay.phase).toBe('to_dropoff');
    const halfway = onTheWay.position;
    // The poll that brings the request comes a tick later; the ride back is played from the last step.
    const asked = step(onTheWay, halfwayAt + 250, { me: me(delivery({ status: 'return_requested' })) });
    expect(asked.calls.filter((c) => c.kind === 'event').map((c) => c.kind === 'event' && c.eventType)).toEqual([
      'delivery.returning_to_origin',
    ]);
    expect(asked.state).toMatchObject({ phase: 'returning', delivery: { status: 'returning_to_origin' } });
    const back = (travelSeconds(halfway, pickup) * 1000) / SCALE;
    const due = halfwayAt + back + pickupHandoverMs;
    expect(events(step(asked.state, due - 5).calls)).toEqual([]);
    const done = step(asked.state, due + 5);
    expect(events(done.calls)).toEqual(['delivery.returned_to_origin']);
    expect(done.state).toMatchObject({ phase: 'idle', position: pickup });
  });

  it('goes idle without a word when the delivery is cancelled, ended or gone', () => {
    const riding = step(assigned(), 1_000).state;
    for (const answer of [me(delivery({ status: 'cancelled' })), me(delivery({ status: 'delivered' })), me(null)]) {
      const next = step(riding, 1_250, { me: answer });
      expect(next.calls).toEqual([]);
      expect(next.state).toMatchObject({ phase: 'idle', delivery: null });
      expect(next.state.position).toEqual(riding.position);
    }
  });

  it('the server wins: a report that did not get through is made again', () => {
    const arrived = step(assigned(), arrival + 1).state;
    expect(arrived.delivery?.status).toBe('arrived_at_pickup');
    // The server still says driver_assigned: the arrival was lost, so it is reported again.
    const again = step(arrived, arrival + 300, { me: me(delivery()) });
    expect(events(again.calls)).toEqual(['driver.arrived_at_pickup']);
    // Picked up but not on the way (the second call failed): on_the_way again, and the ride goes on.
    const left = step(arrived, arrival + pickupHandoverMs + 1_000, { me: me(delivery({ status: 'picked_up' })) });
    expect(events(left.calls)).toEqual(['delivery.on_the_way']);
    expect(left.state.phase).toBe('to_dropoff');
  });

  it('takes up a delivery found on the first poll (a restart) in whatever status it is', () => {
    const s = step(idleDriver(pickup, at(0)), 0, { me: me(delivery({ status: 'arrived_at_pickup' })) });
    expect(s.state).toMatchObject({ phase: 'waiting_at_pickup', arrivedAtMs: t0 });
    expect(events(step(s.state, pickupHandoverMs).calls)).toEqual(['delivery.picked_up', 'delivery.on_the_way']);
  });

  it('is deterministic', () => {
    const a = run(assigned(), 137, 137, (calls) => events(calls).includes('delivery.delivered'));
    const b = run(assigned(), 137, 137, (calls) => events(calls).includes('delivery.delivered'));
    expect(a.log).toEqual(b.log);
  });
});

describe('new drivers', () => {
  /** A seeded generator (mulberry32), so the draw is repeatable. */
  const seeded = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // A square with a square hole in its middle, and a triangle: the bounding box has room outside.
  const area: AreaGeometry = {
    type: 'MultiPolygon',
    coordinates: [
      [
        [
          [13.3, 52.4],
          [13.5, 52.4],
          [13.5, 52.6],
          [13.3, 52.6],
          [13.3, 52.4],
        ],
        [
          [13.35, 52.45],
          [13.45, 52.45],
          [13.45, 52.55],
          [13.35, 52.55],
          [13.35, 52.45],
        ],
      ],
      [
        [
          [13.6, 52.4],
          [13.7, 52.4],
          [13.6, 52.5],
          [13.6, 52.4],
        ],
      ],
    ],
  };

  it('start at random points inside the service area', () => {
    const random = seeded(7);
    for (let i = 0; i < 500; i++) {
      const p = randomPointIn(area, random);
      expect(areaContains(area, { latitude: p.lat, longitude: p.lng })).toBe(true);
    }
    expect(randomPointIn(area, seeded(1))).toEqual(randomPointIn(area, seeded(1)));
  });

  it('start on a vertex of the area when the draw keeps missing', () => {
    expect(randomPointIn(area, () => 0.99)).toEqual({ lat: 52.4, lng: 13.3 });
  });

  it('have a first name, a fake phone and a vehicle', () => {
    expect(simulatedIdentity(1)).toEqual({ name: 'Anna', phone: '+49 170 0000 001', vehicle: 'bicycle' });
    expect(simulatedIdentity(13)).toMatchObject({ name: 'Anna', phone: '+49 170 0000 013', vehicle: 'bicycle' });
    expect(simulatedIdentity(1000).phone).toBe('+49 170 0001 000');
  });
});
