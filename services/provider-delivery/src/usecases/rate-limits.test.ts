import { PLATFORM_RATE_LIMIT } from '@marketplace/contracts';
import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import { captureLogger } from '@marketplace/testing';
import { defaultRateLimit, type PlatformAccount } from '../domain/platform-account';
import { AccountRateLimits } from './rate-limits';

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

describe('the per-account rate limit', () => {
  it('counts each account in its own bucket, with its own limit, over 60 seconds', async () => {
    const limiter = new ScriptedLimiter();
    const limits = new AccountRateLimits(limiter, captureLogger().logger);
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
    const limits = new AccountRateLimits(limiter, captureLogger().logger);
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
    const limits = new AccountRateLimits(limiter, logger);
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
