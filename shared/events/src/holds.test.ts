import { captureLogger } from '@marketplace/testing';
import { HoldWatch, type Hold } from './holds';

function watch(alarmAfterMs = 30_000) {
  let now = 1_000_000;
  const { logger, lines } = captureLogger();
  const alarms: Hold[] = [];
  const holds = new HoldWatch({ alarmAfterMs, logger, onAlarm: (h) => alarms.push({ ...h }), now: () => now });
  return { holds, lines, alarms, advance: (ms: number) => (now += ms) };
}

const behind = {
  group: 'webhook-sender.domain-events',
  topic: 'orders',
  partition: 2,
  offset: '7',
  eventId: 'e-1',
  code: 'webhook.installations_behind',
  reason: 'installations partition 3 at 0 of 1',
  details: { behind: [{ partition: 3, reached: '0', needed: '1' }] },
};

afterEach(() => jest.useRealTimers());

describe('HoldWatch', () => {
  it('raises no alarm for a short hold, and logs nothing when it ends', () => {
    const { holds, lines, alarms, advance } = watch();
    holds.hold('k', behind);
    advance(29_999);
    holds.check();
    holds.release('k');
    expect(alarms).toEqual([]);
    expect(lines).toEqual([]);
    expect(holds.overdue()).toEqual([]);
  });

  it('raises the alarm once when a hold passes the limit: one error naming what waits and why, one count, an overdue entry', () => {
    const { holds, lines, alarms, advance } = watch();
    holds.hold('k', behind);
    advance(10_000);
    holds.hold('k', { ...behind, reason: 'installations partition 3 at 0 of 2' }); // a later retry: same hold, newer reason
    advance(20_000);
    holds.check();
    holds.check();
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      group: 'webhook-sender.domain-events',
      topic: 'orders',
      partition: 2,
      reason: 'installations partition 3 at 0 of 2',
    });
    const errors = lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      consumerGroup: 'webhook-sender.domain-events',
      topic: 'orders',
      partition: 2,
      offset: '7',
      errorCode: 'webhook.installations_behind',
      heldMs: 30_000,
      details: behind.details,
    });
    expect(errors[0]!.msg).toContain('installations partition 3 at 0 of 2');
    const [overdue] = holds.overdue();
    expect(HoldWatch.describe(overdue!, 1_000_000 + 30_000)).toBe(
      'webhook-sender.domain-events orders[2]@7 held 30 s: installations partition 3 at 0 of 2',
    );
    expect(holds.longestByGroup().get('webhook-sender.domain-events')).toBe(30);
  });

  it('logs the end of an alarmed hold, and a new hold starts its own clock', () => {
    const { holds, lines, alarms, advance } = watch(1000);
    holds.hold('k', behind);
    advance(1500);
    holds.check();
    holds.release('k');
    expect(lines.filter((l) => l.level === 'info').map((l) => l.msg)).toEqual(['consumer hold ended']);
    holds.hold('k', behind);
    advance(500);
    holds.check();
    expect(alarms).toHaveLength(1);
    expect(holds.overdue()).toEqual([]);
  });

  it('looks at its holds on a timer, without keeping the process alive', () => {
    jest.useFakeTimers();
    const { logger, lines } = captureLogger();
    const holds = new HoldWatch({ alarmAfterMs: 2000, logger, checkEveryMs: 500 });
    holds.hold('k', behind);
    jest.advanceTimersByTime(2500);
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(1);
    holds.release('k');
    expect(jest.getTimerCount()).toBe(0);
  });
});
