import type { ProviderStatusName } from '@marketplace/contracts';
import {
  cancelStageOf,
  describeAnswer,
  isClosed,
  nextDueAt,
  PLATFORM_LIMITS,
  providerDeliveryOpen,
  retryDelaySeconds,
  withLog,
  type DispatchLogEntry,
  type ProviderAnswer,
  type ProviderDispatch,
} from './dispatch';
import type { ProviderState } from './provider-state';

const CREATED = new Date('2026-11-24T10:00:00Z');
const ANSWERED = new Date('2026-11-24T10:00:02Z');
const HEARD = new Date('2026-11-24T10:03:00Z');
const NOW = new Date('2026-11-24T10:05:00Z');
const QUIET = { quietMs: 120_000, polling: true };
const at = (iso: string) => new Date(iso);

function providerState(status: ProviderStatusName): ProviderState {
  return {
    status,
    eventTime: HEARD,
    driverName: null,
    driverPhone: null,
    driverLat: null,
    driverLng: null,
    trackingUrl: null,
    eta: null,
  };
}

/** A live, created delivery the assignment is in line with: nothing to do but wait for callbacks. */
function dispatch(overrides: Partial<ProviderDispatch> = {}): ProviderDispatch {
  return {
    _id: 'asg-1',
    tenantId: 'tenant-1',
    orderId: 'order-1',
    installationId: 'inst-1',
    connectionId: 'conn-1',
    callbackTokenHash: 'hash',
    callbackUrlSealed: 'sealed',
    createdAt: CREATED,
    create: { state: 'accepted', attempts: 1, detail: null, answeredAt: ANSWERED },
    providerDeliveryId: 'pd-1',
    providerTrackingId: null,
    provider: providerState('provider_accepted'),
    firstEta: null,
    seen: [],
    lastHeardAt: HEARD,
    lastPolledAt: null,
    cancel: null,
    suspectSince: null,
    pollAttempts: 0,
    pollRetryAt: null,
    revision: 2,
    appliedRevision: 2,
    closed: false,
    log: [],
    version: 5,
    updatedAt: HEARD,
    ...overrides,
  };
}

const network: ProviderAnswer = { kind: 'network', detail: 'timeout after 15000 ms' };
const http = (status: number, retryAfterSeconds: number | null = null, body: unknown = null): ProviderAnswer => ({
  kind: 'answer',
  status,
  body,
  retryAfterSeconds,
});

describe('PLATFORM_LIMITS (the contract: Limits)', () => {
  it('15 s timeout, 5 MiB bodies, 3 attempts in total, Retry-After up to 30 s', () => {
    expect(PLATFORM_LIMITS).toMatchObject({
      timeoutMs: 15_000,
      maxResponseBytes: 5_242_880,
      attempts: 3,
      maxRetryAfterSeconds: 30,
      backoffSeconds: [1, 4],
      logEntries: 50,
    });
  });
});

describe('retryDelaySeconds', () => {
  const retriable: Array<[string, ProviderAnswer]> = [
    ['a network failure', network],
    ['429', http(429)],
    ['500', http(500)],
    ['502', http(502)],
    ['503', http(503)],
    ['504', http(504)],
  ];

  it.each(retriable)('after %s without Retry-After: 1 s after the first attempt, 4 s after the second', (_, answer) => {
    expect(retryDelaySeconds(answer, 1)).toBe(1);
    expect(retryDelaySeconds(answer, 2)).toBe(4);
  });

  it.each(retriable)('after %s, the third attempt was the last: no retry', (_, answer) => {
    expect(retryDelaySeconds(answer, 3)).toBeUndefined();
    expect(retryDelaySeconds(answer, 4)).toBeUndefined();
  });

  it.each([429, 500, 503])('%s with Retry-After: honoured, capped at 30 s, on either retry', (status) => {
    for (const attempts of [1, 2]) {
      expect(retryDelaySeconds(http(status, 0), attempts)).toBe(0);
      expect(retryDelaySeconds(http(status, 5), attempts)).toBe(5);
      expect(retryDelaySeconds(http(status, 30), attempts)).toBe(30);
      expect(retryDelaySeconds(http(status, 31), attempts)).toBe(30);
      expect(retryDelaySeconds(http(status, 120), attempts)).toBe(30);
    }
  });

  it('a negative Retry-After is no wait at all', () => {
    expect(retryDelaySeconds(http(503, -5), 1)).toBe(0);
  });

  it('Retry-After does not give a third attempt after the third', () => {
    expect(retryDelaySeconds(http(429, 5), 3)).toBeUndefined();
  });

  it.each([200, 201, 301, 302, 400, 401, 403, 404, 408, 409, 422])('%s is not retried', (status) => {
    expect(retryDelaySeconds(http(status), 1)).toBeUndefined();
    expect(retryDelaySeconds(http(status, 5), 1)).toBeUndefined();
  });
});

