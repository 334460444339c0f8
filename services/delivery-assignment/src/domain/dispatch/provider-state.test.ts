import { PROVIDER_STATUSES, type ProviderStatusName } from '@marketplace/contracts';
import { judgeReport, reportFingerprint, type ProviderReport, type ProviderState } from './provider-state';

const T0 = new Date('2026-11-24T10:00:00Z');
const T1 = new Date('2026-11-24T10:01:00Z');
const T2 = new Date('2026-11-24T10:02:00Z');
const ETA = new Date('2026-11-24T10:30:00Z');
const ETA2 = new Date('2026-11-24T10:35:00Z');

function state(status: ProviderStatusName, overrides: Partial<ProviderState> = {}): ProviderState {
  return {
    status,
    eventTime: T1,
    driverName: 'Dana',
    driverPhone: '+49 170 1',
    driverLat: 52.5,
    driverLng: 13.4,
    trackingUrl: 'https://track.example/d-1',
    eta: ETA,
    ...overrides,
  };
}

const EMPTY: Omit<ProviderState, 'status' | 'eventTime'> = {
  driverName: null,
  driverPhone: null,
  driverLat: null,
  driverLng: null,
  trackingUrl: null,
  eta: null,
};

// The order of the road, written by hand (the contract leaves transitions to the provider; the
// platform takes a later status, skipping any, and ignores an earlier one), and the terminal ones.
const ROAD: ProviderStatusName[] = [
  'sent_to_provider',
  'provider_accepted',
  'driver_assigned',
  'arrived_at_pickup',
  'picked_up',
  'on_the_way',
  'return_requested',
  'returning_to_origin',
];
const TERMINAL: ProviderStatusName[] = ['delivered', 'cancelled', 'failed', 'returned_to_origin', 'return_failed'];

/** What the platform should do with `incoming` while `known` is held (a different status, later time). */
function expectedFor(known: ProviderStatusName, incoming: ProviderStatusName): 'apply' | 'stale' {
  if (TERMINAL.includes(known)) return 'stale';
  if (TERMINAL.includes(incoming)) return 'apply';
  return ROAD.indexOf(incoming) > ROAD.indexOf(known) ? 'apply' : 'stale';
}

const PAIRS = PROVIDER_STATUSES.flatMap((known) =>
  PROVIDER_STATUSES.filter((incoming) => incoming !== known).map(
    (incoming) => [known, incoming, expectedFor(known, incoming)] as const,
  ),
);

describe('judgeReport: every pair of (known status, another incoming status), reported later', () => {
  it('the hand-written road and terminal list cover the vocabulary', () => {
    expect([...ROAD, ...TERMINAL].sort()).toEqual([...PROVIDER_STATUSES].sort());
    expect(PAIRS).toHaveLength(13 * 12);
  });

  it.each(PAIRS)('%s then %s: %s', (known, incoming, expected) => {
    const judged = judgeReport(state(known), { status: incoming, eventTime: T2 });
    expect(judged.kind).toBe(expected);
    if (judged.kind === 'apply') expect(judged.next).toEqual(state(incoming, { eventTime: T2 }));
  });

  it.each(PAIRS.filter(([, , expected]) => expected === 'stale'))(
    '%s then %s is stale whatever its event time (an earlier status reported later still goes back)',
    (known, incoming) => {
      for (const eventTime of [T0, T1, T2])
        expect(judgeReport(state(known), { status: incoming, eventTime }).kind).toBe('stale');
    },
  );

  it('a forward status applies even with an earlier event time (rank decides, not the clock)', () => {
    const judged = judgeReport(state('driver_assigned'), { status: 'picked_up', eventTime: T0 });
    expect(judged).toEqual({ kind: 'apply', next: state('picked_up', { eventTime: T0 }) });
  });

  it('the reason of a stale report names both statuses', () => {
    expect(judgeReport(state('picked_up'), { status: 'driver_assigned', eventTime: T2 })).toEqual({
      kind: 'stale',
      why: 'driver_assigned is behind picked_up',
    });
    expect(judgeReport(state('delivered'), { status: 'on_the_way', eventTime: T2 })).toEqual({
      kind: 'stale',
      why: 'the delivery is delivered already (terminal)',
    });
    expect(judgeReport(state('cancelled'), { status: 'failed', eventTime: T2 })).toEqual({
      kind: 'stale',
      why: 'the delivery is cancelled already (terminal)',
    });
  });
});

