import type { ReceivedCallback } from '../../model';
import {
  byEventTime,
  distinctEvents,
  lifecycleEvents,
  nonterminalAfterTerminal,
  parsedCallbacks,
} from './lifecycle-events';

let clock = 0;
const callback = (event: unknown, answeredStatus = 204): ReceivedCallback => ({
  label: 'delivery-1',
  path: '/cb/token',
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from(typeof event === 'string' ? event : JSON.stringify(event)),
  receivedAt: ++clock,
  answeredStatus,
});
const ev = (eventType: string, status: string, eventTimeUtc: string) =>
  callback({ eventType, status, eventTimeUtc, platformReference: 'p1' });

describe('lifecycleEvents', () => {
  it('counts a retry once, drops statuses outside the vocabulary, stops at the first terminal event', () => {
    const accepted = ev('delivery.accepted', 'provider_accepted', '2026-01-01T10:00:00Z');
    const events = parsedCallbacks([
      accepted,
      { ...accepted, receivedAt: 99 },
      ev('tracking.updated', 'en_route', '2026-01-01T10:00:01Z'),
      ev('delivery.delivered', 'delivered', '2026-01-01T10:00:05Z'),
      ev('driver.location_updated', 'on_the_way', '2026-01-01T10:00:06Z'),
      callback('not json'),
    ]);
    expect(distinctEvents(events)).toHaveLength(5);
    expect(lifecycleEvents(events).map((e) => e.eventType)).toEqual(['delivery.accepted', 'delivery.delivered']);
  });
});

describe('byEventTime', () => {
  it('orders by eventTimeUtc, arrival order among equals, invalid times last', () => {
    const events = lifecycleEvents(
      parsedCallbacks([
        ev('b', 'picked_up', '2026-01-01T10:00:02+01:00'),
        ev('x', 'picked_up', 'yesterday'),
        ev('a', 'driver_assigned', '2026-01-01T09:00:01Z'),
        ev('c', 'picked_up', '2026-01-01T09:00:02Z'),
      ]),
    );
    expect(byEventTime(events).map((e) => e.eventType)).toEqual(['a', 'b', 'c', 'x']);
  });
});

describe('nonterminalAfterTerminal', () => {
  it('names a new nonterminal event after a terminal one, not a retry of an earlier one', () => {
    const early = ev('driver.location_updated', 'on_the_way', '2026-01-01T10:00:01Z');
    const late = ev('driver.location_updated', 'on_the_way', '2026-01-01T10:00:09Z');
    const events = parsedCallbacks([
      early,
      ev('delivery.delivered', 'delivered', '2026-01-01T10:00:05Z'),
      { ...early },
      late,
    ]);
    expect(nonterminalAfterTerminal(events).map((e) => e.event.eventTimeUtc)).toEqual(['2026-01-01T10:00:09Z']);
  });
  it('ignores a status outside the vocabulary', () => {
    const events = parsedCallbacks([
      ev('delivery.delivered', 'delivered', '2026-01-01T10:00:05Z'),
      ev('x', 'en_route', '2026-01-01T10:00:06Z'),
    ]);
    expect(nonterminalAfterTerminal(events)).toEqual([]);
  });
});
