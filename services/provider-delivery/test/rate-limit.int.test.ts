import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { connectRedis, redisConnectionFromEnv } from '@marketplace/redis';
import {
  freePort,
  quietLogger,
  stackEnv,
  startServiceProcess,
  waitFor,
  type ServiceProcess,
} from '@marketplace/testing';
import { adminToken, berlin, call, type Answer } from './support/provider';

// The platform API's per-account rate limit, with provider-delivery as a process on the real
// stack: 429 request.rate_limited in the envelope with Retry-After once an account's budget is
// spent, other accounts unaffected, the limit set and changed through the administrator API, and
// requests admitted uncounted while Redis does not answer.

jest.setTimeout(60_000);

const token = adminToken();

const accountInput = (name: string, rateLimit?: { requestsPerMinute: unknown }) => ({
  name,
  capabilities: {
    supportsPolling: true,
    supportsReturnToOrigin: false,
    supportsProofOfDelivery: false,
    supportsScheduledDelivery: false,
    supportsUpdates: true,
    supportsCancellation: true,
  },
  serviceArea: berlin,
  ...(rateLimit ? { rateLimit } : {}),
});

/** One provider-delivery process, driven through its two APIs. */
function client(service: ServiceProcess) {
  const admin = (method: string, path: string, body?: unknown) =>
    call(service.url, method, `/admin/v1/platform-accounts${path}`, body, `Bearer ${token}`);
  return {
    admin,
    status: (key: string, id: string = randomUUID()) =>
      call(service.url, 'GET', `/v1/deliveries/${id}/status`, undefined, `Bearer ${key}`),
    async account(name: string, rateLimit?: { requestsPerMinute: number }) {
      const created = await admin('POST', '', accountInput(name, rateLimit));
      expect(created.status).toBe(201);
      const key = await admin('POST', `/${created.body.account.id}/api-keys`);
      expect(key.status).toBe(201);
      return { id: created.body.account.id as string, key: key.body.apiKey as string, body: created.body.account };
    },
  };
}

const limited = { code: 'request.rate_limited', message: expect.any(String), retryable: true };
const headersOf = (res: Answer) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
});

let service: ServiceProcess;
let api: ReturnType<typeof client>;
let redis: Redis;

beforeAll(async () => {
  service = await startServiceProcess('provider-delivery', await freePort(), {
    MONGO_DATABASE: `it_prv_rl_${randomBytes(4).toString('hex')}`,
  });
  api = client(service);
  redis = await connectRedis({ connection: redisConnectionFromEnv(stackEnv()), logger: quietLogger() });
});

afterAll(async () => {
  await service?.stop();
  await redis?.quit();
});

