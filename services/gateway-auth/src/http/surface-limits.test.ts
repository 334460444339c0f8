import type { BearerClaims } from '@marketplace/identity';
import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import type { RateLimitScope } from '../domain/rate-limits';
import { ipLimitFor, perCallerLimit } from './surface-limits';

/** A limiter that answers what the test says, and remembers what it was asked. */
class ScriptedLimiter implements RequestLimiter {
  readonly calls: [string, number, number][] = [];
  answer: RateDecision = { allowed: true, remaining: 9, retryAfterSeconds: 0 };

  async take(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    this.calls.push([bucket, limit, windowSeconds]);
    return this.answer;
  }
}

const limits = { perIp: 20, perCaller: 10, windowSeconds: 60 };

function setUp() {
  const limiter = new ScriptedLimiter();
  const refused: RateLimitScope[] = [];
  const ctx = { metrics: { rateLimited: (scope: RateLimitScope) => void refused.push(scope), idempotency: () => {} } };
  return { limiter, refused, ctx };
}

/** Runs a middleware on a request from `ip` with these claims on its state: what it did. */
async function run(middleware: ReturnType<typeof ipLimitFor>, ip: string, bearer?: BearerClaims) {
  const headers: Record<string, string> = {};
  const c = {
    ip,
    state: { bearer },
    set: (name: string, value: string) => void (headers[name] = value),
  } as unknown as Parameters<typeof middleware>[0];
  let passed = false;
  const error = await middleware(c, async () => void (passed = true)).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { passed, headers, error };
}

const tenant: BearerClaims = { role: 'tenant', sub: 'u-1', tid: 'tenant-1' };
const admin: BearerClaims = { role: 'admin', sub: 'ops@example.com' };

describe('the per-IP limit of the tenant and administrator APIs', () => {
  it.each([
    ['tenant', 'tenant-ip:203.0.113.7'],
    ['admin', 'admin-ip:203.0.113.7'],
  ] as const)('counts every %s request in a bucket of its own, before any token is read', async (surface, bucket) => {
    const { limiter, ctx } = setUp();
    const result = await run(ipLimitFor(surface, ctx, limiter, limits), '203.0.113.7');
    expect(result).toEqual({ passed: true, headers: {}, error: undefined });
    expect(limiter.calls).toEqual([[bucket, 20, 60]]);
  });

  it('refuses with 429 rate_limit.exceeded and the seconds to wait, counted as <surface>_ip', async () => {
    const { limiter, ctx, refused } = setUp();
    limiter.answer = { allowed: false, remaining: 0, retryAfterSeconds: 17 };
    const result = await run(ipLimitFor('admin', ctx, limiter, limits), '203.0.113.7');
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ kind: 'rate_limited', code: 'rate_limit.exceeded', retryAfterSeconds: 17 });
    expect(refused).toEqual(['admin_ip']);
  });
});

describe('the per-caller limit of the tenant and administrator APIs', () => {
  it('counts a tenant request against its tenant (tid), with RateLimit headers', async () => {
    const { limiter, ctx } = setUp();
    const result = await run(perCallerLimit('tenant', ctx, limiter, limits), '203.0.113.7', tenant);
    expect(result).toEqual({
      passed: true,
      headers: { 'RateLimit-Policy': '"tenant";q=10;w=60', RateLimit: '"tenant";r=9' },
      error: undefined,
    });
    expect(limiter.calls).toEqual([['tenant:tenant-1', 10, 60]]);
  });

  it('counts an administrator request against its administrator (sub)', async () => {
    const { limiter, ctx } = setUp();
    await run(perCallerLimit('admin', ctx, limiter, limits), '203.0.113.7', admin);
    expect(limiter.calls).toEqual([['admin:ops@example.com', 10, 60]]);
  });

  it('refuses over the limit with 429 and the seconds to wait, counted as the surface', async () => {
    const { limiter, ctx, refused } = setUp();
    limiter.answer = { allowed: false, remaining: 0, retryAfterSeconds: 42 };
    const result = await run(perCallerLimit('tenant', ctx, limiter, limits), '203.0.113.7', tenant);
    expect(result.passed).toBe(false);
    expect(result.headers).toEqual({ 'RateLimit-Policy': '"tenant";q=10;w=60', RateLimit: '"tenant";r=0;t=42' });
    expect(result.error).toMatchObject({ kind: 'rate_limited', code: 'rate_limit.exceeded', retryAfterSeconds: 42 });
    expect(refused).toEqual(['tenant']);
  });

  it.each([
    ['no claims', 'tenant', undefined],
    ['an administrator on the tenant API', 'tenant', admin],
    ['a tenant on the administrator API', 'admin', tenant],
  ] as const)('never admits uncounted: %s is 401 without counting', async (_what, surface, claims) => {
    const { limiter, ctx } = setUp();
    const result = await run(perCallerLimit(surface, ctx, limiter, limits), '203.0.113.7', claims);
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ code: 'auth.unauthenticated' });
    expect(limiter.calls).toEqual([]);
  });
});
