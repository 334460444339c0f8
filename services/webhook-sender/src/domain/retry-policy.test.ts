import {
  PARTNER_WEBHOOK_POLICY,
  nominalDelayMs,
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