describe('judgeReport: the same status again', () => {
  it.each([...PROVIDER_STATUSES])('%s, the same time and data (a duplicate): unchanged', (status) => {
    expect(judgeReport(state(status), { status, eventTime: T1 })).toEqual({ kind: 'unchanged' });
    const all: ProviderReport = {
      status,
      eventTime: new Date(T1.getTime()),
      driverName: 'Dana',
      driverPhone: '+49 170 1',
      driverLat: 52.5,
      driverLng: 13.4,
      trackingUrl: 'https://track.example/d-1',
      eta: new Date(ETA.getTime()),
    };
    expect(judgeReport(state(status), all)).toEqual({ kind: 'unchanged' });
  });

  it.each(ROAD)('%s with an earlier event time: stale', (status) => {
    expect(judgeReport(state(status), { status, eventTime: T0, driverName: 'Max' })).toEqual({
      kind: 'stale',
      why: `older than the ${status} already known`,
    });
  });

  it.each(ROAD)('%s with a later event time and new data: applies, with the new data and time', (status) => {
    const judged = judgeReport(state(status), { status, eventTime: T2, driverLat: 52.51, driverLng: 13.41 });
    expect(judged).toEqual({
      kind: 'apply',
      next: state(status, { eventTime: T2, driverLat: 52.51, driverLng: 13.41 }),
    });
  });

  it('a later event time with the same data applies too: the event time moves on', () => {
    expect(judgeReport(state('on_the_way'), { status: 'on_the_way', eventTime: T2 })).toEqual({
      kind: 'apply',
      next: state('on_the_way', { eventTime: T2 }),
    });
  });

  it('the same event time with other data applies (two events observed at once)', () => {
    expect(judgeReport(state('on_the_way'), { status: 'on_the_way', eventTime: T1, eta: ETA2 })).toEqual({
      kind: 'apply',
      next: state('on_the_way', { eta: ETA2 }),
    });
  });

  it.each(TERMINAL)('%s again with another time or other data: stale (the first terminal state stays)', (status) => {
    const why = `the delivery is ${status} already (terminal)`;
    expect(judgeReport(state(status), { status, eventTime: T2 })).toEqual({ kind: 'stale', why });
    expect(judgeReport(state(status), { status, eventTime: T0 })).toEqual({ kind: 'stale', why });
    expect(judgeReport(state(status), { status, eventTime: T1, trackingUrl: null })).toEqual({ kind: 'stale', why });
  });
});

describe('judgeReport: nothing known yet', () => {
  it.each([...PROVIDER_STATUSES])('%s applies, unknown details null', (status) => {
    expect(judgeReport(null, { status, eventTime: T0 })).toEqual({
      kind: 'apply',
      next: { status, eventTime: T0, ...EMPTY },
    });
  });

  it('takes every detail reported', () => {
    const report: ProviderReport = {
      status: 'driver_assigned',
      eventTime: T1,
      driverName: 'Dana',
      driverPhone: '+49 170 1',
      driverLat: 52.5,
      driverLng: 13.4,
      trackingUrl: 'https://track.example/d-1',
      eta: ETA,
    };
    expect(judgeReport(null, report)).toEqual({ kind: 'apply', next: state('driver_assigned') });
  });
});

describe('judgeReport: merging the details', () => {
  const known = state('driver_assigned');
  const next = (report: Omit<ProviderReport, 'status' | 'eventTime'>) => {
    const judged = judgeReport(known, { status: 'on_the_way', eventTime: T2, ...report });
    if (judged.kind !== 'apply') throw new Error(`expected apply, got ${judged.kind}`);
    return judged.next;
  };

  it('a field absent keeps what is known', () => {
    expect(next({})).toEqual(state('on_the_way', { eventTime: T2 }));
  });

  it.each([
    ['driverName', { driverName: null }],
    ['driverPhone', { driverPhone: null }],
    ['trackingUrl', { trackingUrl: null }],
    ['eta', { eta: null }],
  ] as const)('%s null clears it, the others kept', (_field, report) => {
    expect(next(report)).toEqual(state('on_the_way', { eventTime: T2, ...report }));
  });

  it.each([
    ['driverName', { driverName: 'Max' }],
    ['driverPhone', { driverPhone: '+49 170 2' }],
    ['trackingUrl', { trackingUrl: 'https://track.example/d-2' }],
    ['eta', { eta: ETA2 }],
  ] as const)('%s given replaces it, the others kept', (_field, report) => {
    expect(next(report)).toEqual(state('on_the_way', { eventTime: T2, ...report }));
  });

  it('every field null: all unknown', () => {
    expect(
      next({ driverName: null, driverPhone: null, driverLat: null, driverLng: null, trackingUrl: null, eta: null }),
    ).toEqual({ status: 'on_the_way', eventTime: T2, ...EMPTY });
  });
});

