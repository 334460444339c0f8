import { createHmac } from 'node:crypto';
import type { ReceivedCallback } from '../../model';
import {
  afterTerminalProblems,
  eventTypeProblems,
  identifierProblems,
  requiredFieldProblems,
  retryOf,
  signatureProblems,
  tableProblems,
  transitionProblems,
  vocabularyProblems,
  type DeliveryCallbacks,
} from './lifecycle-event-checks';
import { parsedCallbacks } from './lifecycle-events';

const SECRET = 'whsec-test';
let clock = 0;
const callback = (event: Record<string, unknown>, extra: Partial<ReceivedCallback> = {}): ReceivedCallback => {
  const body = Buffer.from(JSON.stringify({ platformReference: 'p1', providerDeliveryId: 'd1', ...event }));
  return {
    label: 'delivery-p1',
    path: '/cb/x',
    headers: {
      'content-type': 'application/json',
      'x-platform-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
    },
    body,
    receivedAt: ++clock,
    answeredStatus: 204,
    ...extra,
  };
};
const delivery = (...received: ReceivedCallback[]): DeliveryCallbacks => ({
  platformReference: 'p1',
  providerDeliveryId: 'd1',
  events: parsedCallbacks(received),
});
const t = (s: number) => `2026-01-01T10:00:${String(s).padStart(2, '0')}Z`;
const journey = [
  callback({ eventType: 'delivery.accepted', status: 'provider_accepted', eventTimeUtc: t(1) }),
  callback({ eventType: 'driver.assigned', status: 'driver_assigned', eventTimeUtc: t(2), driverName: 'Ann' }),
  callback({
    eventType: 'driver.location_updated',
    status: 'driver_assigned',
    eventTimeUtc: t(3),
    driverLat: 52.5,
    driverLng: 13.4,
  }),
  callback({ eventType: 'delivery.picked_up', status: 'picked_up', eventTimeUtc: t(4) }),
  callback({ eventType: 'delivery.delivered', status: 'delivered', eventTimeUtc: t(5) }),
];

describe('events checks of one delivery', () => {
  it('find nothing wrong with a clean journey', () => {
    const d = delivery(...journey);
    expect(signatureProblems(d, SECRET)).toEqual([]);
    expect(eventTypeProblems(d)).toEqual([]);
    expect(vocabularyProblems(d)).toEqual([]);
    expect(identifierProblems(d)).toEqual([]);
    expect(afterTerminalProblems(d)).toEqual([]);
    expect(tableProblems(d)).toEqual([]);
    expect(requiredFieldProblems(d)).toEqual({ problems: [], notes: [] });
    expect(
      transitionProblems(d, {
        provider_accepted: ['driver_assigned'],
        driver_assigned: ['picked_up'],
        picked_up: ['delivered'],
      }),
    ).toEqual([]);
  });
  it('name a wrong signature, an unknown type, an invented status, a foreign reference', () => {
    const d = delivery(
      callback(
        { eventType: 'delivery.accepted', status: 'provider_accepted', eventTimeUtc: t(1) },
        { headers: { 'x-platform-signature': 'sha256=ab' } },
      ),
      callback({ eventType: 'made.up', status: 'provider_accepted', eventTimeUtc: t(2) }),
      callback({ eventType: 'tracking.updated', status: 'en_route', eventTimeUtc: t(3) }),
      callback({ eventType: 'delivery.picked_up', status: 'picked_up', eventTimeUtc: t(4), platformReference: 'p2' }),
    );
    expect(signatureProblems(d, SECRET)).toEqual(['delivery p1: callback 1: the signature has a `sha256=` prefix']);
    expect(eventTypeProblems(d, ['other'])).toHaveLength(1);
    expect(vocabularyProblems(d)).toEqual([
      'delivery p1: tracking.updated carries the status "en_route", outside the vocabulary',
    ]);
    expect(identifierProblems(d)).toHaveLength(1);
  });
  it('name a table event without its status or data, and a missing required field', () => {
    const d = delivery(
      callback({ eventType: 'driver.assigned', status: 'picked_up', eventTimeUtc: t(1), driverName: 'Ann' }),
      callback({ eventType: 'eta.updated', status: 'picked_up', eventTimeUtc: 'soon' }),
    );
    expect(tableProblems(d)).toHaveLength(2);
    expect(requiredFieldProblems(d).problems).toEqual([expect.stringContaining('eta.updated has eventTimeUtc "soon"')]);
  });
  it('name a nonterminal event after the terminal one and a move the transitions do not allow', () => {
    const late = callback({
      eventType: 'driver.location_updated',
      status: 'on_the_way',
      eventTimeUtc: t(9),
      driverLat: 1,
      driverLng: 1,
    });
    expect(afterTerminalProblems(delivery(...journey, late))).toHaveLength(1);
    expect(
      transitionProblems(delivery(...journey), {
        provider_accepted: ['driver_assigned'],
        driver_assigned: ['delivered'],
        picked_up: ['delivered'],
      }),
    ).toEqual([expect.stringContaining('driver_assigned → picked_up')]);
  });
  it('note a missing provider identifier as a SHOULD', () => {
    const d = delivery(
      callback({
        eventType: 'delivery.picked_up',
        status: 'picked_up',
        eventTimeUtc: t(1),
        providerDeliveryId: undefined,
      }),
    );
    expect(requiredFieldProblems(d)).toEqual({ problems: [], notes: [expect.stringContaining('SHOULD')] });
  });
});

describe('retryOf', () => {
  it('finds the request answered 503 and a later one with its bytes', () => {
    const failed = callback(
      { eventType: 'driver.assigned', status: 'driver_assigned', eventTimeUtc: t(2) },
      { answeredStatus: 503 },
    );
    const other = callback({ eventType: 'driver.assigned', status: 'driver_assigned', eventTimeUtc: t(3) });
    expect(retryOf([journey[0]!, failed, other], 503)).toEqual({ failed, retry: undefined });
    const again = { ...failed, answeredStatus: 204, receivedAt: 99 };
    expect(retryOf([journey[0]!, failed, other, again], 503)).toEqual({ failed, retry: again });
    expect(retryOf(journey, 503)).toEqual({ failed: undefined, retry: undefined });
  });
});
