import { connectedApp, partnerCall, startGateway, type TestGateway } from '@marketplace/testing';
import { TestUpstream } from './support/upstream';

// What the Partner API edge counts at /metrics, moved by real requests to a gateway process:
// rate-limit refusals by scope and idempotent requests by outcome. No label names an address, an
// installation or a key.

let upstream: TestUpstream;
let gw: TestGateway;

beforeAll(async () => {
  upstream = await new TestUpstream().start();
  gw = await startGateway({
    ORDERING_URL: upstream.url,
    CATALOG_URL: upstream.url,
    TRUST_PROXY: 'true', // each test request chooses its client address
    RATE_LIMIT_PER_IP: '3',
    RATE_LIMIT_PER_INSTALLATION: '8',
    IDEMPOTENCY_WAIT_MS: '200',
  });
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await upstream?.stop();
});

const scrape = async () => (await fetch(`${gw.url}/metrics`)).text();
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series.slice(0, -1)},service="gateway-auth"} `));
  return line ? Number(line.split(' ').pop()) : NaN;
};

let address = 0;
/** A request from an address of its own, so that only the test that means to meets the per-IP limit. */
const from = (ip = `198.51.100.${++address}`) => ({ 'x-forwarded-for': ip });

describe('Partner API edge metrics', () => {
  it('count rate-limit refusals per IP and per installation', async () => {
    const before = await scrape();
    expect(value(before, 'rate_limit_rejections_total{scope="ip"}')).toBe(0);
    expect(value(before, 'rate_limit_rejections_total{scope="installation"}')).toBe(0);

    const ip = '203.0.113.9';
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await partnerCall(gw, undefined, 'GET', '/catalog/branches', { headers: from(ip) })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);

    const app = await connectedApp(gw, ['Catalog.Read']);
    const answers = [];
    for (let i = 0; i < 9; i++)
      answers.push((await partnerCall(gw, app.apiKey, 'GET', '/catalog/branches', { headers: from() })).status);
    expect(answers.filter((s) => s === 429)).toHaveLength(1);

    const after = await scrape();
    expect(value(after, 'rate_limit_rejections_total{scope="ip"}')).toBe(2);
    expect(value(after, 'rate_limit_rejections_total{scope="installation"}')).toBe(1);
    expect(after).not.toContain(ip);
    expect(after).not.toContain(app.installationId);
  });

  it('count idempotent requests by outcome: stored, not_stored, replayed, conflict, in_progress', async () => {
    const app = await connectedApp(gw, ['Orders.Create']);
    const post = (key: string, body: string) =>
      partnerCall(gw, app.apiKey, 'POST', '/orders', { body, headers: { ...from(), 'idempotency-key': key } });
    const before = await scrape();

    expect((await post('m-1', '{"a":1}')).status).toBe(201); // stored
    expect((await post('m-1', '{"a":1}')).headers.get('idempotent-replayed')).toBe('true'); // replayed
    expect((await post('m-1', '{"a":2}')).body).toMatchObject({ code: 'idempotency.key_reused' }); // conflict
    expect((await post('m-2', '{"respondWith":409}')).status).toBe(409); // not_stored
    // A second request with the key of one still running waits IDEMPOTENCY_WAIT_MS, then 409.
    const slow = post('m-3', '{"delayMs":1500}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post('m-3', '{"delayMs":1500}')).body).toMatchObject({ code: 'idempotency.request_in_progress' });
    expect((await slow).status).toBe(201);

    const after = await scrape();
    const moved = (outcome: string) =>
      value(after, `idempotency_requests_total{outcome="${outcome}"}`) -
      value(before, `idempotency_requests_total{outcome="${outcome}"}`);
    expect(['stored', 'replayed', 'conflict', 'not_stored', 'in_progress'].map(moved)).toEqual([2, 1, 1, 1, 1]);
  });
});