describe('judgeReport: coordinates are a pair', () => {
  const apply = (known: ProviderState | null, report: Omit<ProviderReport, 'status' | 'eventTime'>) => {
    const judged = judgeReport(known, { status: 'on_the_way', eventTime: T2, ...report });
    if (judged.kind !== 'apply') throw new Error(`expected apply, got ${judged.kind}`);
    return [judged.next.driverLat, judged.next.driverLng];
  };
  const noPosition = state('picked_up', { driverLat: null, driverLng: null });

  it('both given: the new position', () => {
    expect(apply(state('picked_up'), { driverLat: 48.1, driverLng: 11.6 })).toEqual([48.1, 11.6]);
    expect(apply(noPosition, { driverLat: 48.1, driverLng: 11.6 })).toEqual([48.1, 11.6]);
  });

  it('both absent: the known position kept', () => {
    expect(apply(state('picked_up'), {})).toEqual([52.5, 13.4]);
  });

  it('both null: no position', () => {
    expect(apply(state('picked_up'), { driverLat: null, driverLng: null })).toEqual([null, null]);
  });

  it('one coordinate alone: no position reported, the known one kept (never half of a new one)', () => {
    expect(apply(state('picked_up'), { driverLat: null })).toEqual([52.5, 13.4]);
    expect(apply(state('picked_up'), { driverLng: null })).toEqual([52.5, 13.4]);
    expect(apply(state('picked_up'), { driverLat: 48.1 })).toEqual([52.5, 13.4]);
    expect(apply(state('picked_up'), { driverLng: 11.6 })).toEqual([52.5, 13.4]);
  });

  it('both given, one of them null: no position (half a pair is none)', () => {
    expect(apply(state('picked_up'), { driverLat: null, driverLng: 11.6 })).toEqual([null, null]);
    expect(apply(state('picked_up'), { driverLat: 48.1, driverLng: null })).toEqual([null, null]);
  });

  it('one given with none known: no position', () => {
    expect(apply(noPosition, { driverLat: 48.1 })).toEqual([null, null]);
    expect(apply(noPosition, { driverLng: 11.6 })).toEqual([null, null]);
    expect(apply(null, { driverLat: 48.1 })).toEqual([null, null]);
    expect(apply(null, { driverLng: 11.6 })).toEqual([null, null]);
  });

  it('a zero coordinate is a coordinate, not an absence', () => {
    expect(apply(noPosition, { driverLat: 0, driverLng: 0 })).toEqual([0, 0]);
    expect(apply(state('picked_up', { driverLat: 0, driverLng: 0 }), {})).toEqual([0, 0]);
  });
});

describe('reportFingerprint', () => {
  const report: ProviderReport = {
    status: 'driver_assigned',
    eventTime: T1,
    driverName: 'Dana',
    driverPhone: '+49 170 1',
    driverLat: 52.5,
    driverLng: 13.4,
    trackingUrl: 'https://track.example/d-1',
    eta: ETA,
  };
  const fingerprint = reportFingerprint('driver.assigned', report);

  it('is 22 base64url characters, the same for the same meaning (dates compared by instant)', () => {
    expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(
      reportFingerprint('driver.assigned', {
        ...report,
        eventTime: new Date('2026-11-24T11:01:00+01:00'),
        eta: new Date(ETA.getTime()),
      }),
    ).toBe(fingerprint);
  });

  it('changes with the event type, the status, the time and every detail', () => {
    const others = [
      reportFingerprint(undefined, report),
      reportFingerprint('tracking.updated', report),
      reportFingerprint('driver.assigned', { ...report, status: 'arrived_at_pickup' }),
      reportFingerprint('driver.assigned', { ...report, eventTime: T2 }),
      reportFingerprint('driver.assigned', { ...report, driverName: 'Max' }),
      reportFingerprint('driver.assigned', { ...report, driverPhone: '+49 170 2' }),
      reportFingerprint('driver.assigned', { ...report, driverLat: 52.6 }),
      reportFingerprint('driver.assigned', { ...report, driverLng: 13.5 }),
      reportFingerprint('driver.assigned', { ...report, trackingUrl: 'https://track.example/d-2' }),
      reportFingerprint('driver.assigned', { ...report, eta: ETA2 }),
      reportFingerprint('driver.assigned', { ...report, eta: null }),
    ];
    expect(new Set([fingerprint, ...others]).size).toBe(others.length + 1);
  });

  it('a detail is not mistaken for another one holding the same value', () => {
    const base: ProviderReport = { status: 'on_the_way', eventTime: T1 };
    expect(reportFingerprint(undefined, { ...base, driverName: 'x' })).not.toBe(
      reportFingerprint(undefined, { ...base, driverPhone: 'x' }),
    );
    expect(reportFingerprint(undefined, { ...base, driverLat: 1 })).not.toBe(
      reportFingerprint(undefined, { ...base, driverLng: 1 }),
    );
  });
});
