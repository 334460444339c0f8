import { signBearerToken } from '@marketplace/identity';
import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import { adminGuard, adminIpLimit, perAdminLimit, type AdminLimitScope } from './admin-auth';

const key = Buffer.alloc(32, 7);
const now = new Date('2026-11-23T10:00:00Z');
const later = new Date('2026-11-23T11:00:00Z');

/** Runs the guard on a request for `path` with this Authorization header; what it let through and set. */
async function guard(path: string, authorization?: string) {
  const headers: Record<string, string> = {};
  const c = {
    path,
    get: (name: string) => (name.toLowerCase() === 'authorization' ? (authorization ?? '') : ''),
    set: (name: string, value: string) => void (headers[name] = value),
    state: {},
  } as unknown as Parameters<ReturnType<typeof adminGuard>>[0];
  let passed = false;
  const outcome = await adminGuard(key, () => now)(c, async () => void (passed = true)).then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );
  return { outcome, passed, headers };
}

describe('adminGuard', () => {
  it('lets an administrator token through, with Cache-Control: no-store', async () => {
    const token = signBearerToken(key, { role: 'admin', sub: 'ops' }, later, now);
    expect(await guard('/admin/v1/provider-callbacks', `Bearer ${token}`)).toEqual({
      outcome: 'ok',
      passed: true,
      headers: { 'Cache-Control': 'no-store' },
    });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['garbage', 'Bearer not-a-token'],
    ['a tenant token', `Bearer ${signBearerToken(key, { role: 'tenant', sub: 't', tid: 't1' }, later, now)}`],
    ['another key', `Bearer ${signBearerToken(Buffer.alloc(32, 8), { role: 'admin', sub: 'ops' }, later, now)}`],
    ['an expired token', `Bearer ${signBearerToken(key, { role: 'admin', sub: 'ops' }, now, new Date(0))}`],
  ])('refuses %s with 401 auth.unauthenticated, before the route runs', async (_what, authorization) => {
    const result = await guard('/admin/v1/provider-callbacks/openapi.json', authorization);
    expect(result).toEqual({
      outcome: 'auth.unauthenticated',
      passed: false,
      headers: { 'Cache-Control': 'no-store' },
    });
  });
});

/** A limiter that refuses the buckets the test names, and remembers what it was asked. */
class ScriptedLimiter implements RequestLimiter {
  readonly calls: [string, number, number][] = [];
  readonly refuse = new Set<string>();

  async take(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    this.calls.push([bucket, limit, windowSeconds]);
    return this.refuse.has(bucket)
      ? { allowed: false, remaining: 0, retryAfterSeconds: 9 }
      : { allowed: true, remaining: limit - 1, retryAfterSeconds: 0 };
  }
}

describe('the administrator API limits', () => {
  const limits = { perIp: 600, perAdmin: 300 };
  const token = signBearerToken(key, { role: 'admin', sub: 'ops' }, later, now);

  /** The three steps of the admin guard (service.ts), on a request from 203.0.113.7. */
  async function guarded(authorization: string | undefined, limiter: ScriptedLimiter) {
    const refused: AdminLimitScope[] = [];
    const steps = [
      adminIpLimit(limiter, limits, (scope) => void refused.push(scope)),
      adminGuard(key, () => now),
      perAdminLimit(limiter, limits, (scope) => void refused.push(scope)),
    ];
    const headers: Record<string, string> = {};
    const c = {
      ip: '203.0.113.7',
      get: (name: string) => (name.toLowerCase() === 'authorization' ? (authorization ?? '') : ''),
      set: (name: string, value: string) => void (headers[name] = value),
      state: {},
    } as unknown as Parameters<(typeof steps)[0]>[0];
    let passed = false;
    const run = (i: number): Promise<void> =>
      i === steps.length ? Promise.resolve(void (passed = true)) : Promise.resolve(steps[i]!(c, () => run(i + 1)));
    const error = await run(0).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { passed, headers, error, refused };
  }

  it('counts the client IP, then the administrator (sub), each in its own bucket, per minute', async () => {
    const limiter = new ScriptedLimiter();
    const result = await guarded(`Bearer ${token}`, limiter);
    expect(result.passed).toBe(true);
    expect(limiter.calls).toEqual([
      ['admin-ip:203.0.113.7', 600, 60],
      ['admin:ops', 300, 60],
    ]);
    expect(result.headers).toEqual({
      'Cache-Control': 'no-store',
      'RateLimit-Limit': '300',
      'RateLimit-Remaining': '299',
    });
  });

  it('counts a request with a refused token against its IP before answering 401', async () => {
    const limiter = new ScriptedLimiter();
    const result = await guarded('Bearer not-a-token', limiter);
    expect(result.error).toMatchObject({ code: 'auth.unauthenticated' });
    expect(limiter.calls.map(([bucket]) => bucket)).toEqual(['admin-ip:203.0.113.7']);
  });

  it.each([
    ['admin-ip:203.0.113.7', 'admin_ip'],
    ['admin:ops', 'admin'],
  ])('refuses over %s with 429 rate_limit.exceeded and the seconds to wait', async (bucket, scope) => {
    const limiter = new ScriptedLimiter();
    limiter.refuse.add(bucket);
    const result = await guarded(`Bearer ${token}`, limiter);
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ kind: 'rate_limited', code: 'rate_limit.exceeded', retryAfterSeconds: 9 });
    expect(result.refused).toEqual([scope]);
  });

  it('never counts an administrator the guard did not put on the request state: 401', async () => {
    const limiter = new ScriptedLimiter();
    const c = { ip: '203.0.113.7', state: {}, set: () => undefined } as unknown as Parameters<
      ReturnType<typeof perAdminLimit>
    >[0];
    await expect(perAdminLimit(limiter, limits)(c, async () => undefined)).rejects.toMatchObject({
      code: 'auth.unauthenticated',
    });
    expect(limiter.calls).toEqual([]);
  });
});
