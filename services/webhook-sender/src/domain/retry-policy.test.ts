import {
  PARTNER_WEBHOOK_POLICY,
  PROVIDER_CALLBACK_POLICY,
  delayAfter,
  nominalDelayMs,
  retryAfterMs,
  retryDelayMs,
  scaledPolicy,
  verdictOf,
  type AttemptResult,
  type AttemptVerdict,
  type RetryPolicy,
} from './retry-policy';

const MIN = 60_000;
const policy = PARTNER_WEBHOOK_POLICY;
const almostOne = 1 - Number.EPSILON; // Math.random() never returns 1

it('PARTNER_WEBHOOK_POLICY: 2 min, ×3, 12 h cap, 8 attempts, ±20 %', () => {
  expect(policy).toEqual({ baseMs: 2 * MIN, multiplier: 3, capMs: 720 * MIN, maxAttempts: 8, jitterRatio: 0.2 });
});

describe('nominalDelayMs', () => {
  it('follows 2, 6, 18, 54, 162, 486, then 720 (capped) minutes for attempts 1..7', () => {
    const schedule = [1, 2, 3, 4, 5, 6, 7].map((n) => nominalDelayMs(policy, n));
    expect(schedule).toEqual([2, 6, 18, 54, 162, 486, 720].map((m) => m * MIN));
  });

  it('has no attempt after the 8th (dead letter), nor after any later one', () => {
    expect(nominalDelayMs(policy, 8)).toBeUndefined();
    expect(nominalDelayMs(policy, 9)).toBeUndefined();
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects attempt number %p', (n) => {
    expect(() => nominalDelayMs(policy, n)).toThrow(RangeError);
  });

  it('uses the policy it is given', () => {
    const other: RetryPolicy = { baseMs: 1000, multiplier: 2, capMs: 5000, maxAttempts: 5, jitterRatio: 0 };
    expect([1, 2, 3, 4, 5].map((n) => nominalDelayMs(other, n))).toEqual([1000, 2000, 4000, 5000, undefined]);
  });
});

describe('retryDelayMs', () => {
  it('stays at −20 % when random() is 0 and approaches +20 % as random() approaches 1', () => {
    expect(retryDelayMs(policy, 1, () => 0)).toBe(96_000); // 2 min − 24 s
    expect(retryDelayMs(policy, 1, () => almostOne)).toBe(144_000); // 2 min + 24 s
    expect(retryDelayMs(policy, 1, () => 0.5)).toBe(2 * MIN);
  });

  it('applies the cap before the jitter: 720 min ± 144 min', () => {
    expect(retryDelayMs(policy, 7, () => 0)).toBe(576 * MIN);
    expect(retryDelayMs(policy, 7, () => almostOne)).toBe(864 * MIN);
    // Jitter on the uncapped 1458 min would give far more than that.
    expect(retryDelayMs(policy, 7, () => almostOne)).toBeLessThan(1458 * MIN * 0.8);
  });

  it('rounds to whole milliseconds', () => {
    const delay = retryDelayMs(policy, 3, () => 0.123456789);
    expect(Number.isInteger(delay)).toBe(true);
    expect(delay).toBe(Math.round(18 * MIN * (1 + 0.2 * (2 * 0.123456789 - 1))));
  });

  it('is undefined when no attempt follows, without drawing a random number', () => {
    const random = jest.fn(() => 0.5);
    expect(retryDelayMs(policy, 8, random)).toBeUndefined();
    expect(random).not.toHaveBeenCalled();
  });

  it('defaults to Math.random, staying within ±20 %', () => {
    for (let n = 1; n <= 7; n++) {
      const nominal = nominalDelayMs(policy, n) ?? Number.NaN;
      const delay = retryDelayMs(policy, n) ?? Number.NaN;
      expect(delay).toBeGreaterThanOrEqual(Math.round(nominal * 0.8));
      expect(delay).toBeLessThanOrEqual(Math.round(nominal * 1.2));
    }
  });
});

