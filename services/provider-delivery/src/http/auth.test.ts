import { signBearerToken } from '@marketplace/identity';
import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import { captureLogger } from '@marketplace/testing';
import type { ProviderContext } from '../usecases/context';
import { RateLimits, SIMULATOR_PASS_HEADER, trackingBucket, type SurfaceLimits } from './rate-limits';
import { audienceGuards } from './auth';
import { TRACKING_PAGE_PATH, TRACKING_STATE_PATH } from './tracking-routes';

// The guards' rate limits without Redis: what each one counts, in which order, and how it answers
// when a limit refuses (the envelope's 429, or the tracking page's own).

/** A limiter that refuses the buckets the test names, and remembers what it was asked. */
class ScriptedLimiter implements RequestLimiter {
  readonly buckets: string[] = [];
  readonly refuse = new Set<string>();

  async take(bucket: string, limit: number): Promise<RateDecision> {
    this.buckets.push(bucket);
    return this.refuse.has(bucket)
      ? { allowed: false, remaining: 0, retryAfterSeconds: 12 }
      : { allowed: true, remaining: limit - 1, retryAfterSeconds: 0 };
  }
}

const limits: SurfaceLimits = {
  perIp: { admin: 600, platform: 6_000, courier: 2_400, public: 1_200 },
  perAdmin: 300,
  perDriver: 240,
  perTrackingToken: 120,
};
const secret = Buffer.alloc(32, 3);
const now = new Date('2026-11-23T10:00:00Z');
const adminToken = signBearerToken(secret, { role: 'admin', sub: 'ops' }, new Date(now.getTime() + 3_600_000), now);
const token = 'trk_AAAAAAAAAAAAAAAAAAAAAA';
const IP = '203.0.113.7';

function setUp() {
  const limiter = new ScriptedLimiter();
  const ctx = {
    rateLimits: new RateLimits(limiter, captureLogger().logger, limits, undefined, 'sim-pass'),
    now: () => now,
  } as unknown as ProviderContext;
  return { limiter, guards: audienceGuards(ctx, secret) };
}

interface Request {
  headers?: Record<string, string>;
  route?: string;
  params?: Record<string, string>;
}

/** Runs a guard on a request from IP; whether it let the route run, what it answered or threw. */
async function run(guard: ReturnType<typeof audienceGuards>['admin'], request: Request = {}) {
  const headers: Record<string, string> = {};
  const answer: { status?: number; type?: string; body?: unknown } = {};
  const c = {
    ip: IP,
    state: {},
    params: request.params ?? {},
    _matchedRoute: request.route,
    get: (name: string) => request.headers?.[name.toLowerCase()] ?? '',
    set: (name: string | Record<string, string>, value?: string) =>
      typeof name === 'string' ? void (headers[name] = value!) : void Object.assign(headers, name),
    set status(value: number) {
      answer.status = value;
    },
    set type(value: string) {
      answer.type = value;
    },
    set body(value: unknown) {
      answer.body = value;
    },
  } as unknown as Parameters<typeof guard>[0];
  let passed = false;
  const error = await guard(c, async () => void (passed = true)).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { passed, headers, answer, error, state: c.state };
}

