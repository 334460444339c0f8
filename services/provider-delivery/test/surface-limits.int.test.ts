import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis, redisConnectionFromEnv } from '@marketplace/redis';
import {
  localEnv,
  platformAccountSettings,
  quietLogger,
  signTestBearerToken,
  stackEnv,
  waitFor,
} from '@marketplace/testing';
import { ProviderUnderTest } from './support/provider';

// The limits of every surface with provider-delivery as a process against the real Redis, each at
// 3 a minute: the administrator API per client IP and per administrator, the platform API per
// client IP (in front of the accounts' own), the courier API per client IP and per driver, the
// public routes per client IP and each tracking link per token (by its hash). Per-IP limits count
// before credentials are looked at. Over a limit: 429 request.rate_limited in the envelope with
// Retry-After; the tracking page answers a page of its own. The courier simulator of the process
// is not counted. Each request names its client address (TRUST_PROXY).

jest.setTimeout(90_000);

let provider: ProviderUnderTest;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  prefix = `it_prv_limits_${randomBytes(4).toString('hex')}:`;
  provider = await ProviderUnderTest.start({
    TRUST_PROXY: 'true',
    REDIS_KEY_PREFIX: prefix,
    SIMULATOR_ENABLED: 'true',
    ADMIN_RATE_LIMIT_PER_IP: '3',
    ADMIN_RATE_LIMIT_PER_ADMIN: '3',
    PLATFORM_RATE_LIMIT_PER_IP: '3',
    COURIER_RATE_LIMIT_PER_IP: '3',
    COURIER_RATE_LIMIT_PER_DRIVER: '3',
    PUBLIC_RATE_LIMIT_PER_IP: '3',
    TRACKING_RATE_LIMIT_PER_TOKEN: '3',
  });
  redis = await connectRedis({ connection: redisConnectionFromEnv(stackEnv()), logger: quietLogger() });
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await redis?.quit();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A request from `ip` with this bearer credential (or none). */
async function request(
  ip: string,
  method: string,
  path: string,
  authorization?: string,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(`${provider.url}${path}`, {
    method,
    headers: {
      'x-forwarded-for': ip,
      ...(authorization ? { authorization: `Bearer ${authorization}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

const adminAs = (sub: string) =>
  signTestBearerToken(
    Buffer.from(localEnv().PROVIDER_ADMIN_TOKEN_SECRET!, 'base64'),
    { role: 'admin', sub },
    new Date(Date.now() + 3_600_000),
  );

let setUps = 0;
/** An administrator call of the set-up: an address and an administrator of its own, so that no limit meets it. */
const setUp = (method: string, path: string, body?: unknown) => {
  const n = ++setUps;
  return request(`10.77.${n >> 8}.${n & 255}`, method, `/admin/v1${path}`, adminAs(`set-up-${n}`), body);
};

function expectEnvelope429(res: Answer) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.body).toEqual({ code: 'request.rate_limited', message: expect.any(String), retryable: true });
  expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]?$/);
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
}

const newTrackingToken = () => `trk_${randomBytes(16).toString('base64url').slice(0, 22)}`;

async function account(simulator?: { enabled: boolean; drivers: number; timeScale: number }) {
  const created = await setUp(
    'POST',
    '/platform-accounts',
    platformAccountSettings(`Limits ${randomBytes(3).toString('hex')}`, { simulator }),
  );
  expect(created.status).toBe(201);
  const id = created.body.account.id as string;
  const key = await setUp('POST', `/platform-accounts/${id}/api-keys`);
  expect(key.status).toBe(201);
  return { id, apiKey: key.body.apiKey as string };
}

describe('the administrator API', () => {
  it('counts every request per client IP before the token: the 4th of 3 is 429, whoever asks', async () => {
    const ip = '203.0.113.10';
    expect((await request(ip, 'GET', '/admin/v1/platform-accounts')).status).toBe(401);
    expect((await request(ip, 'GET', '/admin/v1/platform-accounts', 'forged')).status).toBe(401);
    expect((await request(ip, 'GET', '/admin/v1/platform-accounts', adminAs('a-1'))).status).toBe(200);
    const refused = await request(ip, 'GET', '/admin/v1/platform-accounts', adminAs('a-2'));
    expectEnvelope429(refused);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect((await request('203.0.113.11', 'GET', '/admin/v1/platform-accounts', adminAs('a-2'))).status).toBe(200);
  });

  it('counts per administrator (the token sub) from any address, with RateLimit headers', async () => {
    const ops = adminAs('ops');
    for (const remaining of ['2', '1', '0']) {
      const res = await request(`198.51.100.${remaining}`, 'GET', '/admin/v1/platform-accounts', ops);
      expect(res.status).toBe(200);
      expect([res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining')]).toEqual(['3', remaining]);
    }
    expectEnvelope429(await request('198.51.100.9', 'GET', '/admin/v1/platform-accounts', ops));
    expect((await request('198.51.100.9', 'GET', '/admin/v1/platform-accounts', adminAs('ops-2'))).status).toBe(200);
  });
});

describe('the platform API', () => {
  it('counts every request per client IP before the key, in front of the account limit', async () => {
    const { apiKey } = await account();
    const ip = '203.0.113.20';
    const status = (key: string, from = ip) =>
      request(from, 'GET', `/v1/deliveries/${randomBytes(8).toString('hex')}/status`, key);
    expect((await status('nope.nope')).status).toBe(401);
    expect((await status(`${apiKey.split('.')[0]}.${randomBytes(32).toString('base64url')}`)).status).toBe(401);
    const counted = await status(apiKey);
    expect(counted.status).toBe(404);
    expect(counted.headers.get('ratelimit-limit')).toBe('100000'); // the account's own limit
    expectEnvelope429(await status(apiKey));
    expect((await status(apiKey, '203.0.113.21')).status).toBe(404);
  });
});

describe('the courier API', () => {
  it('counts per client IP before the token, then per driver', async () => {
    const { id } = await account();
    const registered = await setUp('POST', `/platform-accounts/${id}/drivers`, {
      name: 'Lima Driver',
      phone: '+49 170 5550199',
      vehicle: 'bicycle',
      online: true,
      position: { lat: 52.525, lng: 13.4 },
    });
    expect(registered.status).toBe(201);
    const token = registered.body.courierToken as string;

    const ip = '203.0.113.30';
    expect((await request(ip, 'GET', '/courier/v1/me')).status).toBe(401);
    expect((await request(ip, 'GET', '/courier/v1/me', 'forged')).status).toBe(401);
    expect((await request(ip, 'GET', '/courier/v1/me', token)).status).toBe(200); // the driver's 1st
    expectEnvelope429(await request(ip, 'GET', '/courier/v1/me', token)); // refused by IP: not the driver's

    for (const remaining of ['1', '0']) {
      const res = await request(`192.0.2.3${remaining}`, 'GET', '/courier/v1/me', token);
      expect([res.status, res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining')]).toEqual([
        200,
        '3',
        remaining,
      ]);
    }
    const refused = await request('192.0.2.39', 'POST', '/courier/v1/me/location', token, { lat: 52.52, lng: 13.4 });
    expectEnvelope429(refused);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  });
});

describe('the public routes and the tracking page', () => {
  it('count each tracking link (page and state together) by its hash: the page answers 429 in HTML, the state in the envelope', async () => {
    const token = newTrackingToken();
    for (const n of [1, 2, 3]) {
      const page = await request(`203.0.113.4${n}`, 'GET', `/track/${token}`);
      expect(page.status).toBe(404); // an unknown link, counted all the same
    }
    const state = await request('203.0.113.44', 'GET', `/track/${token}/state`);
    expectEnvelope429(state);
    expect(state.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(state.headers.get('cache-control')).toBe('no-store');

    const page = await request('203.0.113.45', 'GET', `/track/${token}`);
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Too many requests');
    expect(page.headers.get('retry-after')).toMatch(/^[1-9][0-9]?$/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await request('203.0.113.45', 'GET', `/track/${newTrackingToken()}`)).status).toBe(404);

    // Counted under the token's hash: no key of the service names the token.
    const keys = await redis.keys(`${prefix}rl:*`);
    expect(keys.filter((k) => k.includes(token) || k.includes(token.slice(4)))).toEqual([]);
    const links = keys.filter((k) => k.startsWith(`${prefix}rl:tracking:`));
    expect(links.length).toBeGreaterThanOrEqual(1);
  });

  it('count every public request per client IP, the documents and the tracking pages together', async () => {
    const ip = '203.0.113.50';
    expect((await request(ip, 'GET', '/v1/openapi.json')).status).toBe(200);
    expect((await request(ip, 'GET', '/courier/v1/openapi.json')).status).toBe(200);
    expect((await request(ip, 'GET', `/track/${newTrackingToken()}/state`)).status).toBe(404);
    expectEnvelope429(await request(ip, 'GET', '/v1/openapi.json'));
    const page = await request(ip, 'GET', `/track/${newTrackingToken()}`);
    expect(page.status).toBe(429);
    expect(page.text).toContain('Too many requests');
  });
});

describe('the courier simulator', () => {
  it('is not counted: its drivers are registered and poll through the administrator and courier APIs from one address', async () => {
    const { id } = await account({ enabled: true, drivers: 3, timeScale: 60 });
    const drivers = await waitFor(
      'the simulator to register its three drivers',
      async () => {
        const listed = await setUp('GET', `/platform-accounts/${id}/drivers`);
        const simulated = (listed.body as { id: string; simulated: boolean }[]).filter((d) => d.simulated);
        return simulated.length === 3 ? simulated : undefined;
      },
      30_000,
      500,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // a dozen offer looks and driver polls more
    // Nothing of the simulator's was counted: not its address (loopback), administrator or drivers.
    const keys = await redis.keys(`${prefix}rl:*`);
    const simulators = ['127.0.0.1', 'courier-simulator', ...drivers.map((d) => d.id)];
    expect(keys.filter((k) => simulators.some((s) => k.includes(s)))).toEqual([]);
  });
});
