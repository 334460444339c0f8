import { randomUUID } from 'node:crypto';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { MongoClient } from 'mongodb';
import { connectRedis, type Redis, redisConnectionFromEnv } from '@marketplace/redis';
import {
  apiClient,
  connectedApp,
  createTenant,
  localEnv,
  partnerCall,
  quietLogger,
  signTestBearerToken,
  sleep,
  stackEnv,
  startGateway,
  type ApiClient,
  type TestGateway,
} from '@marketplace/testing';
import { marketplaceApiDocument } from '../src/http/openapi/marketplace-api';
import { TestUpstream } from './support/upstream';

// Credentials with a life cycle, through two real gateway processes sharing one database and one
// Redis prefix (as two replicas do): API-key rotation with an overlap, tenant tokens with ids,
// lifetimes and revocation (refused at once by the instance that revoked, by the other within its
// revocation refresh), and the audit log of every administrator and tenant mutation.

const ADMIN = '/api/admin/v1';
const INSTALLATIONS = '/api/tenant/v1/installations';
const CATALOG = '/catalog/branches'; // needs Catalog.Read
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY = 86_400;
/** TOKEN_REVOCATION_REFRESH_SECONDS of both gateways. */
const REFRESH_SECONDS = 1;

let upstream: TestUpstream;
let gw: TestGateway;
/** A second replica: the same database and Redis keys. */
let replica: TestGateway;
let mongo: MongoClient;
let redis: Redis;

beforeAll(async () => {
  upstream = await new TestUpstream().start();
  const env = {
    CATALOG_URL: upstream.url,
    ORDERING_URL: upstream.url,
    DELIVERY_URL: upstream.url,
    WEBHOOKS_URL: upstream.url,
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_INSTALLATION: '100000',
    TENANT_RATE_LIMIT_PER_IP: '100000',
    TENANT_RATE_LIMIT_PER_TENANT: '100000',
    ADMIN_RATE_LIMIT_PER_IP: '100000',
    ADMIN_RATE_LIMIT_PER_ADMIN: '100000',
    TOKEN_REVOCATION_REFRESH_SECONDS: String(REFRESH_SECONDS),
  };
  gw = await startGateway(env);
  replica = await startGateway({ ...env, MONGO_DATABASE: gw.database, REDIS_KEY_PREFIX: `${gw.database}:` });
  mongo = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  redis = await connectRedis({ connection: redisConnectionFromEnv(stackEnv()), logger: quietLogger() });
}, 90_000);

