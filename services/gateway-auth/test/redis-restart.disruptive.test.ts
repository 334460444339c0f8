import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  connectedApp,
  partnerCall,
  repoRoot,
  startGateway,
  waitFor,
  type ConnectedApp,
  type TestGateway,
} from '@marketplace/testing';
import { TestUpstream } from './support/upstream';

// Stops and restarts the real Redis under a running gateway: stored idempotent responses live in
// MongoDB and survive; while Redis is away the Partner API fails closed with 503, never a 500.
function stack(action: 'up' | 'down') {
  const result = spawnSync('bash', [join(repoRoot, 'scripts/stack/stack.sh'), action, 'redis'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`stack ${action} redis failed: ${result.stdout}${result.stderr}`);
}

let upstream: TestUpstream;
let gw: TestGateway;
let app: ConnectedApp;

beforeAll(async () => {
  upstream = await new TestUpstream().start();
  gw = await startGateway({ ORDERING_URL: upstream.url, RATE_LIMIT_PER_IP: '100000' });
  app = await connectedApp(gw, ['Orders.Create']);
}, 60_000);

afterAll(async () => {
  stack('up');
  await gw?.stop();
  await upstream?.stop();
});

it('replays a stored response after Redis restarts, and answers 503 while it is down', async () => {
  const post = () =>
    partnerCall(gw, app.apiKey, 'POST', '/orders', {
      body: '{"externalOrderId":"A-1"}',
      headers: { 'idempotency-key': 'survives-redis' },
    });
  const first = await post();
  expect(first.status).toBe(201);

  stack('down');
  const during = await post();
  expect(during.status).toBe(503);
  expect(during.body).toMatchObject({ code: 'service.unavailable' });
  expect(during.headers.get('retry-after')).toBe('1');

  stack('up');
  await waitFor(
    'the gateway to reach Redis again',
    async () => (await fetch(`${gw.url}/readyz`)).status === 200,
    30_000,
    250,
  );
  const replay = await waitFor(
    'a replay after the restart',
    async () => {
      const res = await post();
      return res.status === 503 ? undefined : res;
    },
    30_000,
    250,
  );
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.text).toBe(first.text);
  expect(upstream.executions('POST', '/api/partner/v1/orders')).toBe(1);
  expect(gw.process.output()).not.toMatch(/"level":"(error|fatal)"/); // no unhandled errors (pino writes level labels)
}, 120_000);
