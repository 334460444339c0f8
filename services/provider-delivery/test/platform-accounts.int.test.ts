import { randomBytes, randomUUID } from 'node:crypto';
import {
  findSecrets,
  freePort,
  localEnv,
  signTestBearerToken,
  startServiceProcess,
  type ServiceProcess,
} from '@marketplace/testing';
import { call, type Answer } from './support/provider';

// provider-delivery as a process: platform accounts through the administrator API, and the
// platform API's key authentication on GET /v1/deliveries/{id}/status.

jest.setTimeout(60_000);

const hour = () => new Date(Date.now() + 3_600_000);
const adminKey = () => Buffer.from(localEnv().PROVIDER_ADMIN_TOKEN_SECRET!, 'base64');
const adminToken = signTestBearerToken(adminKey(), { role: 'admin', sub: 'test-admin' }, hour());

let service: ProviderService;

interface ProviderService {
  process: ServiceProcess;
  call(method: string, path: string, body?: unknown, authorization?: string): Promise<Answer>;
}

const admin = (method: string, path: string, body?: unknown) =>
  service.call(method, `/admin/v1/platform-accounts${path}`, body, `Bearer ${adminToken}`);
const status = (key: string | undefined, id: string = randomUUID()) =>
  service.call('GET', `/v1/deliveries/${id}/status`, undefined, key === undefined ? undefined : `Bearer ${key}`);

const berlin = {
  type: 'Polygon',
  coordinates: [
    [
      [13.3, 52.45],
      [13.5, 52.45],
      [13.5, 52.58],
      [13.3, 52.58],
      [13.3, 52.45],
    ],
  ],
};
const capabilities = {
  supportsPolling: true,
  supportsReturnToOrigin: false,
  supportsProofOfDelivery: false,
  supportsScheduledDelivery: false,
  supportsUpdates: true,
  supportsCancellation: true,
};
const accountInput = (name = 'Platform A') => ({
  name,
  webhookUrl: 'https://platform.example.com/provider-callbacks',
  capabilities,
  serviceArea: berlin,
});

async function newAccount(name?: string): Promise<{ id: string; webhookSecret: string }> {
  const res = await admin('POST', '', accountInput(name));
  expect(res.status).toBe(201);
  return { id: res.body.account.id, webhookSecret: res.body.webhookSecret };
}
async function newKey(accountId: string): Promise<string> {
  const res = await admin('POST', `/${accountId}/api-keys`);
  expect(res.status).toBe(201);
  return res.body.apiKey;
}

beforeAll(async () => {
  const database = `it_prv_${randomBytes(4).toString('hex')}`;
  const process = await startServiceProcess('provider-delivery', await freePort(), { MONGO_DATABASE: database });
  service = { process, call: (...args) => call(process.url, ...args) };
});

afterAll(async () => {
  await service?.process.stop();
});

const unauthenticated = { code: 'auth.unauthenticated', message: expect.any(String), retryable: false };

