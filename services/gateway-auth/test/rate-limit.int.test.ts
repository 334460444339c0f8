import { connectedApp, partnerCall, startGateway, type TestGateway } from '@marketplace/testing';
import { TestUpstream } from './support/upstream';

// Rate limits in Redis under real concurrency: exactly the limit is admitted, the rest get 429
// with Retry-After in whole seconds and a problem+json body.
let upstream: TestUpstream;
const gateways: TestGateway[] = [];

async function gateway(env: Record<string, string>) {
  const gw = await startGateway({ CATALOG_URL: upstream.url, ORDERING_URL: upstream.url, ...env });
  gateways.push(gw);
  return gw;
}

const counts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ((acc[s] = (acc[s] ?? 0) + 1), acc), {});

beforeAll(async () => {
  upstream = await new TestUpstream().start();
});

afterAll(async () => {
  await Promise.all(gateways.map((gw) => gw.stop()));
  await upstream?.stop();
});

describe('rate limits', () => {
  it('admits exactly 120 of 1,000 concurrent requests from one IP address, before authentication', async () => {
    const gw = await gateway({});
    const responses = await Promise.all(
      Array.from({ length: 1000 }, () => partnerCall(gw, undefined, 'GET', '/catalog/branches')),
    );
    expect(counts(responses.map((r) => r.status))).toEqual({ 401: 120, 429: 880 });
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.body).toMatchObject({
      type: '/docs/problems/rate_limit.exceeded',
      status: 429,
      title: 'Too Many Requests',
      code: 'rate_limit.exceeded',
    });
    for (const r of responses.filter((x) => x.status === 429)) {
      expect(r.headers.get('retry-after')).toMatch(/^[1-9][0-9]?$/);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // The IETF RateLimit fields name the per-IP policy, nothing left, and the wait of Retry-After.
      expect(r.headers.get('ratelimit-policy')).toBe('"ip";q=120;w=60');
      expect(r.headers.get('ratelimit')).toBe(`"ip";r=0;t=${r.headers.get('retry-after')}`);
    }
    // Before authentication nothing is said of a policy: the installation is not known yet.
    for (const r of responses.filter((x) => x.status === 401)) expect(r.headers.get('ratelimit')).toBeNull();
  }, 60_000);

  it('admits exactly 60 of 1,000 concurrent requests of one installation, catalog and orders sharing the budget', async () => {
    const gw = await gateway({ RATE_LIMIT_PER_IP: '100000' });
    const app = await connectedApp(gw, ['Catalog.Read', 'Orders.Create']);
    const before = upstream.seen.length;
    const paths = ['/catalog/branches', '/orders/6f1c1f8e-2b7a-4d1e-9c3a-0a5b6c7d8e9f'];
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => partnerCall(gw, app.apiKey, 'GET', paths[i % 2]!)),
    );
    expect(counts(responses.map((r) => r.status))).toEqual({ 200: 60, 429: 940 });
    expect(upstream.seen.length - before).toBe(60);
    // Every answer carries the installation's policy; the admitted ones counted down 59 to 0, each
    // once, and the refused ones say nothing is left and when a request is admitted again.
    for (const r of responses) expect(r.headers.get('ratelimit-policy')).toBe('"installation";q=60;w=60');
    const left = responses.filter((r) => r.status === 200).map((r) => r.headers.get('ratelimit'));
    expect(left.sort()).toEqual(Array.from({ length: 60 }, (_, i) => `"installation";r=${i}`).sort());
    for (const r of responses.filter((x) => x.status === 429))
      expect(r.headers.get('ratelimit')).toBe(`"installation";r=0;t=${r.headers.get('retry-after')}`);
    // Another installation has its own budget.
    const other = await connectedApp(gw, ['Catalog.Read']);
    expect((await partnerCall(gw, other.apiKey, 'GET', '/catalog/branches')).status).toBe(200);
  }, 60_000);

  it('counts per client address (behind a trusted proxy) and admits again once the window has passed', async () => {
    const gw = await gateway({ TRUST_PROXY: 'true', RATE_LIMIT_PER_IP: '3', RATE_LIMIT_WINDOW_SECONDS: '2' });
    const from = (ip: string) =>
      partnerCall(gw, undefined, 'GET', '/catalog/branches', { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).status).toBe(401);
    const limited = await from('203.0.113.7');
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(2);
    expect((await from('203.0.113.8')).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 50));
    expect((await from('203.0.113.7')).status).toBe(401);
  }, 30_000);
});
