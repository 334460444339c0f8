import {
  adminToken,
  createTenant,
  localEnv,
  partnerCall,
  signTestBearerToken,
  startGateway,
  type TestGateway,
} from '@marketplace/testing';
import { TestUpstream } from './support/upstream';

// The tenant API's and the administrator API's limits on a gateway process against the real
// Redis: per client IP (counted before the token is checked: refused tokens count) and per caller
// (tenant, administrator), each in buckets of its own, answered 429 rate_limit.exceeded in
// problem+json with Retry-After. Each request names its client address (TRUST_PROXY).

let upstream: TestUpstream;
const gateways: TestGateway[] = [];

async function gateway(env: Record<string, string>) {
  const gw = await startGateway({ TRUST_PROXY: 'true', CATALOG_URL: upstream.url, ...env });
  gateways.push(gw);
  return gw;
}

beforeAll(async () => {
  upstream = await new TestUpstream().start();
});

afterAll(async () => {
  await Promise.all(gateways.map((gw) => gw.stop()));
  await upstream?.stop();
});

/** A call to the gateway from `ip`, with this bearer token (or none). */
async function call(gw: TestGateway, ip: string, path: string, token?: string) {
  const res = await fetch(`${gw.url}${path}`, {
    headers: { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const adminAs = (sub: string) =>
  signTestBearerToken(
    Buffer.from(localEnv().MARKETPLACE_TOKEN_SECRET!, 'base64'),
    { role: 'admin', sub },
    new Date(Date.now() + 3_600_000),
  );

function expectLimited(res: Awaited<ReturnType<typeof call>>) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body).toMatchObject({
    type: '/docs/problems/rate_limit.exceeded',
    status: 429,
    title: 'Too Many Requests',
    code: 'rate_limit.exceeded',
  });
  expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]?$/);
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
}

const scrape = async (gw: TestGateway) => (await fetch(`${gw.url}/metrics`)).text();
const rejections = (text: string, scope: string) => {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`rate_limit_rejections_total{scope="${scope}",service="gateway-auth"} `));
  return line ? Number(line.split(' ').pop()) : NaN;
};

describe('the administrator API', () => {
  it('counts every request per client IP before the token: the 4th of 3 a minute is 429, whoever asks', async () => {
    const gw = await gateway({ ADMIN_RATE_LIMIT_PER_IP: '3' });
    const ip = '203.0.113.10';
    expect((await call(gw, ip, '/api/admin/v1/tenants')).status).toBe(401);
    expect((await call(gw, ip, '/api/admin/v1/tenants', 'not-a-token')).status).toBe(401);
    expect((await call(gw, ip, '/api/admin/v1/tenants', adminToken())).status).toBe(200);
    expectLimited(await call(gw, ip, '/api/admin/v1/tenants', adminToken()));

    // Another address has its own budget; the tenant and Partner APIs count that address apart.
    expect((await call(gw, '203.0.113.11', '/api/admin/v1/tenants', adminToken())).status).toBe(200);
    expect((await call(gw, ip, '/api/tenant/v1/installations')).status).toBe(401);
    expect(
      (await partnerCall(gw, undefined, 'GET', '/catalog/branches', { headers: { 'x-forwarded-for': ip } })).status,
    ).toBe(401);

    const metrics = await scrape(gw);
    expect(rejections(metrics, 'admin_ip')).toBe(1);
    expect(rejections(metrics, 'admin')).toBe(0);
    expect(metrics).not.toContain(ip);
  });

  it('counts per administrator (the token sub) from any address, with RateLimit headers', async () => {
    const gw = await gateway({ ADMIN_RATE_LIMIT_PER_ADMIN: '3' });
    const ops = adminAs('ops-1');
    for (const remaining of ['2', '1', '0']) {
      const res = await call(gw, `198.51.100.${remaining}`, '/api/admin/v1/apps', ops);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"admin";q=3;w=60');
      expect(res.headers.get('ratelimit')).toBe(`"admin";r=${remaining}`);
    }
    const refused = await call(gw, '198.51.100.9', '/api/admin/v1/apps', ops);
    expectLimited(refused);
    // The RateLimit state of a refusal: nothing left, and `t` the seconds to wait, as Retry-After.
    expect(refused.headers.get('ratelimit')).toBe(`"admin";r=0;t=${refused.headers.get('retry-after')}`);
    // Another administrator is not held back by the first.
    expect((await call(gw, '198.51.100.9', '/api/admin/v1/apps', adminAs('ops-2'))).status).toBe(200);
    expect(rejections(await scrape(gw), 'admin')).toBe(1);
  });
});

describe('the tenant API', () => {
  it('counts every request per client IP before the token, forwarded parts included', async () => {
    const gw = await gateway({ TENANT_RATE_LIMIT_PER_IP: '3' });
    const token = await tenantToken(gw);
    const ip = '203.0.113.20';
    const before = upstream.seen.length;
    expect((await call(gw, ip, '/api/tenant/v1/installations', 'forged')).status).toBe(401);
    expect((await call(gw, ip, '/api/tenant/v1/installations', token)).status).toBe(200);
    expect((await call(gw, ip, '/api/tenant/v1/catalog/branches', token)).status).toBe(200);
    expectLimited(await call(gw, ip, '/api/tenant/v1/catalog/branches', token));
    expect(upstream.seen.length - before).toBe(1); // the refused request never reached the owner
    expect((await call(gw, '203.0.113.21', '/api/tenant/v1/installations', token)).status).toBe(200);
    expect(rejections(await scrape(gw), 'tenant_ip')).toBe(1);
  });

  it('counts per tenant: its own routes and the forwarded ones share one budget', async () => {
    const gw = await gateway({ TENANT_RATE_LIMIT_PER_TENANT: '3' });
    const first = await tenantToken(gw);
    const second = await tenantToken(gw);
    const paths = ['/api/tenant/v1/installations', '/api/tenant/v1/catalog/branches', '/api/tenant/v1/apps'];
    for (const [i, path] of paths.entries()) {
      const res = await call(gw, `192.0.2.${i + 1}`, path, first);
      expect({ path, status: res.status, state: res.headers.get('ratelimit') }).toEqual({
        path,
        status: 200,
        state: `"tenant";r=${2 - i}`,
      });
    }
    expectLimited(await call(gw, '192.0.2.9', '/api/tenant/v1/catalog/products', first));
    expect((await call(gw, '192.0.2.9', '/api/tenant/v1/installations', second)).status).toBe(200);
    expect(rejections(await scrape(gw), 'tenant')).toBe(1);
  });
});

/** A new tenant of this gateway and a bearer token of it (minted through the administrator API). */
async function tenantToken(gw: TestGateway): Promise<string> {
  const { tenantId } = await createTenant(gw);
  const minted = await gw.admin.call('POST', `/api/admin/v1/tenants/${tenantId}/tokens`, {});
  expect(minted.status).toBe(201);
  return minted.body.token as string;
}