describe('the administrator API', () => {
  it('creates an account and shows its webhook secret once, never again', async () => {
    const res = await admin('POST', '', accountInput('Shown once'));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.webhookSecret).toMatch(/^pwhsec_[A-Za-z0-9_-]{43}$/);
    expect(res.body.account).toEqual({
      id: expect.any(String),
      ...accountInput('Shown once'),
      rateLimit: { requestsPerMinute: 1_200 },
      simulator: { enabled: false, drivers: 0, timeScale: 1 },
      // The spec's event table: our own types are opt-in.
      eventTypes: [
        'delivery.accepted',
        'driver.assigned',
        'driver.location_updated',
        'eta.updated',
        'tracking.updated',
        'delivery.picked_up',
        'delivery.delivered',
        'delivery.cancelled',
        'delivery.failed',
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const one = await admin('GET', `/${res.body.account.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body.account);
    const list = await admin('GET', '');
    expect(list.body.map((a: { id: string }) => a.id)).toContain(res.body.account.id);
    for (const answer of [one, list]) expect(JSON.stringify(answer.body)).not.toContain('pwhsec_');

    const rotated = await admin('POST', `/${res.body.account.id}/webhook-secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookSecret).toMatch(/^pwhsec_/);
    expect(rotated.body.webhookSecret).not.toBe(res.body.webhookSecret);
  });

  it('changes fields with PATCH and refuses invalid ones with 400 request.invalid and fieldErrors', async () => {
    const { id } = await newAccount();
    const changed = await admin('PATCH', `/${id}`, { name: 'Renamed', webhookUrl: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Renamed', webhookUrl: null, capabilities });

    const invalid = await admin('PATCH', `/${id}`, {
      webhookUrl: 'https://platform.example.com:8443/cb',
      capabilities: { ...capabilities, supportsProofOfDelivery: true },
      serviceArea: {
        type: 'Polygon',
        coordinates: [
          [
            [13.3, 52.45],
            [13.5, 52.45],
            [13.5, 52.58],
            [13.3, 52.5],
          ],
        ],
      },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      code: 'request.invalid',
      message: expect.any(String),
      retryable: false,
      fieldErrors: {
        webhookUrl: ['must use the standard https port (443)'],
        'capabilities.supportsProofOfDelivery': [expect.stringContaining('must be false')],
        serviceArea: ['each ring must be closed (first and last positions equal)'],
      },
    });
    for (const [body, field] of [
      [{}, '(body)'],
      [{ name: '' }, 'name'],
      [{ webhookUrl: 'http://platform.example.com/cb' }, 'webhookUrl'],
      [{ webhookUrl: `https://platform.example.com/${'a'.repeat(2048)}` }, 'webhookUrl'],
      [{ capabilities: { supportsPolling: true } }, 'capabilities.supportsReturnToOrigin'],
      [{ serviceArea: { type: 'Point', coordinates: [13.4, 52.5] } }, 'serviceArea.type'],
      [{ owner: 'x' }, 'owner'],
      [{ eventTypes: ['delivery.accepted', 'driver.teleported'] }, 'eventTypes[1]'],
      [{ eventTypes: ['delivery.accepted', 'delivery.accepted'] }, 'eventTypes'],
      [{ eventTypes: 'delivery.accepted' }, 'eventTypes'],
    ] as const) {
      const res = await admin('PATCH', `/${id}`, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'request.invalid' });
      expect(Object.keys(res.body.fieldErrors)).toContain(field);
    }
    expect((await admin('GET', `/${id}`)).body.name).toBe('Renamed');
    const opted = await admin('PATCH', `/${id}`, { eventTypes: ['delivery.on_the_way', 'delivery.accepted'] });
    expect([opted.status, opted.body.eventTypes]).toEqual([200, ['delivery.accepted', 'delivery.on_the_way']]);
    const created = await admin('POST', '', { ...accountInput('Chooses'), eventTypes: ['driver.teleported'] });
    expect([created.status, created.body.code]).toEqual([400, 'request.invalid']);
    expect((await admin('PATCH', `/${randomUUID()}`, { name: 'x' })).status).toBe(404);
  });

  it('refuses a missing token, a tenant token, another key’s token and a platform key', async () => {
    const { id } = await newAccount();
    const key = await newKey(id);
    const tenant = signTestBearerToken(adminKey(), { role: 'tenant', sub: 't', tid: 't' }, hour());
    const marketplace = signTestBearerToken(
      Buffer.from(localEnv().MARKETPLACE_TOKEN_SECRET!, 'base64'),
      { role: 'admin', sub: 'ops' },
      hour(),
    );
    const other = signTestBearerToken(randomBytes(32), { role: 'admin', sub: 'ops' }, hour());
    const expired = signTestBearerToken(adminKey(), { role: 'admin', sub: 'ops' }, new Date(Date.now() - 1000));
    for (const authorization of [
      undefined,
      `Bearer ${tenant}`,
      `Bearer ${marketplace}`,
      `Bearer ${other}`,
      `Bearer ${expired}`,
      `Bearer ${key}`,
    ]) {
      const res = await service.call('GET', '/admin/v1/platform-accounts', undefined, authorization);
      expect({ authorization: authorization?.slice(0, 12), status: res.status }).toEqual({
        authorization: authorization?.slice(0, 12),
        status: 401,
      });
      expect(res.body).toEqual(unauthenticated);
    }
  });

  it('serves its OpenAPI document to administrators', async () => {
    const res = await service.call('GET', '/admin/v1/openapi.json', undefined, `Bearer ${adminToken}`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect((await service.call('GET', '/admin/v1/openapi.json')).status).toBe(401);
  });
});

describe('the platform API', () => {
  it('authenticates a live key: an unknown delivery is 404 delivery.not_found in the envelope', async () => {
    const { id } = await newAccount();
    const key = await newKey(id);
    const res = await status(key);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ code: 'delivery.not_found', message: expect.any(String), retryable: false });
    expect((await status(key, 'not-a-uuid')).body.code).toBe('delivery.not_found');
  });

  it('answers 401 for no key, a malformed one, a wrong secret, an unknown id and a revoked key', async () => {
    const { id } = await newAccount();
    const key = await newKey(id);
    const [keyId, secret] = key.split('.') as [string, string];
    const wrongSecret = `${keyId}.${secret.slice(0, -2)}${secret.endsWith('AA') ? 'BB' : 'AA'}`;
    const unknownId = `pdk_${randomBytes(16).toString('base64url')}.${secret}`;
    for (const presented of [undefined, 'garbage', wrongSecret, unknownId, adminToken]) {
      const res = await status(presented);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthenticated);
    }
    expect((await status(key)).status).toBe(404);
    expect((await admin('DELETE', `/${id}/api-keys/${keyId}`)).status).toBe(204);
    expect((await admin('DELETE', `/${id}/api-keys/${keyId}`)).status).toBe(204);
    expect((await status(key)).status).toBe(401);
    const keys = await admin('GET', `/${id}/api-keys`);
    expect(keys.body).toEqual([
      { keyId, createdAt: expect.any(String), expiresAt: null, revokedAt: expect.any(String), live: false },
    ]);
    expect(JSON.stringify(keys.body)).not.toContain(secret);
  });

  it('rotation: the old key works during the overlap and not after; the new one keeps working', async () => {
    const { id } = await newAccount();
    const old = await newKey(id);
    const rotated = await admin('POST', `/${id}/api-keys/rotate`, { overlapSeconds: 1 });
    expect(rotated.status).toBe(201);
    const fresh = rotated.body.apiKey as string;
    expect((await status(old)).status).toBe(404);
    expect((await status(fresh)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect((await status(old)).status).toBe(401);
    expect((await status(fresh)).status).toBe(404);
    const keys = (await admin('GET', `/${id}/api-keys`)).body as Array<{ keyId: string; live: boolean }>;
    expect(keys.map((k) => k.live)).toEqual([true, false]);
    expect((await admin('POST', `/${id}/api-keys/rotate`, { overlapSeconds: 604_801 })).status).toBe(400);
  });

  it("isolates accounts: one account's key does not manage or reach the other", async () => {
    const a = await newAccount('A');
    const b = await newAccount('B');
    const keyA = await newKey(a.id);
    const keyB = await newKey(b.id);
    const keyIdB = keyB.split('.')[0]!;
    // Another account's key id is not found under this account.
    expect((await admin('DELETE', `/${a.id}/api-keys/${keyIdB}`)).status).toBe(404);
    expect((await status(keyB)).status).toBe(404);
    expect((await status(keyA)).status).toBe(404);
    const listA = (await admin('GET', `/${a.id}/api-keys`)).body as Array<{ keyId: string }>;
    expect(listA.map((k) => k.keyId)).toEqual([keyA.split('.')[0]]);
  });

  it('serves the contract document without a key', async () => {
    const res = await service.call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.info.version).toBe('1.1.0');
  });

  it('never writes a key, a webhook secret or a token into its log', async () => {
    const { id, webhookSecret } = await newAccount();
    const key = await newKey(id);
    await status(key);
    await status(`${key.split('.')[0]}.wrong-secret-wrong-secret-wrong-secret-wrong`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const output = service.process.output();
    expect(output).toContain('/v1/deliveries/');
    expect(findSecrets(output)).toEqual([]);
    for (const secret of [key, key.split('.')[1]!, webhookSecret, adminToken]) expect(output).not.toContain(secret);
  });
});
