import type Koa from 'koa';
import { signBearerToken } from '@marketplace/identity';
import type { RequestState } from '@marketplace/http';
import { guardAdminRoutes } from './admin-auth';

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
  } as unknown as Koa.ParameterizedContext<RequestState>;
  let passed = false;
  const outcome = await guardAdminRoutes(key, () => now)(c, async () => void (passed = true)).then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );
  return { outcome, passed, headers };
}

describe('guardAdminRoutes', () => {
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

  it('leaves other paths to their own guards', async () => {
    expect(await guard('/api/tenant/v1/webhooks/openapi.json')).toEqual({ outcome: 'ok', passed: true, headers: {} });
    expect(await guard('/healthz')).toMatchObject({ outcome: 'ok', passed: true });
  });
});