describe('the administrator guard', () => {
  it('counts the client IP before the token, then the administrator, with RateLimit headers', async () => {
    const { limiter, guards } = setUp();
    const result = await run(guards.admin, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(result.passed).toBe(true);
    expect(limiter.buckets).toEqual([`admin-ip:${IP}`, 'admin:ops']);
    expect(result.headers).toEqual({
      'Cache-Control': 'no-store',
      'RateLimit-Limit': '300',
      'RateLimit-Remaining': '299',
    });
  });

  it('counts a request without a valid token against its IP, then answers 401', async () => {
    const { limiter, guards } = setUp();
    const result = await run(guards.admin, { headers: { authorization: 'Bearer forged' } });
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ code: 'auth.unauthenticated' });
    expect(limiter.buckets).toEqual([`admin-ip:${IP}`]);
  });

  it('refuses over the per-IP limit with 429 request.rate_limited before the token is read', async () => {
    const { limiter, guards } = setUp();
    limiter.refuse.add(`admin-ip:${IP}`);
    const result = await run(guards.admin, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ kind: 'rate_limited', code: 'request.rate_limited', retryAfterSeconds: 12 });
    expect(result.headers).toEqual({ 'Cache-Control': 'no-store' });
    expect(limiter.buckets).toEqual([`admin-ip:${IP}`]);
  });

  it('refuses over the per-administrator limit', async () => {
    const { limiter, guards } = setUp();
    limiter.refuse.add('admin:ops');
    const result = await run(guards.admin, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(result.error).toMatchObject({ code: 'request.rate_limited', retryAfterSeconds: 12 });
    expect(result.headers['RateLimit-Remaining']).toBe('0');
  });

  it("does not count the courier simulator's calls (this process's pass), and still checks their token", async () => {
    const { limiter, guards } = setUp();
    const pass = { [SIMULATOR_PASS_HEADER]: 'sim-pass' };
    expect((await run(guards.admin, { headers: { ...pass, authorization: `Bearer ${adminToken}` } })).passed).toBe(
      true,
    );
    expect((await run(guards.admin, { headers: pass })).error).toMatchObject({ code: 'auth.unauthenticated' });
    expect(limiter.buckets).toEqual([]);
    await run(guards.admin, { headers: { [SIMULATOR_PASS_HEADER]: 'guessed', authorization: `Bearer ${adminToken}` } });
    expect(limiter.buckets).toEqual([`admin-ip:${IP}`, 'admin:ops']);
  });
});

describe('the public guard', () => {
  it('counts the client IP, then the tracking link by its hash', async () => {
    const { limiter, guards } = setUp();
    const result = await run(guards.public, { route: TRACKING_STATE_PATH, params: { token } });
    expect(result.passed).toBe(true);
    expect(limiter.buckets).toEqual([`public-ip:${IP}`, trackingBucket(token)]);
    expect(limiter.buckets.join()).not.toContain(token);
  });

  it('counts only the IP of the documents and of a malformed link', async () => {
    const { limiter, guards } = setUp();
    await run(guards.public, { route: '/v1/openapi.json' });
    await run(guards.public, { route: TRACKING_PAGE_PATH, params: { token: 'nonsense' } });
    expect(limiter.buckets).toEqual([`public-ip:${IP}`, `public-ip:${IP}`]);
  });

  it("answers the page's 429 itself, in HTML, with Retry-After and the page's headers", async () => {
    const { limiter, guards } = setUp();
    limiter.refuse.add(trackingBucket(token));
    const result = await run(guards.public, { route: TRACKING_PAGE_PATH, params: { token } });
    expect(result).toMatchObject({ passed: false, error: undefined });
    expect(result.answer).toEqual({ status: 429, type: 'text/html; charset=utf-8', body: expect.any(String) });
    expect(result.answer.body).toContain('Too many requests');
    expect(result.headers).toMatchObject({
      'Retry-After': '12',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': expect.stringContaining("default-src 'none'"),
    });
  });

  it("refuses the state with the envelope's 429, with the state's headers", async () => {
    const { limiter, guards } = setUp();
    limiter.refuse.add(`public-ip:${IP}`);
    const result = await run(guards.public, { route: TRACKING_STATE_PATH, params: { token } });
    expect(result.passed).toBe(false);
    expect(result.answer).toEqual({});
    expect(result.error).toMatchObject({ code: 'request.rate_limited', retryAfterSeconds: 12 });
    expect(result.headers).toMatchObject({
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    });
    expect(limiter.buckets).toEqual([`public-ip:${IP}`]); // the link is not counted once the IP is refused
  });

  it("refuses a document with the envelope's 429", async () => {
    const { limiter, guards } = setUp();
    limiter.refuse.add(`public-ip:${IP}`);
    const result = await run(guards.public, { route: '/courier/v1/openapi.json' });
    expect(result.error).toMatchObject({ code: 'request.rate_limited' });
    expect(result.headers).toEqual({});
  });
});