describe('scaledPolicy', () => {
  it('divides every delay by the factor, cap included, and keeps the rest', () => {
    const fast = scaledPolicy(policy, 60_000); // minutes become milliseconds
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => nominalDelayMs(fast, n))).toEqual([
      2,
      6,
      18,
      54,
      162,
      486,
      720,
      undefined,
    ]);
    expect(fast).toMatchObject({ multiplier: 3, maxAttempts: 8, jitterRatio: 0.2 });
    expect(retryDelayMs(fast, 7, () => 0)).toBe(576);
  });

  it('leaves the original policy untouched', () => {
    scaledPolicy(policy, 1000);
    expect(policy.baseMs).toBe(2 * MIN);
    expect(policy.capMs).toBe(720 * MIN);
  });

  it.each([0, -2, Number.NaN, Number.POSITIVE_INFINITY])('rejects factor %p', (factor) => {
    expect(() => scaledPolicy(policy, factor)).toThrow(RangeError);
  });
});

describe('verdictOf', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [100, 'permanent'],
    [301, 'permanent'], // redirects are not followed
    [302, 'permanent'],
    [400, 'permanent'],
    [401, 'permanent'],
    [404, 'permanent'],
    [408, 'retry'],
    [409, 'permanent'],
    [410, 'permanent'],
    [429, 'retry'],
    [499, 'permanent'],
    [500, 'retry'],
    [502, 'retry'],
    [503, 'retry'],
    [599, 'retry'],
  ] as const)('status %i → %s', (status, verdict) => {
    expect(verdictOf({ kind: 'response', status })).toBe(verdict);
  });

  it.each([
    ['timeout', 'retry'],
    ['connect', 'retry'],
    ['dns', 'retry'],
    ['tls', 'retry'],
    ['reset', 'retry'],
    ['other', 'retry'],
    ['refused_address', 'permanent'], // resolved to a forbidden address: retrying cannot help
  ] as Array<[Extract<AttemptResult, { kind: 'network' }>['errorClass'], AttemptVerdict]>)(
    'network %s → %s',
    (errorClass, verdict) => {
      expect(verdictOf({ kind: 'network', errorClass })).toBe(verdict);
    },
  );
});

describe('PROVIDER_CALLBACK_POLICY (delivery-provider contract, Events rule 5)', () => {
  const provider = PROVIDER_CALLBACK_POLICY;

  /** Every delay of one round with random() fixed, and the attempt count it gives. */
  function round(random: () => number): { attempts: number; delays: number[]; totalMs: number } {
    const delays: number[] = [];
    for (let n = 1; ; n++) {
      const delay = retryDelayMs(provider, n, random);
      if (delay === undefined) return { attempts: n, delays, totalMs: delays.reduce((a, b) => a + b, 0) };
      delays.push(delay);
    }
  }

  it('is 30 s, ×2, 10-minute cap, 8 attempts, ±20 %, Retry-After up to 1 hour', () => {
    expect(provider).toEqual({
      baseMs: 30_000,
      multiplier: 2,
      capMs: 10 * MIN,
      maxAttempts: 8,
      jitterRatio: 0.2,
      retryAfter: { capMs: 60 * MIN, timeScale: 1 },
    });
  });

  it('follows 0.5, 1, 2, 4, 8, then 10 and 10 (capped) minutes, 35.5 minutes in all', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => nominalDelayMs(provider, n))).toEqual([
      0.5 * MIN,
      1 * MIN,
      2 * MIN,
      4 * MIN,
      8 * MIN,
      10 * MIN,
      10 * MIN,
      undefined,
    ]);
    expect(round(() => 0.5).totalMs).toBe(35.5 * MIN);
  });

  it('makes at least 6 attempts over at least 15 minutes even with every delay at −20 %', () => {
    const shortest = round(() => 0);
    expect(shortest.attempts).toBe(8);
    expect(shortest.attempts).toBeGreaterThanOrEqual(6);
    expect(shortest.delays).toEqual([24_000, 48_000, 96_000, 192_000, 384_000, 480_000, 480_000]);
    expect(shortest.totalMs).toBe(1_704_000); // 28.4 minutes
    expect(shortest.totalMs).toBeGreaterThanOrEqual(15 * MIN);
  });

  it('stays bounded with every delay at +20 %: no delay above 12 minutes, 42.6 minutes in all', () => {
    const longest = round(() => almostOne);
    expect(longest.attempts).toBe(8);
    expect(Math.max(...longest.delays)).toBe(12 * MIN);
    expect(longest.totalMs).toBe(2_556_000); // 42.6 minutes
  });

  it.each([
    [200, 'delivered'],
    [202, 'delivered'],
    [299, 'delivered'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [599, 'retry'],
    [400, 'permanent'],
    [401, 'permanent'],
    [403, 'permanent'],
    [404, 'permanent'],
    [409, 'permanent'],
    [422, 'permanent'],
    [302, 'permanent'],
  ] as const)('status %i → %s, as the contract asks', (status, verdict) => {
    expect(verdictOf({ kind: 'response', status })).toBe(verdict);
  });
});