describe('describeAnswer (for the log and the tenant: never a body beyond a safe code)', () => {
  it('a network failure is its detail', () => {
    expect(describeAnswer(network)).toBe('timeout after 15000 ms');
  });

  it('an answer is its HTTP status and the error envelope code', () => {
    expect(describeAnswer(http(503))).toBe('HTTP 503');
    expect(describeAnswer(http(422, null, { code: 'validation.failed', message: 'pickupLat out of range' }))).toBe(
      'HTTP 422 validation.failed',
    );
    expect(describeAnswer(http(409, null, { code: 'IDEMPOTENCY_CONFLICT' }))).toBe('HTTP 409 IDEMPOTENCY_CONFLICT');
    expect(describeAnswer(http(400, null, { code: 'a'.repeat(80) }))).toBe(`HTTP 400 ${'a'.repeat(80)}`);
  });

  it.each<[string, unknown]>([
    ['a string body', 'Internal Server Error at /var/app/db.js'],
    ['an array', [{ code: 'x' }]],
    ['a number', 42],
    ['no code', { message: 'SELECT * FROM deliveries' }],
    ['a code that is not a string', { code: 500 }],
    ['a code with spaces', { code: 'bad request' }],
    ['a code with a URL', { code: 'https://evil.example/x' }],
    ['a code with a newline', { code: 'x\ny' }],
    ['an empty code', { code: '' }],
    ['a code of 81 characters', { code: 'a'.repeat(81) }],
  ])('%s: the status alone', (_, body) => {
    expect(describeAnswer(http(500, null, body))).toBe('HTTP 500');
  });
});

describe('cancelStageOf', () => {
  it.each<[ProviderStatusName | null, string]>([
    [null, 'before_pickup'],
    ['sent_to_provider', 'before_pickup'],
    ['provider_accepted', 'before_pickup'],
    ['driver_assigned', 'before_pickup'],
    ['arrived_at_pickup', 'before_pickup'],
    ['picked_up', 'after_pickup'],
    ['on_the_way', 'after_pickup'],
    ['return_requested', 'after_pickup'],
    ['returning_to_origin', 'after_pickup'],
  ])('%s: %s', (status, stage) => {
    expect(cancelStageOf(status)).toBe(stage);
  });
});

describe('providerDeliveryOpen', () => {
  it('a created delivery not ended is open, whatever its status (or none read yet)', () => {
    expect(providerDeliveryOpen(dispatch())).toBe(true);
    expect(providerDeliveryOpen(dispatch({ provider: null }))).toBe(true);
    expect(providerDeliveryOpen(dispatch({ provider: providerState('returning_to_origin') }))).toBe(true);
  });

  it.each<ProviderStatusName>(['delivered', 'cancelled', 'failed', 'returned_to_origin', 'return_failed'])(
    'a created delivery %s is not open',
    (status) => {
      expect(providerDeliveryOpen(dispatch({ provider: providerState(status) }))).toBe(false);
    },
  );

  it.each(['due', 'rejected', 'failed', 'withdrawn'] as const)('a create %s: not open', (state) => {
    expect(providerDeliveryOpen(dispatch({ create: { state, attempts: 1, detail: null, answeredAt: null } }))).toBe(
      false,
    );
  });
});

describe('withLog', () => {
  const entry = (i: number): DispatchLogEntry => ({
    at: new Date(CREATED.getTime() + i * 1000),
    decision: 'chosen',
    reason: `entry ${i}`,
  });
  const entries = (n: number) => Array.from({ length: n }, (_, i) => entry(i));

  it('adds the line at the end, without touching the dispatch', () => {
    const d = dispatch({ log: entries(2) });
    expect(withLog(d, entry(2))).toEqual(entries(3));
    expect(d.log).toEqual(entries(2));
  });

  it('keeps 50 lines: the 50th is kept, the 51st drops the oldest', () => {
    expect(withLog(dispatch({ log: entries(49) }), entry(49))).toEqual(entries(50));
    const full = withLog(dispatch({ log: entries(50) }), entry(50));
    expect(full).toHaveLength(50);
    expect(full[0]).toEqual(entry(1));
    expect(full[49]).toEqual(entry(50));
  });
});

