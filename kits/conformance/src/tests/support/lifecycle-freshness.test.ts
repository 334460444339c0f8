import type { ReceivedCallback } from '../../model';
import { lifecycleEvents, parsedCallbacks } from './lifecycle-events';
import { staleReadProblem } from './lifecycle-freshness';
import type { Transitions } from './lifecycle-statuses';

const transitions: Transitions = { picked_up: ['on_the_way', 'delivered'], on_the_way: ['delivered'], delivered: [] };
const event = (eventType: string, status: string, eventTimeUtc: string) => {
  const callback: ReceivedCallback = {
    label: 'd',
    path: '/',
    headers: {},
    body: Buffer.from(JSON.stringify({ eventType, status, eventTimeUtc })),
    receivedAt: 0,
    answeredStatus: 204,
  };
  return lifecycleEvents(parsedCallbacks([callback]))[0]!;
};

describe('staleReadProblem', () => {
  const pickedUp = event('delivery.picked_up', 'picked_up', '2026-01-01T10:00:05Z');
  it('accepts the event’s status at its time, or a later status', () => {
    expect(
      staleReadProblem(pickedUp, { status: 'picked_up', eventTimeUtc: '2026-01-01T10:00:05Z' }, transitions),
    ).toBeUndefined();
    expect(
      staleReadProblem(pickedUp, { status: 'on_the_way', eventTimeUtc: '2026-01-01T10:00:05Z' }, transitions),
    ).toBeUndefined();
    expect(
      staleReadProblem(pickedUp, { status: 'delivered', eventTimeUtc: '2026-01-01T10:00:09Z' }, transitions),
    ).toBeUndefined();
  });
  it('accepts the event’s own status whatever time the read gives it: the same state', () => {
    expect(
      staleReadProblem(pickedUp, { status: 'picked_up', eventTimeUtc: '2026-01-01T10:00:04.996Z' }, transitions),
    ).toBeUndefined();
  });
  it('names a read older than the event, or another status at its time', () => {
    expect(
      staleReadProblem(pickedUp, { status: 'on_the_way', eventTimeUtc: '2026-01-01T10:00:04Z' }, transitions),
    ).toMatch(/older than the event/);
    const delivered = event('delivery.delivered', 'delivered', '2026-01-01T10:00:05Z');
    expect(
      staleReadProblem(delivered, { status: 'on_the_way', eventTimeUtc: '2026-01-01T10:00:05Z' }, transitions),
    ).toMatch(/another status/);
    expect(
      staleReadProblem(delivered, { status: 'on_the_way', eventTimeUtc: '2026-01-01T10:00:07Z' }, transitions),
    ).toMatch(/do not lead/);
  });
  it('compares a news event with the status it carries', () => {
    const location = event('driver.location_updated', 'on_the_way', '2026-01-01T10:00:08Z');
    expect(
      staleReadProblem(location, { status: 'on_the_way', eventTimeUtc: '2026-01-01T10:00:05Z' }, transitions),
    ).toBeUndefined();
    expect(
      staleReadProblem(location, { status: 'picked_up', eventTimeUtc: '2026-01-01T10:00:04Z' }, transitions),
    ).toMatch(/ended before/);
  });
  it('names a read without a valid time', () => {
    expect(staleReadProblem(pickedUp, { status: 'picked_up', eventTimeUtc: null })).toMatch(/not a date/);
  });
});