describe('retryAfterMs', () => {
  const now = new Date('2026-09-19T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs(' 30 ', now)).toBe(30_000);
  });

  it.each([
    ['IMF-fixdate', 'Sat, 19 Sep 2026 12:05:00 GMT'],
    ['obsolete RFC 850', 'Saturday, 19-Sep-26 12:05:00 GMT'],
    ['obsolete asctime', 'Sat Sep 19 12:05:00 2026'],
  ])('reads an HTTP date (%s) as the time until it', (_form, header) => {
    expect(retryAfterMs(header, now)).toBe(5 * MIN);
  });

  it('reads a one-digit asctime day padded with a space', () => {
    expect(retryAfterMs('Sat Sep  5 12:00:00 2026', new Date('2026-09-04T12:00:00Z'))).toBe(24 * 60 * MIN);
  });

  it('reads a two-digit RFC 850 year more than 50 years ahead as the past', () => {
    // From 2026, "76" would be 2076 (50 years ahead: kept), "77" 2077 (51 ahead: 1977, past).
    expect(retryAfterMs('Sunday, 19-Sep-76 12:00:00 GMT', now)).toBeGreaterThan(0);
    expect(retryAfterMs('Sunday, 19-Sep-77 12:00:00 GMT', now)).toBe(0);
  });

  it('gives 0 for a date already past', () => {
    expect(retryAfterMs('Fri, 18 Sep 2026 12:00:00 GMT', now)).toBe(0);
  });

  it.each([
    [undefined],
    [null],
    [''],
    ['soon'],
    ['5 minutes'],
    ['-5'],
    ['1.5'],
    ['1e3'],
    ['0x10'],
    ['2026-09-19T12:05:00Z'], // ISO 8601 is not an HTTP date
    ['sat, 19 sep 2026 12:05:00 gmt'], // HTTP dates are case-sensitive
    ['Sat, 19 Sep 2026 12:05:00 UTC'],
    ['Sat, 19 Sep 2026 12:05:00'], // local time: not an HTTP date
    ['Thu, 31 Feb 2026 12:05:00 GMT'], // no such day
    ['Sat, 19 Sep 2026 24:00:00 GMT'],
    ['Sat, 19 Sep 2026 12:60:00 GMT'],
  ])('ignores %p', (header) => {
    expect(retryAfterMs(header, now)).toBeUndefined();
  });
});

