import { PLATFORM_RATE_LIMIT } from '@marketplace/contracts';
import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import { captureLogger } from '@marketplace/testing';
import { defaultEventTypes, defaultRateLimit, type PlatformAccount } from '../domain/platform-account';
import type { RateLimitScope } from '../domain/rate-limit';
import { RateLimits, trackingBucket, type SurfaceLimits } from './rate-limits';

const account = (id: string, requestsPerMinute: number): PlatformAccount => ({
  id,
  name: 'Platform',
  webhookUrl: null,
  capabilities: {
    supportsPolling: true,
    supportsReturnToOrigin: false,
    supportsProofOfDelivery: false,
    supportsScheduledDelivery: false,
    supportsUpdates: true,
    supportsCancellation: true,
  },
  serviceArea: { type: 'Polygon', coordinates: [] },
  rateLimit: { requestsPerMinute },
  simulator: { enabled: false, drivers: 0, timeScale: 1 },
  eventTypes: defaultEventTypes(),
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** A limiter that answers what the test says, and remembers what it was asked. */
class ScriptedLimiter implements RequestLimiter {
  readonly calls: [string, number, number][] = [];
  next: () => Promise<RateDecision> = async () => ({ allowed: true, remaining: 0, retryAfterSeconds: 0 });

  take(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    this.calls.push([bucket, limit, windowSeconds]);
    return this.next();
  }
}

const down = () => Promise.reject(new Error('Connection is closed.'));

const surfaceLimits: SurfaceLimits = {
  perIp: { admin: 600, platform: 6_000, courier: 2_400, public: 1_200 },
  perAdmin: 300,
  perDriver: 240,
  perTrackingToken: 120,
};

describe('the per-account rate limit', () => {
  it('counts each account in its own bucket, with its own limit, over 60 seconds', async () => {
    const limiter = new ScriptedLimiter();
    const limits = new RateLimits(limiter, captureLogger().logger, surfaceLimits);
    limiter.next = async () => ({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
    expect(await limits.admit(account('a', 3))).toEqual({ allowed: true, counted: true, limit: 3, remaining: 2 });
    await limits.admit(account('b', 1_200));
    expect(limiter.calls).toEqual([
      ['account:a', 3, 60],
      ['account:b', 1_200, 60],
    ]);
  });

  it('refuses with the seconds to wait when the budget is spent', async () => {
    const limiter = new ScriptedLimiter();
    limiter.next = async () => ({ allowed: false, remaining: 0, retryAfterSeconds: 17 });
    const limits = new RateLimits(limiter, captureLogger().logger, surfaceLimits);
    expect(await limits.admit(account('a', 3))).toEqual({
      allowed: false,
      counted: true,
      limit: 3,
      remaining: 0,
      retryAfterSeconds: 17,
    });
  });

  it('admits uncounted while the limiter fails, warning once per outage, and says when it counts again', async () => {
    const limiter = new ScriptedLimiter();
    const { logger, lines } = captureLogger();
    const limits = new RateLimits(limiter, logger, surfaceLimits);
    limiter.next = down;
    const during = await Promise.all(Array.from({ length: 5 }, () => limits.admit(account('a', 3))));
    expect(during).toEqual(Array.from({ length: 5 }, () => ({ allowed: true, counted: false })));
    expect(await limits.admit(account('b', 3))).toEqual({ allowed: true, counted: false });

    limiter.next = async () => ({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect((await limits.admit(account('a', 3))).counted).toBe(true);
    await limits.admit(account('a', 3));
    limiter.next = down;
    await limits.admit(account('a', 3));
    await limits.admit(account('a', 3));

    const said = lines.map((line) => [line.level, line.msg]);
    expect(said).toEqual([
      ['warn', expect.stringContaining('rate limits unchecked')],
      ['info', expect.stringContaining('rate limits counted again')],
      ['warn', expect.stringContaining('rate limits unchecked')],
    ]);
  });

  it('gives an account without a limit of its own 1,200 requests per minute', () => {
    expect(defaultRateLimit()).toEqual({ requestsPerMinute: 1_200 });
    expect(PLATFORM_RATE_LIMIT).toMatchObject({ minRequestsPerMinute: 1, maxRequestsPerMinute: 1_000_000 });
  });
});

describe('the limits of the surfaces', () => {
  const token = 'trk_AAAAAAAAAAAAAAAAAAAAAA';

  it('counts per client IP in a bucket per surface, and per administrator, driver and link, over 60 seconds', async () => {
    const limiter = new ScriptedLimiter();
    const limits = new RateLimits(limiter, captureLogger().logger, surfaceLimits);
    for (const surface of ['admin', 'platform', 'courier', 'public'] as const)
      await limits.fromIp(surface, '203.0.113.7');
    await limits.forAdmin('ops');
    await limits.forDriver('driver-1');
    await limits.forTrackingToken(token);
    expect(limiter.calls).toEqual([
      ['admin-ip:203.0.113.7', 600, 60],
      ['platform-ip:203.0.113.7', 6_000, 60],
      ['courier-ip:203.0.113.7', 2_400, 60],
      ['public-ip:203.0.113.7', 1_200, 60],
      ['admin:ops', 300, 60],
      ['courier:driver-1', 240, 60],
      [trackingBucket(token), 120, 60],
    ]);
  });

  it('names a tracking link by its token hash, never the token, and leaves malformed tokens to the per-IP limit', async () => {
    const limiter = new ScriptedLimiter();
    const limits = new RateLimits(limiter, captureLogger().logger, surfaceLimits);
    expect(trackingBucket(token)).toMatch(/^tracking:[A-Za-z0-9_-]{43}$/);
    expect(trackingBucket(token)).not.toContain(token.slice(4));
    expect(trackingBucket(token)).not.toEqual(trackingBucket('trk_BAAAAAAAAAAAAAAAAAAAAA'));
    expect(limits.forTrackingToken('not-a-token')).toBeUndefined();
    expect(limits.forTrackingToken(`${token}x`)).toBeUndefined();
    expect(limiter.calls).toEqual([]);
  });

  it('tells each refusal by its scope, never the caller', async () => {
    const limiter = new ScriptedLimiter();
    limiter.next = async () => ({ allowed: false, remaining: 0, retryAfterSeconds: 5 });
    const refused: RateLimitScope[] = [];
    const limits = new RateLimits(limiter, captureLogger().logger, surfaceLimits, (scope) => void refused.push(scope));
    expect(await limits.fromIp('courier', '203.0.113.7')).toEqual({
      allowed: false,
      counted: true,
      limit: 2_400,
      remaining: 0,
      retryAfterSeconds: 5,
    });
    await limits.forAdmin('ops');
    await limits.forTrackingToken(token);
    await limits.admit(account('a', 3));
    expect(refused).toEqual(['courier_ip', 'admin', 'tracking', 'account']);
  });

  it('shares one outage state: every limit admits uncounted, with one warning for all', async () => {
    const limiter = new ScriptedLimiter();
    const { logger, lines } = captureLogger();
    const limits = new RateLimits(limiter, logger, surfaceLimits);
    limiter.next = down;
    expect(await limits.fromIp('public', '203.0.113.7')).toEqual({ allowed: true, counted: false });
    expect(await limits.forDriver('driver-1')).toEqual({ allowed: true, counted: false });
    expect(await limits.admit(account('a', 3))).toEqual({ allowed: true, counted: false });
    expect(lines.map((line) => line.level)).toEqual(['warn']);
  });

  it("exempts only the simulator's pass of this process", () => {
    const limiter = new ScriptedLimiter();
    const withPass = new RateLimits(limiter, captureLogger().logger, surfaceLimits, undefined, 'the-pass');
    expect(withPass.exempt('the-pass')).toBe(true);
    expect(withPass.exempt('the-pas')).toBe(false);
    expect(withPass.exempt('')).toBe(false);
    expect(withPass.exempt(undefined)).toBe(false);
    const without = new RateLimits(limiter, captureLogger().logger, surfaceLimits);
    expect(without.exempt('the-pass')).toBe(false);
    expect(without.exempt(undefined)).toBe(false);
  });
});