describe('nextDueAt: pending work first', () => {
  it('the assignment behind the provider state: now, before anything else', () => {
    const behind = { revision: 3, appliedRevision: 2 };
    expect(nextDueAt(dispatch(behind), NOW, QUIET)).toEqual(NOW);
    expect(nextDueAt(dispatch({ ...behind, provider: providerState('delivered') }), NOW, QUIET)).toEqual(NOW);
    expect(
      nextDueAt(
        dispatch({
          ...behind,
          create: { state: 'due', attempts: 1, detail: null, answeredAt: null },
          dueAt: at('2026-11-24T10:05:04Z'),
        }),
        NOW,
        { quietMs: 120_000, polling: false },
      ),
    ).toEqual(NOW);
  });

  it('a create due: at its retry time when that is ahead, else now', () => {
    const due = (retryAt?: Date) =>
      dispatch({
        create: { state: 'due', attempts: 1, detail: 'HTTP 503', answeredAt: null, ...(retryAt ? { retryAt } : {}) },
        providerDeliveryId: null,
        provider: null,
        lastHeardAt: null,
      });
    expect(nextDueAt(due(at('2026-11-24T10:05:04Z')), NOW, QUIET)).toEqual(at('2026-11-24T10:05:04Z'));
    expect(nextDueAt(due(at('2026-11-24T10:04:00Z')), NOW, QUIET)).toEqual(NOW);
    expect(nextDueAt(due(NOW), NOW, QUIET)).toEqual(NOW);
    expect(nextDueAt(due(), NOW, QUIET)).toEqual(NOW);
    // Polling plays no part in a create.
    expect(nextDueAt(due(at('2026-11-24T10:05:04Z')), NOW, { quietMs: 120_000, polling: false })).toEqual(
      at('2026-11-24T10:05:04Z'),
    );
  });

  it('a cancel due with the provider delivery id known: now, polling or not', () => {
    const cancel = { stage: 'before_pickup' as const, state: 'due' as const, requestedAt: HEARD, detail: null };
    expect(nextDueAt(dispatch({ cancel }), NOW, QUIET)).toEqual(NOW);
    expect(nextDueAt(dispatch({ cancel }), NOW, { quietMs: 120_000, polling: false })).toEqual(NOW);
  });

  it('a cancel no longer due waits like any live delivery', () => {
    for (const state of ['confirmed', 'refused', 'failed'] as const) {
      const cancel = { stage: 'after_pickup' as const, state, requestedAt: HEARD, detail: null };
      expect(nextDueAt(dispatch({ cancel }), NOW, QUIET)).toEqual(at('2026-11-24T10:05:00Z'));
      expect(nextDueAt(dispatch({ cancel }), NOW, { quietMs: 120_000, polling: false })).toBeUndefined();
    }
  });
});

describe('nextDueAt: convergence (polling)', () => {
  it('a live delivery is read once its callbacks were quiet for quietMs after the last one heard', () => {
    // HEARD 10:03:00 + 2 min.
    expect(nextDueAt(dispatch(), NOW, QUIET)).toEqual(at('2026-11-24T10:05:00Z'));
    expect(nextDueAt(dispatch(), NOW, { quietMs: 600_000, polling: true })).toEqual(at('2026-11-24T10:13:00Z'));
  });

  it('nothing heard since the create: quietMs after its answer; nothing at all: quietMs from now', () => {
    expect(nextDueAt(dispatch({ lastHeardAt: null }), NOW, QUIET)).toEqual(at('2026-11-24T10:02:02Z'));
    expect(
      nextDueAt(
        dispatch({ lastHeardAt: null, create: { state: 'accepted', attempts: 1, detail: null, answeredAt: null } }),
        NOW,
        QUIET,
      ),
    ).toEqual(at('2026-11-24T10:07:00Z'));
  });

  it('a read later than the last callback: quietMs after the read (answered or not)', () => {
    expect(nextDueAt(dispatch({ lastPolledAt: at('2026-11-24T10:04:30Z') }), NOW, QUIET)).toEqual(
      at('2026-11-24T10:06:30Z'),
    );
    expect(nextDueAt(dispatch({ lastHeardAt: null, lastPolledAt: at('2026-11-24T10:04:30Z') }), NOW, QUIET)).toEqual(
      at('2026-11-24T10:06:30Z'),
    );
  });

  it('a read earlier than the last callback: quietMs after the callback', () => {
    expect(nextDueAt(dispatch({ lastPolledAt: at('2026-11-24T10:01:00Z') }), NOW, QUIET)).toEqual(
      at('2026-11-24T10:05:00Z'),
    );
  });

  it('long quiet: a time already past (due at once)', () => {
    const due = nextDueAt(dispatch({ lastHeardAt: at('2026-11-24T09:00:00Z') }), NOW, QUIET);
    expect(due).toEqual(at('2026-11-24T09:02:00Z'));
    expect(due!.getTime()).toBeLessThan(NOW.getTime());
  });

  it('a callback that failed its signature: now', () => {
    expect(nextDueAt(dispatch({ suspectSince: NOW }), NOW, QUIET)).toEqual(NOW);
  });

  it('without polling: never, even when suspect', () => {
    const off = { quietMs: 120_000, polling: false };
    expect(nextDueAt(dispatch(), NOW, off)).toBeUndefined();
    expect(nextDueAt(dispatch({ suspectSince: NOW }), NOW, off)).toBeUndefined();
  });

  it.each<ProviderStatusName>(['delivered', 'cancelled', 'failed', 'returned_to_origin', 'return_failed'])(
    'the provider delivery %s: never (even when suspect)',
    (status) => {
      expect(nextDueAt(dispatch({ provider: providerState(status) }), NOW, QUIET)).toBeUndefined();
      expect(nextDueAt(dispatch({ provider: providerState(status), suspectSince: NOW }), NOW, QUIET)).toBeUndefined();
    },
  );

  it.each(['rejected', 'failed', 'withdrawn'] as const)('a create %s: never', (state) => {
    const d = dispatch({
      create: { state, attempts: 1, detail: 'x', answeredAt: ANSWERED },
      providerDeliveryId: null,
      provider: null,
      lastHeardAt: null,
    });
    expect(nextDueAt(d, NOW, QUIET)).toBeUndefined();
    expect(nextDueAt({ ...d, suspectSince: NOW }, NOW, QUIET)).toBeUndefined();
  });
});

