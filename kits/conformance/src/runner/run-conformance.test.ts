import { createHmac } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Declaration } from '../model';
import { ref } from '../spec';
import type { ConformanceTest, TestContext } from '../test-api';
import { runConformance, type RunOptions } from './run-conformance';

const API_KEY = 'key-0123456789abcdef';
const SECRET = 'whsec-0123456789abcdef';

const declaration: Declaration = {
  provider: 'fake',
  contract: { version: '1.1.0', revision: '2026-09-19' },
  capabilities: { supportsPolling: true, supportsWebhooks: true, supportsTracking: false },
  area: { pickup: { lat: 1, lng: 2, address: 'a' }, dropoff: { lat: 3, lng: 4, address: 'b' } },
  sandbox: { lifecycleTimeoutSeconds: 1, holdPreparationMinutes: 600 },
};

/** A tiny provider: creates deliveries (posting one signed event to the callback), answers status, redirects without a key. */
function fakeProvider(): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${API_KEY}`)
        return void res.writeHead(302, { location: '/login' }).end();
      if (req.method === 'POST' && req.url === '/v1/deliveries') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const event = Buffer.from(
          JSON.stringify({
            eventType: 'delivery.accepted',
            platformReference: body.platformReference,
            status: 'provider_accepted',
            eventTimeUtc: new Date().toISOString(),
          }),
        );
        if (body.webhook?.url) {
          const callback = request(body.webhook.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-platform-signature': createHmac('sha256', SECRET).update(event).digest('hex'),
            },
          });
          callback.on('error', () => undefined);
          callback.on('response', (r) => r.resume());
          callback.end(event);
        }
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ accepted: true, providerDeliveryId: `d-${body.platformReference}` }));
      }
      if (req.method === 'GET' && req.url?.endsWith('/status')) {
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'delivered', eventTimeUtc: new Date().toISOString() }));
      }
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ code: 'not_found', message: `no ${API_KEY}`, retryable: false }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }),
    ),
  );
}

const fake = (
  id: string,
  run: (ctx: TestContext) => Promise<void>,
  extra: Partial<ConformanceTest> = {},
): ConformanceTest => ({
  id,
  capability: 'core',
  group: 'create',
  title: `fake ${id}`,
  spec: ref('create', '1'),
  run,
  ...extra,
});

describe('runConformance', () => {
  let provider: { server: Server; baseUrl: string };
  beforeAll(async () => (provider = await fakeProvider()));
  afterAll(() => new Promise((resolve) => provider.server.close(resolve)));
  const options = (tests: ConformanceTest[], more: Partial<RunOptions> = {}): RunOptions => ({
    baseUrl: provider.baseUrl,
    apiKey: API_KEY,
    webhookSecret: SECRET,
    declaration,
    tests,
    quietMs: 200,
    quietMaxMs: 2000,
    ...more,
  });

  it('runs the core and declared capabilities, skips the undeclared and the unselected', async () => {
    const lines: string[] = [];
    const report = await runConformance(
      options(
        [
          fake('T-CORE', async (ctx) =>
            ctx.check((await ctx.provider.call('GET', '/nothing')).status === 404, 'expected 404'),
          ),
          fake('T-POLL', async () => undefined, { capability: 'supportsPolling', group: 'status' }),
          fake('T-TRACK', async () => undefined, { capability: 'supportsTracking', group: 'tracking' }),
          fake('T-OTHER', async () => undefined),
        ],
        { only: ['T-CORE', 'T-POLL', 'T-TRACK'], log: (line) => lines.push(line) },
      ),
    );
    const byId = Object.fromEntries(report.tests.map((test) => [test.id, test]));
    expect(byId['T-CORE']).toMatchObject({ status: 'pass', capability: 'core' });
    expect(byId['T-POLL']!.status).toBe('pass');
    expect(byId['T-TRACK']).toMatchObject({ status: 'skip', reason: 'capability supportsTracking not declared' });
    expect(byId['T-OTHER']).toMatchObject({ status: 'skip', reason: 'not selected' });
    expect(report.summary).toEqual({ passed: 2, failed: 0, skipped: 2, total: 4 });
    expect(lines).toContain('PASS T-CORE fake T-CORE');
    // The 404 body held the API key: reported redacted, and so is the Authorization header.
    const exchange = byId['T-CORE']!.evidence.exchanges[0]!;
    expect(exchange.responseBody).not.toContain(API_KEY);
    expect(exchange.requestHeaders.Authorization).toBe('[redacted]');
    expect(report.capabilities.find((c) => c.capability === 'core')!.certified).toBe(false); // T-OTHER not selected
  });

  it('fails a test that throws, fails or outlives its time, without stopping the run', async () => {
    const report = await runConformance(
      options([
        fake('T-THROW', async () => {
          throw new TypeError('boom');
        }),
        fake('T-FAIL', async (ctx) => ctx.fail('it is wrong')),
        fake('T-SKIP', async (ctx) => ctx.skip('nothing to do')),
        fake('T-SLOW', (ctx) => ctx.sleep(5_000), { timeoutMs: 300 }),
      ]),
    );
    const byId = Object.fromEntries(report.tests.map((test) => [test.id, test]));
    expect(byId['T-THROW']).toMatchObject({ status: 'fail', reason: 'unexpected TypeError: boom' });
    expect(byId['T-FAIL']).toMatchObject({ status: 'fail', reason: 'it is wrong' });
    expect(byId['T-SKIP']).toMatchObject({ status: 'skip', reason: 'nothing to do' });
    expect(byId['T-SLOW']).toMatchObject({ status: 'fail', reason: 'timed out after 0 s' });
  });

  it('runs after tests once the main tests ended, over every exchange and callback of the run', async () => {
    const seen: { exchanges: number; callbacks: number; deliveries: number }[] = [];
    const report = await runConformance(
      options([
        fake(
          'T-AFTER',
          async (ctx) =>
            void seen.push({
              exchanges: ctx.allExchanges().length,
              callbacks: ctx.allCallbacks().length,
              deliveries: ctx.allDeliveries().length,
            }),
          { phase: 'after' },
        ),
        fake('T-CREATE', async (ctx: TestContext) => {
          const delivery = await ctx.createDelivery({ hold: true });
          expect(delivery.request.preparationTimeMinutes).toBe(600);
          await delivery.callback!.waitFor('an event', (events) => events.length > 0, 2000);
          ctx.check((await delivery.waitForStatus(['delivered'], 'delivered')) === 'delivered', 'status');
        }),
        fake('T-NOKEY', async (ctx) =>
          ctx.check(
            (await ctx.provider.call('POST', '/deliveries', { auth: 'none', body: {} })).status === 302,
            'redirect seen',
          ),
        ),
      ]),
    );
    expect(report.tests.map((test) => test.status)).toEqual(['pass', 'pass', 'pass']);
    expect(seen).toEqual([{ exchanges: 3, callbacks: 1, deliveries: 1 }]);
    const created = report.tests[1]!;
    expect(created.evidence.callbacks).toHaveLength(1);
    // The callback token is a secret: redacted from the create body and the callback's path.
    expect(created.evidence.exchanges[0]!.requestBody).toContain('/callbacks/t-create-delivery/[redacted]');
    expect(created.evidence.callbacks[0]!.path).toBe('/callbacks/t-create-delivery/[redacted]');
    expect(created.evidence.callbacks[0]!.headers['x-platform-signature']).toBe('[redacted]');
  });

  it('fails waitForStatus at once when the delivery ended in another terminal status', async () => {
    const report = await runConformance(
      options([
        fake(
          'T-WAIT',
          async (ctx) => void (await (await ctx.createDelivery()).waitForStatus(['cancelled'], 'cancelled')),
          { group: 'cancel' },
        ),
      ]),
    );
    expect(report.tests[0]).toMatchObject({
      status: 'fail',
      reason: 'cancelled not reached: the delivery ended in delivered',
    });
  });
});