afterAll(async () => {
  redis?.disconnect();
  await mongo?.close();
  await replica?.stop();
  await gw?.stop();
  await upstream?.stop();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const documentedSchema = (() => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const components = marketplaceApiDocument.components as { schemas: unknown };
  const $defs = JSON.parse(JSON.stringify(components.schemas).replace(/#\/components\/schemas\//g, '#/$defs/'));
  ajv.addSchema({ $id: 'https://marketplace.test/lifecycle.json', $defs });
  return (name: string) => ajv.getSchema(`https://marketplace.test/lifecycle.json#/$defs/${name}`)!;
})();

function expectDocumented(schema: string, body: unknown): void {
  const validate = documentedSchema(schema);
  void validate(body);
  const errors = (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '(root)'} ${e.message}`);
  expect({ schema, errors }).toEqual({ schema, errors: [] });
}

type Res = Awaited<ReturnType<ApiClient['call']>>;

function expectProblem(res: Res, status: number, code: string): void {
  expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({
    status,
    type: 'application/problem+json',
    code,
  });
}

const partnerStatus = async (on: TestGateway, apiKey: string) => (await partnerCall(on, apiKey, 'GET', CATALOG)).status;
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
const rotate = (who: ApiClient, installationId: string, body?: unknown, headers?: Record<string, string>) =>
  who.call('POST', `${INSTALLATIONS}/${installationId}/api-key/rotate`, body, headers);
const tokenCall = (on: TestGateway, token: string) => apiClient(on.url, token).call('GET', INSTALLATIONS);
/** The gateways' audit log, read through the administrator API. */
const auditOf = async (query: string) => {
  const res = await gw.admin.call('GET', `${ADMIN}/audit-events?${query}`);
  expect(res.status).toBe(200);
  return res.body as Array<Record<string, any>>;
};

// ---------------------------------------------------------------------------------------------
// API-key rotation with an overlap
// ---------------------------------------------------------------------------------------------

describe('API-key rotation', () => {
  it('keeps the previous key working for the overlap, on every instance, then refuses it', async () => {
    const app = await connectedApp(gw, ['Catalog.Read']);
    // Both instances have used the key: it is cached (without an expiry) in the shared Redis.
    expect(await partnerStatus(gw, app.apiKey)).toBe(200);
    expect(await partnerStatus(replica, app.apiKey)).toBe(200);

    const before = Date.now();
    const res = await rotate(app.tenant, app.installationId, { overlapSeconds: 2 });
    expect(res.status).toBe(200);
    expectDocumented('ApiKeyRotationResult', res.body);
    const newKey = res.body.credentials.apiKey as string;
    const end = Date.parse(res.body.previousKeyExpiresAt);
    expect(end - before).toBeGreaterThanOrEqual(1_900);
    expect(end - Date.now()).toBeLessThanOrEqual(2_000);

    // The cached entry of the previous key lives no longer than its end.
    const oldKeyId = app.apiKey.split('.')[0]!;
    const ttl = await redis.ttl(`${gw.database}:key:${oldKeyId}`);
    expect(ttl).toBeGreaterThanOrEqual(1);
    expect(ttl).toBeLessThanOrEqual(2);

    // During the overlap both keys work, on both instances.
    for (const on of [gw, replica]) {
      expect(await partnerStatus(on, app.apiKey)).toBe(200);
      expect(await partnerStatus(on, newKey)).toBe(200);
    }
    await sleep(Math.max(0, end - Date.now()) + 50);
    for (const on of [gw, replica]) {
      expect(await partnerStatus(on, app.apiKey)).toBe(401);
      expect(await partnerStatus(on, newKey)).toBe(200);
    }
    // Still refused once the cache forgot it (MongoDB says it expired).
    await redis.del(`${gw.database}:key:${oldKeyId}`);
    expect(await partnerStatus(replica, app.apiKey)).toBe(401);
    const stored = await mongo
      .db(gw.database)
      .collection('api_keys')
      .findOne({ _id: oldKeyId as never });
    expect(stored).toMatchObject({ status: 'active', expiresAt: new Date(end) });
  });

  it('stops the previous key at once by default, as before overlaps existed', async () => {
    for (const body of [undefined, {}, { overlapSeconds: 0 }]) {
      const app = await connectedApp(gw, ['Catalog.Read']);
      expect(await partnerStatus(replica, app.apiKey)).toBe(200);
      const res = await rotate(app.tenant, app.installationId, body);
      expect(res.status).toBe(200);
      expect(res.body.previousKeyExpiresAt).toBeNull();
      expect(await partnerStatus(gw, app.apiKey)).toBe(401);
      expect(await partnerStatus(replica, app.apiKey)).toBe(401);
      expect(await partnerStatus(replica, res.body.credentials.apiKey)).toBe(200);
    }
  });

  it('ends an overlapping key at once on a rotation without overlap, and never lengthens an overlap', async () => {
    const app = await connectedApp(gw, ['Catalog.Read']);
    const first = await rotate(app.tenant, app.installationId, { overlapSeconds: 60 });
    const second = await rotate(app.tenant, app.installationId, { overlapSeconds: 3_600 });
    // The original key keeps its 60-second end; the first rotation's key gets the hour.
    expect(Date.parse(second.body.previousKeyExpiresAt) - Date.parse(first.body.previousKeyExpiresAt)).toBeGreaterThan(
      3_000_000,
    );
    const keys = await mongo
      .db(gw.database)
      .collection('api_keys')
      .find({ installationId: app.installationId })
      .toArray();
    const byId = new Map(keys.map((k) => [k._id as unknown as string, k]));
    expect(byId.get(app.apiKey.split('.')[0]!)!.expiresAt).toEqual(new Date(first.body.previousKeyExpiresAt));
    for (const key of [app.apiKey, first.body.credentials.apiKey, second.body.credentials.apiKey])
      expect(await partnerStatus(replica, key)).toBe(200);

    const third = await rotate(app.tenant, app.installationId, { overlapSeconds: 0 });
    for (const key of [app.apiKey, first.body.credentials.apiKey, second.body.credentials.apiKey])
      expect(await partnerStatus(replica, key)).toBe(401);
    expect(await partnerStatus(replica, third.body.credentials.apiKey)).toBe(200);
  });

  it('refuses an overlap outside 0 to 7 days, naming the field', async () => {
    const app = await connectedApp(gw, ['Catalog.Read']);
    for (const overlapSeconds of [604_801, -1, 1.5, '60']) {
      const res = await rotate(app.tenant, app.installationId, { overlapSeconds });
      expectProblem(res, 400, 'request.invalid');
      expect(Object.keys(res.body.errors)).toEqual(['overlapSeconds']);
    }
    expect(await partnerStatus(gw, app.apiKey)).toBe(200); // nothing rotated
    expect((await rotate(app.tenant, app.installationId, { overlapSeconds: 604_800 })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------
// Tenant tokens: ids, lifetimes, revocation
// ---------------------------------------------------------------------------------------------

describe('tenant tokens', () => {
  it('carry an id, are listed without their text, and live at most 30 days unless asked', async () => {
    const { tenantId } = await createTenant(gw);
    const minted = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens`, {});
    expect(minted.status).toBe(201);
    expectDocumented('TenantToken', minted.body);
    expect(minted.body.id).toMatch(UUID);
    expect(claimsOf(minted.body.token)).toMatchObject({ role: 'tenant', tid: tenantId, jti: minted.body.id });
    expect(Date.parse(minted.body.expiresAt) - Date.now()).toBeGreaterThan(30 * DAY * 1000 - 60_000);

    // 30 days is the most without asking; up to 365 when asked.
    const tooLong = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens`, {
      expiresInSeconds: 30 * DAY + 1,
    });
    expectProblem(tooLong, 400, 'request.invalid');
    expect(Object.keys(tooLong.body.errors)).toEqual(['expiresInSeconds']);
    const notAsked = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens`, {
      expiresInSeconds: 90 * DAY,
      allowLongerThan30Days: false,
    });
    expectProblem(notAsked, 400, 'request.invalid');
    const long = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens`, {
      expiresInSeconds: 90 * DAY,
      allowLongerThan30Days: true,
    });
    expect(long.status).toBe(201);
    expect(Math.abs(Date.parse(long.body.expiresAt) - Date.now() - 90 * DAY * 1000)).toBeLessThan(60_000);
    const beyond = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens`, {
      expiresInSeconds: 365 * DAY + 1,
      allowLongerThan30Days: true,
    });
    expectProblem(beyond, 400, 'request.invalid');
    expect(Object.keys(beyond.body.errors)).toEqual(['expiresInSeconds']);

    const listed = await gw.admin.call('GET', `${ADMIN}/tenants/${tenantId}/tokens`);
    expect(listed.status).toBe(200);
    listed.body.forEach((t: unknown) => expectDocumented('TenantTokenRecord', t));
    // createTenant's own token, then these two: newest first.
    expect(listed.body.map((t: { id: string }) => t.id).slice(0, 2)).toEqual([long.body.id, minted.body.id]);
    expect(listed.body[0]).toMatchObject({ tenantId, issuedBy: 'test-admin', revokedAt: null, revokedBy: null });
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(minted.body.token);
    expect(text).not.toContain(minted.body.token.split('.')[2]);
    // Nor is a token in the database.
    const stored = JSON.stringify(await mongo.db(gw.database).collection('tenant_tokens').find({}).toArray());
    expect(stored).not.toContain(minted.body.token.split('.')[2]);

    expectProblem(await gw.admin.call('GET', `${ADMIN}/tenants/${randomUUID()}/tokens`), 404, 'resource.not_found');
  });

  it('a revoked token is refused at once where revoked and within the refresh elsewhere; the others keep working', async () => {
    const { tenantId } = await createTenant(gw);
    const mint = async () => (await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens`, {})).body;
    const [doomed, kept] = [await mint(), await mint()];
    for (const on of [gw, replica]) {
      expect((await tokenCall(on, doomed.token)).status).toBe(200);
      expect((await tokenCall(on, kept.token)).status).toBe(200);
    }

    const revoked = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens/${doomed.id}/revoke`);
    const revokedAt = Date.now();
    expect(revoked.status).toBe(200);
    expectDocumented('TenantTokenRecord', revoked.body);
    expect(revoked.body).toMatchObject({ id: doomed.id, revokedBy: 'test-admin', revokedAt: expect.any(String) });
    expectProblem(await tokenCall(gw, doomed.token), 401, 'auth.unauthenticated'); // this instance: at once

    // The other instance: within its refresh (twice it at most, plus the time to ask).
    let refusedAfter = -1;
    while (Date.now() - revokedAt < 2 * REFRESH_SECONDS * 1000 + 1_000) {
      if ((await tokenCall(replica, doomed.token)).status === 401) {
        refusedAfter = Date.now() - revokedAt;
        break;
      }
      await sleep(50);
    }
    expect(refusedAfter).toBeGreaterThanOrEqual(0);
    expect(refusedAfter).toBeLessThanOrEqual(2 * REFRESH_SECONDS * 1000 + 500);
    expectProblem(await tokenCall(replica, doomed.token), 401, 'auth.unauthenticated');
    for (const on of [gw, replica]) expect((await tokenCall(on, kept.token)).status).toBe(200);

    // Revoking again changes nothing; another tenant's path or an unknown id is 404.
    const again = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens/${doomed.id}/revoke`);
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const other = await createTenant(gw);
    const otherToken = (await gw.admin.call('POST', `${ADMIN}/tenants/${other.tenantId}/tokens`, {})).body;
    expectProblem(
      await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens/${otherToken.id}/revoke`),
      404,
      'resource.not_found',
    );
    expectProblem(
      await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens/${randomUUID()}/revoke`),
      404,
      'resource.not_found',
    );
    expect((await tokenCall(gw, otherToken.token)).status).toBe(200);
    const listed = await gw.admin.call('GET', `${ADMIN}/tenants/${tenantId}/tokens`);
    expect(listed.body.find((t: { id: string }) => t.id === doomed.id)).toMatchObject({
      revokedAt: revoked.body.revokedAt,
    });
    expect(listed.body.find((t: { id: string }) => t.id === kept.id)).toMatchObject({ revokedAt: null });
  });

  it('accepts a token without an id (minted before tokens had one) until it expires', async () => {
    const { tenantId } = await createTenant(gw);
    const key = Buffer.from(localEnv().MARKETPLACE_TOKEN_SECRET!, 'base64');
    const legacy = signTestBearerToken(
      key,
      { role: 'tenant', sub: `tenant:${tenantId}`, tid: tenantId },
      new Date(Date.now() + 3_600_000),
    );
    for (const on of [gw, replica]) expect((await tokenCall(on, legacy)).status).toBe(200);
    const expired = signTestBearerToken(
      key,
      { role: 'tenant', sub: `tenant:${tenantId}`, tid: tenantId },
      new Date(Date.now() - 1_000),
      new Date(Date.now() - 60_000),
    );
    expectProblem(await tokenCall(gw, expired), 401, 'auth.unauthenticated');
  });
});

// ---------------------------------------------------------------------------------------------
// The audit log
// ---------------------------------------------------------------------------------------------

describe('the audit log', () => {
  it('records a tenant mutation: who, what, where from, the outcome; never a secret', async () => {
    const app = await connectedApp(gw, ['Catalog.Read'], ['orders.created']);
    const requestId = `audit-${randomUUID()}`;
    const res = await rotate(app.tenant, app.installationId, { overlapSeconds: 5 }, { 'x-request-id': requestId });
    expect(res.status).toBe(200);
    const secret = await app.tenant.call('POST', `${INSTALLATIONS}/${app.installationId}/webhook-secret/rotate`);
    expect(secret.status).toBe(200);
    const missing = await rotate(app.tenant, randomUUID());
    expect(missing.status).toBe(404);
    await app.tenant.call('GET', INSTALLATIONS); // a read: not recorded

    const events = await auditOf(`tenantId=${app.tenantId}`);
    events.forEach((e) => expectDocumented('AuditEvent', e));
    const rotation = events.find((e) => e.requestId === requestId)!;
    expect(rotation).toEqual({
      id: expect.stringMatching(UUID),
      at: expect.any(String),
      tenantId: app.tenantId,
      actor: {
        role: 'tenant',
        sub: `tenant:${app.tenantId}`,
        tenantId: app.tenantId,
        tokenId: expect.stringMatching(UUID),
      },
      action: 'POST /api/tenant/v1/installations/:installationId/api-key/rotate',
      method: 'POST',
      route: '/api/tenant/v1/installations/:installationId/api-key/rotate',
      target: { installationId: app.installationId },
      status: 200,
      ip: expect.stringMatching(/127\.0\.0\.1$/),
      requestId,
    });
    expect(Math.abs(Date.parse(rotation.at) - Date.now())).toBeLessThan(60_000);
    // The installation's story, newest first: install, connect, rotations, the refused one; no read.
    expect(events.map((e) => [e.action.replace('/api/tenant/v1/installations', '…'), e.status])).toEqual([
      ['POST …/:installationId/api-key/rotate', 404],
      ['POST …/:installationId/webhook-secret/rotate', 200],
      ['POST …/:installationId/api-key/rotate', 200],
      ['POST …/:installationId/connect', 200],
      ['POST …', 201],
      ['POST /api/admin/v1/tenants/:tenantId/tokens', 201], // createTenant's token, on this tenant
    ]);
    expect(events.at(-1)!.actor).toEqual({ role: 'admin', sub: 'test-admin', tenantId: null, tokenId: null });

    // No secret anywhere in the events, as answered or as stored.
    const stored = JSON.stringify(await mongo.db(gw.database).collection('audit_events').find({}).toArray());
    for (const text of [JSON.stringify(events), stored]) {
      for (const secretValue of [
        app.apiKey,
        app.apiKey.split('.')[1]!,
        res.body.credentials.apiKey,
        res.body.credentials.apiKey.split('.')[1],
        app.webhookSecret!,
        secret.body.credentials.webhookSigningSecret,
      ])
        expect(text).not.toContain(secretValue);
      expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/); // no bearer token
      expect(text).not.toContain('overlapSeconds'); // no body
    }
  });

  it('records administrator mutations under the tenant they concern, and forwarded tenant mutations', async () => {
    const { tenantId, tenant } = await createTenant(gw);
    const minted = await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens`, { expiresInSeconds: 600 });
    await gw.admin.call('POST', `${ADMIN}/tenants/${tenantId}/tokens/${minted.body.id}/revoke`);
    const forwarded = await tenant.call('PUT', '/api/tenant/v1/catalog/products/abc', { name: 'Ramen' });
    expect(forwarded.status).toBe(200);

    const events = await auditOf(`tenantId=${tenantId}`);
    expect(events.slice(0, 3).map((e) => [e.action, e.target, e.actor.role, e.status])).toEqual([
      ['PUT /api/tenant/v1/catalog/*rest', { path: 'products/abc' }, 'tenant', 200],
      [
        'POST /api/admin/v1/tenants/:tenantId/tokens/:tokenId/revoke',
        { tenantId, tokenId: minted.body.id },
        'admin',
        200,
      ],
      ['POST /api/admin/v1/tenants/:tenantId/tokens', { tenantId }, 'admin', 201],
    ]);
    expect(JSON.stringify(events)).not.toContain('Ramen');
    // An administrator mutation naming no tenant is under none.
    const app = await gw.admin.call('POST', `${ADMIN}/apps`, { slug: `audit-${randomUUID().slice(0, 8)}`, name: 'A' });
    const all = await auditOf('limit=50');
    expect(all.find((e) => e.action === 'POST /api/admin/v1/apps' && e.status === app.status)).toMatchObject({
      tenantId: null,
      target: {},
    });
  });

  it('pages newest first, across tenants or for one, and refuses a malformed query', async () => {
    const { tenantId, tenant } = await createTenant(gw);
    for (let i = 0; i < 4; i++) await tenant.call('POST', `${INSTALLATIONS}/${randomUUID()}/disconnect`);
    const all = await auditOf(`tenantId=${tenantId}&limit=200`);
    expect(all).toHaveLength(5); // the token createTenant minted, and four disconnects (404)
    const first = await auditOf(`tenantId=${tenantId}&limit=2`);
    const second = await auditOf(`tenantId=${tenantId}&limit=2&before=${first.at(-1)!.id}`);
    const third = await auditOf(`tenantId=${tenantId}&limit=2&before=${second.at(-1)!.id}`);
    expect([...first, ...second, ...third].map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort().reverse());

    const everyone = await auditOf('limit=3');
    expect(everyone).toHaveLength(3);
    const next = await auditOf(`limit=3&before=${everyone[2]!.id}`);
    expect(next.every((e) => e.id < everyone[2]!.id)).toBe(true);

    const bad = await gw.admin.call('GET', `${ADMIN}/audit-events?tenantId=x&limit=0&before=${randomUUID()}`);
    expectProblem(bad, 400, 'request.invalid');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['before', 'limit', 'tenantId']);
    expectProblem(await gw.admin.call('GET', `${ADMIN}/audit-events?limit=201`), 400, 'request.invalid');
    expectProblem(await tenant.call('GET', `${ADMIN}/audit-events`), 401, 'auth.unauthenticated');
  });
});