describe('isClosed', () => {
  const cancel = (state: 'due' | 'confirmed' | 'refused' | 'failed') => ({
    stage: 'before_pickup' as const,
    state,
    requestedAt: HEARD,
    detail: null,
  });
  const create = (state: ProviderDispatch['create']['state']) => ({
    state,
    attempts: 1,
    detail: null,
    answeredAt: ANSWERED,
  });

  it('a live delivery is open', () => {
    expect(isClosed(dispatch())).toBe(false);
    expect(isClosed(dispatch({ provider: providerState('on_the_way') }))).toBe(false);
  });

  it.each<ProviderStatusName>(['delivered', 'cancelled', 'failed', 'returned_to_origin', 'return_failed'])(
    'the provider delivery %s, the assignment in line: closed',
    (status) => {
      expect(isClosed(dispatch({ provider: providerState(status) }))).toBe(true);
    },
  );

  it('terminal but the assignment not yet in line: open', () => {
    expect(isClosed(dispatch({ provider: providerState('delivered'), revision: 3, appliedRevision: 2 }))).toBe(false);
  });

  it('terminal with a cancel still due: open; with the cancel answered: closed', () => {
    expect(isClosed(dispatch({ provider: providerState('cancelled'), cancel: cancel('due') }))).toBe(false);
    for (const state of ['confirmed', 'refused', 'failed'] as const)
      expect(isClosed(dispatch({ provider: providerState('cancelled'), cancel: cancel(state) }))).toBe(true);
  });

  it.each(['rejected', 'failed', 'withdrawn'] as const)('a create %s, the assignment in line: closed', (state) => {
    expect(isClosed(dispatch({ create: create(state), providerDeliveryId: null, provider: null }))).toBe(true);
  });

  it('a create rejected or failed but the assignment not yet ended: open', () => {
    for (const state of ['rejected', 'failed'] as const)
      expect(isClosed(dispatch({ create: create(state), provider: null, revision: 3, appliedRevision: 2 }))).toBe(
        false,
      );
  });

  it('a create still due: open', () => {
    expect(isClosed(dispatch({ create: create('due'), providerDeliveryId: null, provider: null }))).toBe(false);
    expect(
      isClosed(dispatch({ create: create('due'), providerDeliveryId: null, provider: null, cancel: cancel('due') })),
    ).toBe(false);
  });
});

describe('isClosed: a cancel that can never be sent keeps nothing open', () => {
  it('a failed or rejected create with a cancel due but no provider delivery id is closed', () => {
    for (const state of ['failed', 'rejected'] as const)
      expect(
        isClosed(
          dispatch({
            create: { state, attempts: 3, detail: 'x', answeredAt: at('2026-12-01T10:00:00Z') },
            providerDeliveryId: null,
            cancel: { stage: 'before_pickup', state: 'due', requestedAt: at('2026-12-01T10:00:00Z'), detail: null },
          }),
        ),
      ).toBe(true);
  });
});

describe('pollDueAt: a failed read is tried again when its retry is due', () => {
  it('gives the retry time while one is set, before the quiet time', () => {
    const retryAt = new Date(NOW.getTime() + 2_000);
    expect(nextDueAt(dispatch({ pollRetryAt: retryAt }), NOW, QUIET)).toEqual(retryAt);
  });
});
