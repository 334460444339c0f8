import { randomBytes, randomUUID } from 'node:crypto';
import {
  freePort,
  localEnv,
  signTestBearerToken,
  startServiceProcess,
  type ServiceProcess,
} from '@marketplace/testing';

// The administrator API's rate limits on a webhook-sender process against the real Redis, at 3 a
// minute: per client IP, counted before the token is looked at (refused tokens count), and per
// administrator (the token's sub); over either, 429 rate_limit.exceeded in problem+json with
// Retry-After. Each request names its client address (TRUST_PROXY).

let sender: ServiceProcess;

beforeAll(async () => {
  const suffix = randomBytes(4).toString('hex');
  sender = await startServiceProcess(
    'webhook-sender',
    await freePort(),
    {
      MONGO_DATABASE: `it_wh_limits_${suffix}`,
      KAFKA_CONSUMER_GROUP_PREFIX: `it-webhooks-limits-${suffix}`,
      INSTALLATIONS_COPY_START: 'latest',
      TRUST_PROXY: 'true',
      ADMIN_RATE_LIMIT_PER_IP: '3',
      ADMIN_RATE_LIMIT_PER_ADMIN: '3',
    },
    90_000,
  );
}, 120_000);

afterAll(async () => {
  await sender?.stop();
});

const adminAs = (sub: string) =>
  signTestBearerToken(
    Buffer.from(localEnv().PROVIDER_ADMIN_TOKEN_SECRET!, 'base64'),
    { role: 'admin', sub },
    new Date(Date.now() + 3_600_000),
  );

/** The account's provider callbacks (none), asked from `ip` with this token (or none). */
async function list(ip: string, token?: string) {
  const res = await fetch(`${sender.url}/admin/v1/provider-callbacks?accountId=${randomUUID()}`, {
    headers: { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

function expectLimited(res: Awaited<ReturnType<typeof list>>) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body).toMatchObject({ status: 429, code: 'rate_limit.exceeded' });
  expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]?$/);
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
}

const rejections = async (scope: string) => {
  const text = await (await fetch(`${sender.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`rate_limit_rejections_total{scope="${scope}",service="webhook-sender"} `));
  return line ? Number(line.split(' ').pop()) : NaN;
};

describe('the administrator API limits', () => {
  it('count every request per client IP before the token: the 4th of 3 is 429, whoever asks', async () => {
    const ip = '203.0.113.60';
    expect((await list(ip)).status).toBe(401);
    expect((await list(ip, 'forged')).status).toBe(401);
    expect((await list(ip, adminAs('a-1'))).status).toBe(200);
    expectLimited(await list(ip, adminAs('a-2')));
    expect((await list('203.0.113.61', adminAs('a-2'))).status).toBe(200);
    expect(await rejections('admin_ip')).toBe(1);
  });

  it('count per administrator (the token sub) from any address, with RateLimit headers', async () => {
    const ops = adminAs('ops');
    for (const remaining of ['2', '1', '0']) {
      const res = await list(`198.51.100.6${remaining}`, ops);
      expect([res.status, res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining')]).toEqual([
        200,
        '3',
        remaining,
      ]);
    }
    expectLimited(await list('198.51.100.69', ops));
    expect((await list('198.51.100.69', adminAs('ops-2'))).status).toBe(200);
    expect(await rejections('admin')).toBe(1);
  });
});