describe('delayAfter', () => {
  const provider = PROVIDER_CALLBACK_POLICY;
  const now = new Date('2026-09-19T12:00:00Z');
  const half = () => 0.5; // no jitter: the backoff is the nominal delay
  const response = (status: number): AttemptResult => ({ kind: 'response', status });

  it('is the backoff when there is no Retry-After', () => {
    expect(delayAfter(provider, 1, response(429), undefined, now, half)).toBe(30_000);
    expect(delayAfter(provider, 3, response(503), null, now, () => 0)).toBe(retryDelayMs(provider, 3, () => 0));
    expect(delayAfter(provider, 2, response(500), undefined, now, half)).toBe(MIN);
  });

  it('waits as long as a delay-seconds Retry-After asks on 429 and 503, never less than the backoff', () => {
    expect(delayAfter(provider, 1, response(429), '120', now, half)).toBe(120_000);
    expect(delayAfter(provider, 1, response(503), '120', now, half)).toBe(120_000);
    expect(delayAfter(provider, 1, response(429), '10', now, half)).toBe(30_000); // the backoff is longer
    expect(delayAfter(provider, 1, response(429), '0', now, () => 0)).toBe(24_000);
  });

  it('waits until an HTTP-date Retry-After', () => {
    expect(delayAfter(provider, 1, response(429), 'Sat, 19 Sep 2026 12:20:00 GMT', now, half)).toBe(20 * MIN);
    expect(delayAfter(provider, 1, response(503), 'Sat Sep 19 12:20:00 2026', now, half)).toBe(20 * MIN);
  });

  it('keeps the backoff for a Retry-After date already past', () => {
    expect(delayAfter(provider, 4, response(429), 'Fri, 18 Sep 2026 12:00:00 GMT', now, half)).toBe(4 * MIN);
  });

  it.each(['soon', '-30', '2.5', 'Sat, 19 Sep 2026 12:20:00', ''])('keeps the backoff for garbage: %p', (header) => {
    expect(delayAfter(provider, 2, response(429), header, now, half)).toBe(MIN);
  });

  it('caps a Retry-After at 1 hour, whatever the form', () => {
    expect(delayAfter(provider, 1, response(429), '7200', now, half)).toBe(60 * MIN);
    expect(delayAfter(provider, 1, response(503), 'Sun, 20 Sep 2026 12:00:00 GMT', now, half)).toBe(60 * MIN);
    expect(delayAfter(provider, 1, response(429), '9'.repeat(400), now, half)).toBe(60 * MIN); // Infinity seconds
    expect(delayAfter(provider, 1, response(429), '3600', now, half)).toBe(60 * MIN);
    expect(delayAfter(provider, 1, response(429), '3599', now, half)).toBe(60 * MIN - 1000);
  });

  // Events rule 5: retry after 408, 429 and 5xx, and honour Retry-After: on each of them, not on 429 and 503 alone.
  it.each([408, 429, 500, 501, 502, 503, 504, 505, 507, 599])(
    'reads Retry-After on every answer that is retried: %p',
    (status) => {
      expect(delayAfter(provider, 1, response(status), '120', now, half)).toBe(120_000);
      expect(delayAfter(provider, 1, response(status), 'Sat, 19 Sep 2026 12:20:00 GMT', now, half)).toBe(20 * MIN);
      expect(delayAfter(provider, 1, response(status), '7200', now, half)).toBe(60 * MIN); // capped alike
      expect(delayAfter(provider, 1, response(status), '10', now, half)).toBe(30_000); // never shortens
    },
  );

  it('has no header to read on a network error', () => {
    expect(delayAfter(provider, 1, { kind: 'network', errorClass: 'timeout' }, '120', now, half)).toBe(30_000);
  });

  it.each([400, 404, 409, 422, 301, 200])('ignores Retry-After on an answer that is not retried: %p', (status) => {
    expect(delayAfter(provider, 1, response(status), '120', now, half)).toBe(30_000);
  });

  it('has no attempt after the last one, Retry-After or not', () => {
    const random = jest.fn(() => 0.5);
    expect(delayAfter(provider, 8, response(429), '120', now, random)).toBeUndefined();
    expect(random).not.toHaveBeenCalled();
  });

  it('leaves partner webhooks as they are: their policy has no Retry-After rule', () => {
    expect(PARTNER_WEBHOOK_POLICY.retryAfter).toBeUndefined();
    for (const header of ['7200', 'Sat, 19 Sep 2026 14:00:00 GMT']) {
      expect(delayAfter(policy, 1, response(429), header, now, half)).toBe(2 * MIN);
      expect(delayAfter(policy, 1, response(503), header, now, () => 0)).toBe(retryDelayMs(policy, 1, () => 0));
    }
  });

  it("divides a Retry-After wait and its cap by a scaled policy's factor, like every other delay", () => {
    const fast = scaledPolicy(provider, 1000);
    expect(fast.retryAfter).toEqual({ capMs: 3600, timeScale: 1000 });
    expect(delayAfter(fast, 1, response(429), '120', now, half)).toBe(120);
    expect(delayAfter(fast, 1, response(500), '120', now, half)).toBe(120);
    expect(delayAfter(fast, 1, response(429), 'Sat, 19 Sep 2026 12:20:00 GMT', now, half)).toBe(1200);
    expect(delayAfter(fast, 1, response(429), '7200', now, half)).toBe(3600);
    expect(delayAfter(fast, 1, response(429), '0', now, half)).toBe(30);
    // Scaling twice multiplies the factors; the original stays as it was.
    expect(scaledPolicy(fast, 10).retryAfter).toMatchObject({ capMs: 360, timeScale: 10_000 });
    expect(provider.retryAfter).toEqual({ capMs: 60 * MIN, timeScale: 1 });
  });

  it('does not add a Retry-After rule when scaling a policy without one', () => {
    expect('retryAfter' in scaledPolicy(policy, 1000)).toBe(false);
  });
});