describe('the per-account rate limit', () => {
  it('answers the 4th call of an account limited to 3 per minute with 429, Retry-After and the envelope', async () => {
    const slow = await api.account('Three a minute', { requestsPerMinute: 3 });
    const other = await api.account('Default limit');
    expect(slow.body.rateLimit).toEqual({ requestsPerMinute: 3 });
    expect(other.body.rateLimit).toEqual({ requestsPerMinute: 1_200 });

    for (const remaining of ['2', '1', '0']) {
      const res = await api.status(slow.key);
      expect(res.status).toBe(404);
      expect(headersOf(res)).toEqual({ limit: '3', remaining });
    }
    const refused = await api.status(slow.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.body).toEqual(limited);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]?$/);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(headersOf(refused)).toEqual({ limit: '3', remaining: '0' });

    // Another account has its own budget; a wrong key for the limited account is still 401 (the
    // limit counts authenticated requests only), and the public contract document is not limited.
    const fine = await api.status(other.key);
    expect(fine.status).toBe(404);
    expect(headersOf(fine)).toEqual({ limit: '1200', remaining: '1199' });
    const wrong = await api.status(`${slow.key.split('.')[0]}.${randomBytes(32).toString('base64url')}`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('ratelimit-limit')).toBeNull();
    expect((await call(service.url, 'GET', '/v1/openapi.json')).status).toBe(200);

    // Counted in Redis under the service's own prefix, one bucket per account.
    expect(await redis.zcard(`provider-delivery:rl:account:${slow.id}`)).toBe(3);
  });

  it('admits exactly the limit of concurrent calls', async () => {
    const { key } = await api.account('Five a minute', { requestsPerMinute: 5 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => api.status(key)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 404)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
  });

  it('is set and changed through the administrator API, within its range', async () => {
    const { id, key } = await api.account('Changed', { requestsPerMinute: 1 });
    expect((await api.status(key)).status).toBe(404);
    expect((await api.status(key)).status).toBe(429);

    const raised = await api.admin('PATCH', `/${id}`, { rateLimit: { requestsPerMinute: 3 } });
    expect(raised.status).toBe(200);
    expect(raised.body.rateLimit).toEqual({ requestsPerMinute: 3 });
    expect((await api.admin('GET', `/${id}`)).body.rateLimit).toEqual({ requestsPerMinute: 3 });
    // The change applies at once through this process (its key cache drops the account); the
    // call already counted in the window still counts.
    expect(headersOf(await api.status(key))).toEqual({ limit: '3', remaining: '1' });
    expect(headersOf(await api.status(key))).toEqual({ limit: '3', remaining: '0' });
    expect((await api.status(key)).status).toBe(429);

    expect((await api.admin('PATCH', `/${id}`, { rateLimit: { requestsPerMinute: 1_000_000 } })).status).toBe(200);
    expect((await api.status(key)).status).toBe(404);
    for (const rateLimit of [
      { requestsPerMinute: 0 },
      { requestsPerMinute: 1_000_001 },
      { requestsPerMinute: 1.5 },
      { requestsPerMinute: '60' },
      { requestsPerMinute: 60, burst: 10 },
      {},
    ]) {
      for (const res of [
        await api.admin('PATCH', `/${id}`, { rateLimit }),
        await api.admin('POST', '', accountInput('Invalid', rateLimit as { requestsPerMinute: unknown })),
      ]) {
        expect({ rateLimit, status: res.status, code: res.body.code }).toEqual({
          rateLimit,
          status: 400,
          code: 'request.invalid',
        });
        expect(Object.keys(res.body.fieldErrors).join()).toMatch(/^rateLimit/);
      }
    }
    expect((await api.admin('GET', `/${id}`)).body.rateLimit).toEqual({ requestsPerMinute: 1_000_000 });
  });
});

/** A TCP relay to the stack's Redis that a test can cut and restore, for one process alone. */
async function redisRelay() {
  const target = new URL(stackEnv().REDIS_URL);
  const port = await freePort();
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => (sockets.delete(socket), inbound.destroy(), outbound.destroy()));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen();
  const url = new URL(target);
  url.port = String(port);
  url.hostname = '127.0.0.1';
  return {
    url: url.toString(),
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: listen,
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

describe('while Redis does not answer', () => {
  it('admits requests uncounted, warns once, and counts again when Redis is back', async () => {
    const relay = await redisRelay();
    const alone = await startServiceProcess('provider-delivery', await freePort(), {
      MONGO_DATABASE: `it_prv_rl_${randomBytes(4).toString('hex')}`,
      REDIS_URL: relay.url,
    });
    try {
      const own = client(alone);
      const { key } = await own.account('Through the relay', { requestsPerMinute: 2 });
      expect(headersOf(await own.status(key))).toEqual({ limit: '2', remaining: '1' });

      await relay.cut();
      for (let i = 0; i < 5; i++) {
        const res = await own.status(key);
        expect(res.status).toBe(404);
        expect(headersOf(res)).toEqual({ limit: null, remaining: null });
      }

      await relay.restore();
      const counted = await waitFor(
        'the rate limit to be counted again',
        async () => {
          const res = await own.status(key);
          return res.headers.get('ratelimit-limit') ? res : undefined;
        },
        15_000,
        200,
      );
      expect(counted.status).toBe(404);
      expect(counted.headers.get('ratelimit-remaining')).toBe('0');
      expect((await own.status(key)).status).toBe(429);

      const lines = alone.output().split('\n');
      expect(lines.filter((line) => line.includes('rate limits unchecked'))).toHaveLength(1);
      expect(lines.filter((line) => line.includes('rate limits counted again'))).toHaveLength(1);
    } finally {
      await alone.stop();
      await relay.close();
    }
  });
});
