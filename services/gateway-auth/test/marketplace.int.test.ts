import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { MongoClient } from 'mongodb';
import {
  apiClient,
  createTenant,
  localEnv,
  partnerCall,
  publishApp,
  stackEnv,
  startGateway,
  type ApiClient,
  type TestGateway,
} from '@marketplace/testing';
import { SecretBox } from '@marketplace/identity';
import { signBearerToken } from '@marketplace/identity';
import { marketplaceApiDocument } from '../src/http/openapi/marketplace-api';
import { webhookSecretContext } from '../src/domain/api-key';
import { TestUpstream } from './support/upstream';

// The marketplace's administrator and tenant APIs (tenants, apps, contract versions, installations
// and their credentials) through the real gateway process and the real stack, checked against the
// documented contract (src/http/openapi/marketplace-api.ts) and the Partner API's authentication.

const ADMIN = '/api/admin/v1';
const INSTALLATIONS = '/api/tenant/v1/installations';
const CATALOG = '/catalog/branches'; // needs Catalog.Read
const ORDER = '/orders/6f1c1f8e-2b7a-4d1e-9c3a-0a5b6c7d8e9f'; // needs Orders.Create (or Orders.Read)
const WEBHOOK_URL = 'https://partner.example.com/webhooks';
const API_KEY = /^mpk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

type Tenant = { tenantId: string; tenant: ApiClient };
type Res = Awaited<ReturnType<ApiClient['call']>>;

let upstream: TestUpstream;
let gw: TestGateway;
let owner: Tenant;
let other: Tenant;
let mongo: MongoClient;

beforeAll(async () => {
  upstream = await new TestUpstream().start();
  gw = await startGateway({
    CATALOG_URL: upstream.url,
    ORDERING_URL: upstream.url,
    DELIVERY_URL: upstream.url,
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_INSTALLATION: '100000',
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
  });
  owner = await createTenant(gw);
  other = await createTenant(gw);
  mongo = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
}, 60_000);

afterAll(async () => {
  await mongo?.close();
  await gw?.stop();
  await upstream?.stop();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Validators for the document's component schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses). */
const documentedSchema = (() => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const components = marketplaceApiDocument.components as { schemas: unknown };
  const $defs = JSON.parse(JSON.stringify(components.schemas).replace(/#\/components\/schemas\//g, '#/$defs/'));
  ajv.addSchema({ $id: 'https://marketplace.test/api.json', $defs });
  return (name: string) => {
    const validate = ajv.getSchema(`https://marketplace.test/api.json#/$defs/${name}`);
    if (!validate) throw new Error(`the document has no schema ${name}`);
    return validate;
  };
})();

/** The body matches the documented schema exactly (the response schemas are closed). */
function expectDocumented(schema: string, body: unknown): void {
  const validate = documentedSchema(schema);
  void validate(body); // synchronous (no $async schema); the errors are read below
  const errors = (validate.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`,
  );
  expect({ schema, errors }).toEqual({ schema, errors: [] });
}

function expectProblem(res: Res, status: number, code: string): void {
  expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({
    status,
    type: 'application/problem+json',
    code,
  });
  expect(res.body).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String) });
}

/** Problem bodies compared without `instance` (the request path). */
const withoutInstance = (body: Record<string, unknown>) => ({ ...body, instance: undefined });

const slug = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;
const keyIdOf = (apiKey: string) => apiKey.split('.')[0]!;
const secretOf = (apiKey: string) => apiKey.split('.')[1]!;

const apiKeyContract = (scopes: string[], events: string[] = [], extra: Record<string, unknown> = {}) => ({
  authType: 'ApiKey',
  scopes,
  subscribedEvents: events,
  webhookUrl: events.length > 0 ? WEBHOOK_URL : null,
  ...extra,
});

const oauthSettings = (clientSecret: string, extra: Record<string, unknown> = {}) => ({
  authorizationEndpoint: 'https://auth.partner.example.com/authorize',
  tokenEndpoint: 'https://auth.partner.example.com/token',
  clientId: 'marketplace-client',
  clientSecret,
  scopes: ['openid', 'orders:write'],
  ...extra,
});

const oauthContract = (clientSecret: string, extra: Record<string, unknown> = {}) => ({
  authType: 'OAuth2',
  scopes: ['Catalog.Read', 'Orders.Create'],
  subscribedEvents: ['orders.cancelled'],
  webhookUrl: WEBHOOK_URL,
  oauth2: oauthSettings(clientSecret),
  ...extra,
});

async function newApp(on: TestGateway = gw): Promise<string> {
  const res = await on.admin.call('POST', `${ADMIN}/apps`, {
    slug: slug('app'),
    name: 'Marketplace Test App',
    description: 'An app',
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const addVersion = (appId: string, input: unknown, on: TestGateway = gw) =>
  on.admin.call('POST', `${ADMIN}/apps/${appId}/versions`, input);
const publish = (appId: string, version: number) =>
  gw.admin.call('POST', `${ADMIN}/apps/${appId}/versions/${version}/publish`);

async function publishedVersion(appId: string, input: unknown): Promise<number> {
  const created = await addVersion(appId, input);
  expect(created.status).toBe(201);
  expect((await publish(appId, created.body.version)).status).toBe(200);
  return created.body.version;
}

async function install(who: Tenant, appId: string, contractVersion = 1): Promise<string> {
  const res = await who.tenant.call('POST', INSTALLATIONS, { appId, contractVersion });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A fresh ApiKey app, installed and connected by `who`. */
async function connected(who: Tenant, scopes: string[] = ['Catalog.Read'], events: string[] = ['orders.created']) {
  const { appId, version } = await publishApp(gw, scopes, events);
  const id = await install(who, appId, version);
  const res = await who.tenant.call('POST', `${INSTALLATIONS}/${id}/connect`);
  expect(res.status).toBe(200);
  return {
    appId,
    id,
    apiKey: res.body.credentials.apiKey as string,
    webhookSecret: res.body.credentials.webhookSigningSecret as string | null,
    response: res,
  };
}

const getInstallation = (who: Tenant, id: string) => who.tenant.call('GET', `${INSTALLATIONS}/${id}`);
const action = (who: Tenant, id: string, what: string) => who.tenant.call('POST', `${INSTALLATIONS}/${id}/${what}`);

/** Status of a Partner API call with this key (catalog route; the stand-in upstream answers 200). */
const partnerStatus = async (apiKey: string, path = CATALOG) => (await partnerCall(gw, apiKey, 'GET', path)).status;

const secretBox = () => new SecretBox(Buffer.from(localEnv().SECRETS_ENCRYPTION_KEY!, 'base64'));

/** The webhook signing secret the gateway stores for the installation, decrypted. */
async function storedWebhookSecret(installationId: string): Promise<string | null> {
  const doc = await mongo
    .db(gw.database)
    .collection<{ _id: string; webhookSecretSealed: string | null }>('installations')
    .findOne({ _id: installationId });
  if (!doc) throw new Error(`no installation ${installationId} in the database`);
  return doc.webhookSecretSealed === null
    ? null
    : secretBox().open(doc.webhookSecretSealed, webhookSecretContext(installationId));
}

// ---------------------------------------------------------------------------------------------
// 1. Authentication of the administrator and tenant APIs
// ---------------------------------------------------------------------------------------------

describe('admin and tenant authentication (401)', () => {
  const tokenKey = () => Buffer.from(localEnv().MARKETPLACE_TOKEN_SECRET!, 'base64');
  const inAnHour = () => new Date(Date.now() + 3_600_000);
  const adminJwt = () => signBearerToken(tokenKey(), { role: 'admin', sub: 'it-admin' }, inAnHour());
  const tenantJwt = (tid: string) =>
    signBearerToken(tokenKey(), { role: 'tenant', sub: `tenant:${tid}`, tid }, inAnHour());
  /** Issued two hours ago, expired a minute ago. */
  const expiredJwt = (claims: Parameters<typeof signBearerToken>[1]) =>
    signBearerToken(tokenKey(), claims, new Date(Date.now() - 60_000), new Date(Date.now() - 7_200_000));
  /** One character of the signature changed. */
  const tampered = (token: string) => {
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const i = 10;
    return `${header}.${payload}.${signature.slice(0, i)}${signature[i] === 'A' ? 'B' : 'A'}${signature.slice(i + 1)}`;
  };
  /** A tenant token whose payload says admin, with the tenant token's signature. */
  const elevated = (tid: string) => {
    const [header, , signature] = tenantJwt(tid).split('.') as [string, string, string];
    const payload = Buffer.from(
      JSON.stringify({
        role: 'admin',
        sub: 'it-admin',
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(inAnHour().getTime() / 1000),
      }),
    ).toString('base64url');
    return `${header}.${payload}.${signature}`;
  };
  const unsigned = () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ role: 'admin', sub: 'x', exp: Math.floor(inAnHour().getTime() / 1000) }),
    ).toString('base64url');
    return `${header}.${payload}.`;
  };

  async function call(method: string, path: string, authorization: string | undefined, body?: unknown): Promise<Res> {
    const res = await fetch(gw.url + path, {
      method,
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  it('refuses every bad bearer token with one generic 401 problem, on admin and tenant routes alike', async () => {
    const admin = adminJwt();
    const tenant = tenantJwt(owner.tenantId);
    const adminAttempts: [string, string | undefined][] = [
      ['no token', undefined],
      ['empty Bearer', 'Bearer '],
      ['Basic scheme', `Basic ${Buffer.from('admin:admin').toString('base64')}`],
      ['Token scheme', `Token ${admin}`],
      ['ApiKey scheme', `ApiKey ${admin}`],
      ['tampered signature', `Bearer ${tampered(admin)}`],
      ['expired', `Bearer ${expiredJwt({ role: 'admin', sub: 'it-admin' })}`],
      [
        'signed with another key',
        `Bearer ${signBearerToken(randomBytes(32), { role: 'admin', sub: 'it-admin' }, inAnHour())}`,
      ],
      ['tenant payload raised to admin', `Bearer ${elevated(owner.tenantId)}`],
      ['alg none', `Bearer ${unsigned()}`],
      ['tenant token', `Bearer ${tenant}`],
    ];
    const tenantAttempts: [string, string | undefined][] = [
      ['no token', undefined],
      ['Basic scheme', `Basic ${Buffer.from('tenant:tenant').toString('base64')}`],
      ['ApiKey scheme', `ApiKey ${tenant}`],
      ['tampered signature', `Bearer ${tampered(tenant)}`],
      ['expired', `Bearer ${expiredJwt({ role: 'tenant', sub: `tenant:${owner.tenantId}`, tid: owner.tenantId })}`],
      ['admin token', `Bearer ${admin}`],
    ];
    const routes = (forAdmin: boolean): [string, string, unknown?][] =>
      forAdmin
        ? [
            ['GET', `${ADMIN}/tenants`],
            ['GET', `${ADMIN}/apps`],
            ['POST', `${ADMIN}/apps`, { slug: slug('never'), name: 'Never created' }],
          ]
        : [
            ['GET', INSTALLATIONS],
            ['GET', '/api/tenant/v1/apps'],
            ['POST', `${INSTALLATIONS}/${randomUUID()}/connect`],
          ];

    const bodies = new Set<string>();
    for (const [forAdmin, attempts] of [
      [true, adminAttempts],
      [false, tenantAttempts],
    ] as const) {
      for (const [method, path, body] of routes(forAdmin)) {
        for (const [what, authorization] of attempts) {
          const res = await call(method, path, authorization, body);
          expect({ what, path, status: res.status, type: res.headers.get('content-type') }).toEqual({
            what,
            path,
            status: 401,
            type: 'application/problem+json',
          });
          expect(res.body).toMatchObject({ status: 401, code: 'auth.unauthenticated', title: 'Unauthorized' });
          bodies.add(JSON.stringify(withoutInstance(res.body)));
        }
      }
    }
    expect(bodies.size).toBe(1);

    // The right token on the same routes is accepted, so the 401s were about the token.
    expect((await call('GET', `${ADMIN}/tenants`, `Bearer ${admin}`)).status).toBe(200);
    expect((await call('GET', INSTALLATIONS, `Bearer ${tenant}`)).status).toBe(200);
    // Nothing was created by the refused POSTs.
    const apps = await gw.admin.call('GET', `${ADMIN}/apps`);
    expect(apps.body.filter((a: { name: string }) => a.name === 'Never created')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Tenants
// ---------------------------------------------------------------------------------------------

describe('tenants', () => {
  it('creates a tenant as documented and refuses a taken slug with 409', async () => {
    const input = { slug: slug('bistro'), name: 'Bistro Zürich', currencyCode: 'CHF', defaultLanguage: 'de-CH' };
    const created = await gw.admin.call('POST', `${ADMIN}/tenants`, input);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ...input,
      sandbox: false,
      id: expect.stringMatching(UUID),
      createdAt: expect.stringMatching(ISO),
    });
    expectDocumented('Tenant', created.body);

    const again = await gw.admin.call('POST', `${ADMIN}/tenants`, { ...input, name: 'Another name' });
    expectProblem(again, 409, 'marketplace.tenant.slug_taken');
    const bySlug = await gw.admin.call('GET', `${ADMIN}/tenants?slug=${input.slug}`);
    expect(bySlug.body).toEqual([created.body]);
  });

  it('answers invalid input with 400 request.invalid naming each field', async () => {
    const res = await gw.admin.call('POST', `${ADMIN}/tenants`, {
      slug: slug('t'),
      name: 'Bad',
      currencyCode: 'eur',
      defaultLanguage: 'en_US',
      openingHours: '9-5',
    });
    expectProblem(res, 400, 'request.invalid');
    expect(Object.keys(res.body.errors).sort()).toEqual(['currencyCode', 'defaultLanguage', 'openingHours']);
    expect(res.body.errors.openingHours).toEqual(['is not allowed']);

    const more = await gw.admin.call('POST', `${ADMIN}/tenants`, {
      slug: 'Not A Slug',
      currencyCode: 'EURO',
      defaultLanguage: 'e',
    });
    expectProblem(more, 400, 'request.invalid');
    expect(Object.keys(more.body.errors).sort()).toEqual(['currencyCode', 'defaultLanguage', 'name', 'slug']);
    expect(more.body.errors.name).toEqual(['is required']);
    // A code of the right shape that no currency has: prices could not be given in it.
    const unknownCurrency = await gw.admin.call('POST', `${ADMIN}/tenants`, {
      slug: slug('t'),
      name: 'Zed',
      currencyCode: 'ZZZ',
      defaultLanguage: 'en',
    });
    expectProblem(unknownCurrency, 400, 'request.invalid');
    expect(Object.keys(unknownCurrency.body.errors)).toEqual(['currencyCode']);

    const malformed = await fetch(`${gw.url}${ADMIN}/tenants`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${signBearerToken(Buffer.from(localEnv().MARKETPLACE_TOKEN_SECRET!, 'base64'), { role: 'admin', sub: 'a' }, new Date(Date.now() + 60_000))}`,
        'content-type': 'application/json',
      },
      body: '{"slug":',
      signal: AbortSignal.timeout(15_000),
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'request.malformed' });
  });

  it('finds a tenant by id and by slug; an unknown or non-uuid id is 404', async () => {
    const created = await gw.admin.call('POST', `${ADMIN}/tenants`, {
      slug: slug('find'),
      name: 'Find Me',
      currencyCode: 'EUR',
      defaultLanguage: 'en',
    });
    const byId = await gw.admin.call('GET', `${ADMIN}/tenants/${created.body.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(created.body);
    expect((await gw.admin.call('GET', `${ADMIN}/tenants?slug=${created.body.slug}`)).body).toEqual([created.body]);
    expect((await gw.admin.call('GET', `${ADMIN}/tenants?slug=${slug('none')}`)).body).toEqual([]);
    const all = await gw.admin.call('GET', `${ADMIN}/tenants`);
    expect(all.body.map((t: { id: string }) => t.id)).toEqual(
      expect.arrayContaining([created.body.id, owner.tenantId, other.tenantId]),
    );
    all.body.forEach((t: unknown) => expectDocumented('Tenant', t));

    const unknown = await gw.admin.call('GET', `${ADMIN}/tenants/${randomUUID()}`);
    expectProblem(unknown, 404, 'resource.not_found');
    const notUuid = await gw.admin.call('GET', `${ADMIN}/tenants/not-a-uuid`);
    expectProblem(notUuid, 404, 'resource.not_found');
    expect(withoutInstance(notUuid.body)).toEqual(withoutInstance(unknown.body));
  });

  it('mints tenant tokens (30 days by default, or as asked) that work on the tenant API only for that tenant', async () => {
    const created = await gw.admin.call('POST', `${ADMIN}/tenants`, {
      slug: slug('tok'),
      name: 'Token Bistro',
      currencyCode: 'EUR',
      defaultLanguage: 'fr',
    });
    const before = Date.now();
    const minted = await gw.admin.call('POST', `${ADMIN}/tenants/${created.body.id}/tokens`);
    expect(minted.status).toBe(201);
    expect(minted.headers.get('cache-control')).toBe('no-store');
    expectDocumented('TenantToken', minted.body);
    expect(minted.body.tokenType).toBe('Bearer');
    const lifetime = Date.parse(minted.body.expiresAt) - before;
    expect(Math.abs(lifetime - 30 * 24 * 3_600_000)).toBeLessThan(60_000);
    const claims = JSON.parse(Buffer.from(minted.body.token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ role: 'tenant', tid: created.body.id });

    const tenant = apiClient(gw.url, minted.body.token);
    const listed = await tenant.call('GET', INSTALLATIONS);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
    // A tenant token is not an admin token.
    expectProblem(await tenant.call('GET', `${ADMIN}/tenants`), 401, 'auth.unauthenticated');

    const short = await gw.admin.call('POST', `${ADMIN}/tenants/${created.body.id}/tokens`, { expiresInSeconds: 120 });
    expect(short.status).toBe(201);
    expect(Math.abs(Date.parse(short.body.expiresAt) - Date.now() - 120_000)).toBeLessThan(10_000);

    const tooShort = await gw.admin.call('POST', `${ADMIN}/tenants/${created.body.id}/tokens`, {
      expiresInSeconds: 59,
    });
    expectProblem(tooShort, 400, 'request.invalid');
    expect(Object.keys(tooShort.body.errors)).toEqual(['expiresInSeconds']);
    expectProblem(
      await gw.admin.call('POST', `${ADMIN}/tenants/${randomUUID()}/tokens`, {}),
      404,
      'resource.not_found',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Apps and contract versions
// ---------------------------------------------------------------------------------------------

describe('apps and contract versions', () => {
  it('creates apps as documented; a taken slug is 409', async () => {
    const input = { slug: slug('app'), name: 'Order Source', description: null };
    const created = await gw.admin.call('POST', `${ADMIN}/apps`, input);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ ...input, id: expect.stringMatching(UUID), createdAt: expect.stringMatching(ISO) });
    expectDocumented('App', created.body);
    expectProblem(
      await gw.admin.call('POST', `${ADMIN}/apps`, { slug: input.slug, name: 'Other' }),
      409,
      'marketplace.app.slug_taken',
    );
    const invalid = await gw.admin.call('POST', `${ADMIN}/apps`, { slug: '-bad', name: '', owner: 'me' });
    expectProblem(invalid, 400, 'request.invalid');
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['name', 'owner', 'slug']);
  });

  it('numbers versions 1, 2, 3 per app, as Drafts', async () => {
    const appId = await newApp();
    const numbers: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await addVersion(appId, apiKeyContract(['Catalog.Read']));
      expect(created.status).toBe(201);
      expectDocumented('ContractVersion', created.body);
      expect(created.body).toMatchObject({
        appId,
        status: 'Draft',
        publishedAt: null,
        oauth2: null,
        authType: 'ApiKey',
        scopes: ['Catalog.Read'],
        subscribedEvents: [],
        webhookUrl: null,
      });
      numbers.push(created.body.version);
    }
    expect(numbers).toEqual([1, 2, 3]);
    // Another app starts at 1 again.
    expect((await addVersion(await newApp(), apiKeyContract(['Catalog.Read']))).body.version).toBe(1);

    const detail = await gw.admin.call('GET', `${ADMIN}/apps/${appId}`);
    expectDocumented('AppDetail', detail.body);
    expect(detail.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2, 3]);
    expectProblem(await addVersion(randomUUID(), apiKeyContract(['Catalog.Read'])), 404, 'resource.not_found');
    expectProblem(await gw.admin.call('GET', `${ADMIN}/apps/${appId}/versions/4`), 404, 'resource.not_found');
    expectProblem(await gw.admin.call('GET', `${ADMIN}/apps/${appId}/versions/0`), 404, 'resource.not_found');
    expectProblem(await gw.admin.call('GET', `${ADMIN}/apps/${appId}/versions/one`), 404, 'resource.not_found');
    expectProblem(await gw.admin.call('GET', `${ADMIN}/apps/not-a-uuid`), 404, 'resource.not_found');
  });

  it('validates scopes and events: unknown scope codes by index, the inactive scopes accepted, system.test refused', async () => {
    const appId = await newApp();
    const unknownScope = await addVersion(appId, apiKeyContract(['Catalog.Read', 'Catalog.Write']));
    expectProblem(unknownScope, 400, 'request.invalid');
    expect(Object.keys(unknownScope.body.errors)).toEqual(['scopes[1]']);

    const inactive = await addVersion(appId, apiKeyContract(['Delivery.Read', 'Payments.Read'], ['delivery.assigned']));
    expect(inactive.status).toBe(201);
    expect(inactive.body.scopes).toEqual(['Delivery.Read', 'Payments.Read']);

    const systemTest = await addVersion(appId, apiKeyContract(['Catalog.Read'], ['orders.created', 'system.test']));
    expectProblem(systemTest, 400, 'request.invalid');
    expect(Object.keys(systemTest.body.errors)).toEqual(['subscribedEvents[1]']);

    const noUrl = await addVersion(appId, {
      ...apiKeyContract(['Catalog.Read'], ['orders.created']),
      webhookUrl: null,
    });
    expectProblem(noUrl, 400, 'request.invalid');
    expect(Object.keys(noUrl.body.errors)).toEqual(['webhookUrl']);

    const unknownField = await addVersion(appId, { ...apiKeyContract(['Catalog.Read']), webhookSecret: 'x' });
    expectProblem(unknownField, 400, 'request.invalid');
    expect(Object.keys(unknownField.body.errors)).toEqual(['webhookSecret']);
    // Only the one valid input made a version.
    expect((await gw.admin.call('GET', `${ADMIN}/apps/${appId}`)).body.versions).toHaveLength(1);
  });

  it('a version with a Delivery.* scope must subscribe to delivery.assigned (400 errors.subscribedEvents), on create and on replace', async () => {
    const appId = await newApp();
    const provider = ['Delivery.Accept', 'Delivery.Reject', 'Orders.Read'];
    for (const [scopes, events] of [
      [provider, []],
      [provider, ['delivery.cancelled', 'delivery.superseded']],
      [['Catalog.Read', 'Delivery.UpdateEta'], ['orders.created']],
      [['Delivery.Read'], []],
    ] as const) {
      const res = await addVersion(appId, apiKeyContract([...scopes], [...events]));
      expect({ scopes, events, status: res.status, errors: res.body?.errors }).toEqual({
        scopes,
        events,
        status: 400,
        errors: { subscribedEvents: [expect.stringMatching(/^must include delivery\.assigned/)] },
      });
      expectProblem(res, 400, 'request.invalid');
    }
    const ok = await addVersion(appId, apiKeyContract(provider, ['delivery.assigned']));
    expect(ok.status).toBe(201);
    expect(ok.body.subscribedEvents).toEqual(['delivery.assigned']);
    // Replacing the Draft keeps the rule; without Delivery.* scopes no event is required.
    const put = (input: unknown) => gw.admin.call('PUT', `${ADMIN}/apps/${appId}/versions/${ok.body.version}`, input);
    const dropped = await put(apiKeyContract(provider, ['delivery.cancelled']));
    expectProblem(dropped, 400, 'request.invalid');
    expect(Object.keys(dropped.body.errors)).toEqual(['subscribedEvents']);
    expect((await put(apiKeyContract(['Catalog.Read', 'Orders.Create']))).status).toBe(200);
    expect((await gw.admin.call('GET', `${ADMIN}/apps/${appId}`)).body.versions).toHaveLength(1);
  });

  it.each([
    ['plain http', 'http://partner.example.com/hooks'],
    ['a private address', 'https://10.0.0.5/x'],
    ['another private range', 'https://192.168.1.20/x'],
    ['the cloud metadata address', 'https://169.254.169.254/latest'],
    ['a unique-local IPv6 address', 'https://[fd00::1]/x'],
    ['credentials in the URL', 'https://user:pass@partner.example.com/x'],
    ['a fragment', 'https://partner.example.com/x#frag'],
    ['not a URL', 'partner.example.com/hooks'],
  ])('refuses a webhook URL with %s (400 errors.webhookUrl)', async (_what, webhookUrl) => {
    const res = await addVersion(await newApp(), {
      ...apiKeyContract(['Catalog.Read'], ['orders.created']),
      webhookUrl,
    });
    expectProblem(res, 400, 'request.invalid');
    expect(Object.keys(res.body.errors)).toEqual(['webhookUrl']);
  });

  it('refuses a private IPv4 address written as an IPv4-mapped IPv6 literal', async () => {
    // new URL() normalises [::ffff:10.0.0.5] to [::ffff:a00:5], which the private-address check misses.
    for (const webhookUrl of ['https://[::ffff:10.0.0.5]/x', 'https://[::ffff:169.254.169.254]/latest']) {
      const res = await addVersion(await newApp(), {
        ...apiKeyContract(['Catalog.Read'], ['orders.created']),
        webhookUrl,
      });
      expect({ webhookUrl, status: res.status, errors: res.body?.errors && Object.keys(res.body.errors) }).toEqual({
        webhookUrl,
        status: 400,
        errors: ['webhookUrl'],
      });
    }
  });

  it('requires oauth2 exactly for OAuth2, with https endpoints', async () => {
    const appId = await newApp();
    const missing = await addVersion(appId, { ...oauthContract('s'), oauth2: null });
    expectProblem(missing, 400, 'request.invalid');
    expect(Object.keys(missing.body.errors)).toEqual(['oauth2']);
    const absent = await addVersion(appId, apiKeyContract(['Catalog.Read'], [], { authType: 'OAuth2' }));
    expect(Object.keys(absent.body.errors)).toEqual(['oauth2']);

    const onApiKey = await addVersion(appId, apiKeyContract(['Catalog.Read'], [], { oauth2: oauthSettings('s') }));
    expectProblem(onApiKey, 400, 'request.invalid');
    expect(Object.keys(onApiKey.body.errors)).toEqual(['oauth2']);

    const httpToken = await addVersion(appId, {
      ...oauthContract('s'),
      oauth2: oauthSettings('s', { tokenEndpoint: 'http://auth.partner.example.com/token' }),
    });
    expectProblem(httpToken, 400, 'request.invalid');
    expect(Object.keys(httpToken.body.errors)).toEqual(['oauth2.tokenEndpoint']);
    const noSecret = await addVersion(appId, {
      ...oauthContract('s'),
      oauth2: { ...oauthSettings('s'), clientSecret: undefined },
    });
    expect(Object.keys(noSecret.body.errors)).toEqual(['oauth2.clientSecret']);
    expect((await gw.admin.call('GET', `${ADMIN}/apps/${appId}`)).body.versions).toEqual([]);
  });

  it('replaces a Draft, publishes it once, and keeps a published version immutable', async () => {
    const appId = await newApp();
    const draft = await addVersion(appId, apiKeyContract(['Catalog.Read']));
    const replaced = await gw.admin.call(
      'PUT',
      `${ADMIN}/apps/${appId}/versions/1`,
      apiKeyContract(['Catalog.Read', 'Orders.Create'], ['orders.cancelled']),
    );
    expect(replaced.status).toBe(200);
    expectDocumented('ContractVersion', replaced.body);
    expect(replaced.body).toMatchObject({
      version: 1,
      status: 'Draft',
      scopes: ['Catalog.Read', 'Orders.Create'],
      subscribedEvents: ['orders.cancelled'],
      webhookUrl: WEBHOOK_URL,
      createdAt: draft.body.createdAt,
    });
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(draft.body.updatedAt));
    expect((await gw.admin.call('GET', `${ADMIN}/apps/${appId}/versions/1`)).body).toEqual(replaced.body);
    const invalidPut = await gw.admin.call('PUT', `${ADMIN}/apps/${appId}/versions/1`, apiKeyContract(['Nope']));
    expectProblem(invalidPut, 400, 'request.invalid');

    const published = await publish(appId, 1);
    expect(published.status).toBe(200);
    expectDocumented('ContractVersion', published.body);
    expect(published.body).toMatchObject({
      version: 1,
      status: 'Published',
      scopes: ['Catalog.Read', 'Orders.Create'],
      publishedAt: expect.stringMatching(ISO),
    });

    const again = await publish(appId, 1);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(published.body);

    const put = await gw.admin.call('PUT', `${ADMIN}/apps/${appId}/versions/1`, apiKeyContract(['Delivery.Accept']));
    expectProblem(put, 409, 'marketplace.contract_version.published');
    expect((await gw.admin.call('GET', `${ADMIN}/apps/${appId}/versions/1`)).body).toEqual(published.body);
    expectProblem(await publish(appId, 2), 404, 'resource.not_found');
    expectProblem(
      await gw.admin.call('PUT', `${ADMIN}/apps/${appId}/versions/2`, apiKeyContract(['Catalog.Read'])),
      404,
      'resource.not_found',
    );
  });

  it('never returns the OAuth client secret, only clientSecretSet', async () => {
    const first = `cs-first-${randomBytes(12).toString('hex')}`;
    const second = `cs-second-${randomBytes(12).toString('hex')}`;
    const appId = await newApp();
    const responses: Res[] = [];
    responses.push(await addVersion(appId, oauthContract(first)));
    expect(responses[0]!.status).toBe(201);
    responses.push(
      await gw.admin.call(
        'PUT',
        `${ADMIN}/apps/${appId}/versions/1`,
        oauthContract(second, { scopes: ['Catalog.Read'] }),
      ),
    );
    expect(responses[1]!.status).toBe(200);
    responses.push(await gw.admin.call('GET', `${ADMIN}/apps/${appId}/versions/1`));
    responses.push(await publish(appId, 1));
    responses.push(await gw.admin.call('GET', `${ADMIN}/apps/${appId}`));
    responses.push(await gw.admin.call('GET', `${ADMIN}/apps`));
    responses.push(await owner.tenant.call('GET', '/api/tenant/v1/apps'));
    const id = await install(owner, appId);
    responses.push(await getInstallation(owner, id));
    const connect = await action(owner, id, 'connect');
    expect(connect.status).toBe(200);
    expect(connect.body).toMatchObject({
      credentials: null,
      authorizationUrl: expect.stringMatching(/^https:\/\/auth\.partner\.example\.com\/authorize\?/),
      installation: { status: 'Connecting' },
    });
    responses.push(connect);

    for (const version of [responses[0]!.body, responses[1]!.body, responses[2]!.body, responses[3]!.body]) {
      expectDocumented('ContractVersion', version);
      expect(version.oauth2).toEqual({
        authorizationEndpoint: 'https://auth.partner.example.com/authorize',
        tokenEndpoint: 'https://auth.partner.example.com/token',
        clientId: 'marketplace-client',
        scopes: ['openid', 'orders:write'],
        tokenEndpointAuthMethod: 'client_secret_basic',
        clientSecretSet: true,
      });
    }
    for (const res of responses) {
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(first);
      expect(text).not.toContain(second);
      expect(text).not.toContain('clientSecret"');
    }
  });

  describe('with ALLOW_LOOPBACK_HTTP_URLS=false', () => {
    let strict: TestGateway;
    beforeAll(async () => {
      strict = await startGateway({ ALLOW_LOOPBACK_HTTP_URLS: 'false', RATE_LIMIT_PER_IP: '100000' });
    }, 60_000);
    afterAll(async () => {
      await strict?.stop();
    });

    it('refuses loopback webhook and OAuth URLs that the test deployment allows', async () => {
      const loopback = [
        'http://127.0.0.1:8080/hooks',
        'https://127.0.0.1/hooks',
        'https://localhost/hooks',
        'http://localhost:9/hooks',
        'https://[::1]/hooks',
      ];
      for (const webhookUrl of loopback) {
        const input = { ...apiKeyContract(['Catalog.Read'], ['orders.created']), webhookUrl };
        const refused = await addVersion(await newApp(strict), input, strict);
        expect({
          webhookUrl,
          status: refused.status,
          errors: refused.body.errors && Object.keys(refused.body.errors),
        }).toEqual({ webhookUrl, status: 400, errors: ['webhookUrl'] });
        if (webhookUrl.includes('127.0.0.1') || webhookUrl.includes('localhost')) {
          // The same URL is fine where loopback is allowed (https, or http to loopback).
          expect({ webhookUrl, status: (await addVersion(await newApp(), input)).status }).toEqual({
            webhookUrl,
            status: 201,
          });
        }
      }
      const oauth = await addVersion(
        await newApp(strict),
        { ...oauthContract('s'), oauth2: oauthSettings('s', { tokenEndpoint: 'http://127.0.0.1:9999/token' }) },
        strict,
      );
      expectProblem(oauth, 400, 'request.invalid');
      expect(Object.keys(oauth.body.errors)).toEqual(['oauth2.tokenEndpoint']);
      expect(
        (
          await addVersion(await newApp(), {
            ...oauthContract('s'),
            oauth2: oauthSettings('s', { tokenEndpoint: 'http://127.0.0.1:9999/token' }),
          })
        ).status,
      ).toBe(201);
    });

    it('refuses an IPv4-mapped IPv6 loopback literal', async () => {
      const res = await addVersion(
        await newApp(strict),
        { ...apiKeyContract(['Catalog.Read'], ['orders.created']), webhookUrl: 'https://[::ffff:127.0.0.1]/hooks' },
        strict,
      );
      expect({ status: res.status, errors: res.body?.errors && Object.keys(res.body.errors) }).toEqual({
        status: 400,
        errors: ['webhookUrl'],
      });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 4. The tenants' app directory
// ---------------------------------------------------------------------------------------------

describe("tenants' view of apps", () => {
  it('lists only apps with a published version, and only their published versions', async () => {
    const draftOnly = await newApp();
    expect((await addVersion(draftOnly, apiKeyContract(['Catalog.Read']))).status).toBe(201);
    const onePublished = await newApp();
    await publishedVersion(onePublished, apiKeyContract(['Catalog.Read'], ['orders.created']));
    expect((await addVersion(onePublished, apiKeyContract(['Catalog.Read', 'Orders.Create']))).status).toBe(201);
    const twoPublished = await newApp();
    await publishedVersion(twoPublished, apiKeyContract(['Catalog.Read']));
    expect((await addVersion(twoPublished, apiKeyContract(['Orders.Create']))).status).toBe(201);
    await publishedVersion(twoPublished, apiKeyContract(['Orders.Create', 'Orders.Read']));

    const res = await other.tenant.call('GET', '/api/tenant/v1/apps');
    expect(res.status).toBe(200);
    const byId = new Map<string, { versions: { version: number; scopes: string[]; publishedAt: string }[] }>(
      res.body.map((a: { id: string }) => [a.id, a]),
    );
    expect(byId.has(draftOnly)).toBe(false);
    expect(byId.get(onePublished)?.versions).toEqual([
      {
        version: 1,
        authType: 'ApiKey',
        scopes: ['Catalog.Read'],
        subscribedEvents: ['orders.created'],
        webhookUrl: WEBHOOK_URL,
        publishedAt: expect.stringMatching(ISO),
      },
    ]);
    expect(byId.get(twoPublished)?.versions.map((v) => [v.version, v.scopes])).toEqual([
      [1, ['Catalog.Read']],
      [3, ['Orders.Create', 'Orders.Read']],
    ]);
    for (const app of res.body) {
      expect(app.versions.length).toBeGreaterThan(0);
    }
  });

  it('describes each listed app exactly as the AvailableApp schema says', async () => {
    const appId = await newApp();
    await publishedVersion(appId, apiKeyContract(['Catalog.Read']));
    const res = await owner.tenant.call('GET', '/api/tenant/v1/apps');
    const app = res.body.find((a: { id: string }) => a.id === appId);
    expect(app).toBeDefined();
    expectDocumented('AvailableApp', app);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Installations
// ---------------------------------------------------------------------------------------------

describe('installations', () => {
  it('installs only a published version of an existing app', async () => {
    const appId = await newApp();
    expect((await addVersion(appId, apiKeyContract(['Catalog.Read']))).status).toBe(201);
    expectProblem(
      await owner.tenant.call('POST', INSTALLATIONS, { appId, contractVersion: 1 }),
      404,
      'resource.not_found',
    );
    expectProblem(
      await owner.tenant.call('POST', INSTALLATIONS, { appId: randomUUID(), contractVersion: 1 }),
      404,
      'resource.not_found',
    );
    await publish(appId, 1);
    expectProblem(
      await owner.tenant.call('POST', INSTALLATIONS, { appId, contractVersion: 2 }),
      404,
      'resource.not_found',
    );
    const invalid = await owner.tenant.call('POST', INSTALLATIONS, { appId: 'nope', contractVersion: 1.5 });
    expectProblem(invalid, 400, 'request.invalid');
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['appId', 'contractVersion']);

    const installed = await owner.tenant.call('POST', INSTALLATIONS, { appId, contractVersion: 1 });
    expect(installed.status).toBe(201);
    expectDocumented('Installation', installed.body);
    expect(installed.body).toMatchObject({
      tenantId: owner.tenantId,
      appId,
      appName: 'Marketplace Test App',
      contractVersion: 1,
      authType: 'ApiKey',
      status: 'Installed',
      scopes: [],
      apiKeyId: null,
      webhookSecretSet: false,
      oauthConnected: false,
      connectedAt: null,
    });
    expect((await getInstallation(owner, installed.body.id)).body).toEqual(installed.body);
  });

  it('allows one installation of an app per tenant (409), and lists only the caller’s own', async () => {
    const appId = await newApp();
    await publishedVersion(appId, apiKeyContract(['Catalog.Read']));
    await publishedVersion(appId, apiKeyContract(['Catalog.Read', 'Orders.Create']));
    const mine = await install(owner, appId, 1);
    expectProblem(
      await owner.tenant.call('POST', INSTALLATIONS, { appId, contractVersion: 1 }),
      409,
      'marketplace.installation.exists',
    );
    expectProblem(
      await owner.tenant.call('POST', INSTALLATIONS, { appId, contractVersion: 2 }),
      409,
      'marketplace.installation.exists',
    );
    const theirs = await install(other, appId, 2); // another tenant may install the same app

    const myList = await owner.tenant.call('GET', INSTALLATIONS);
    expect(myList.status).toBe(200);
    myList.body.forEach((i: unknown) => expectDocumented('Installation', i));
    const myIds = myList.body.map((i: { id: string }) => i.id);
    expect(myIds).toContain(mine);
    expect(myIds).not.toContain(theirs);
    expect(new Set(myList.body.map((i: { tenantId: string }) => i.tenantId))).toEqual(new Set([owner.tenantId]));
    const theirList = await other.tenant.call('GET', INSTALLATIONS);
    expect(theirList.body.map((i: { id: string }) => i.id)).toContain(theirs);
    expect(theirList.body.map((i: { id: string }) => i.id)).not.toContain(mine);
  });

  it("treats another tenant's installation exactly like a nonexistent one (404) and leaves it untouched", async () => {
    const victim = await connected(owner, ['Catalog.Read'], ['orders.created']);
    const before = (await getInstallation(owner, victim.id)).body;
    const probes: [string, string][] = [
      ['GET', ''],
      ['POST', '/connect'],
      ['POST', '/reconnect'],
      ['POST', '/api-key/rotate'],
      ['POST', '/webhook-secret/rotate'],
      ['POST', '/disconnect'],
      ['DELETE', ''],
    ];
    for (const [method, suffix] of probes) {
      const theirs = await other.tenant.call(method, `${INSTALLATIONS}/${victim.id}${suffix}`);
      const none = await other.tenant.call(method, `${INSTALLATIONS}/${randomUUID()}${suffix}`);
      const notUuid = await other.tenant.call(method, `${INSTALLATIONS}/not-a-uuid${suffix}`);
      expect({ method, suffix, status: theirs.status }).toEqual({ method, suffix, status: 404 });
      expectProblem(theirs, 404, 'resource.not_found');
      expect(withoutInstance(theirs.body)).toEqual(withoutInstance(none.body));
      expect(withoutInstance(theirs.body)).toEqual(withoutInstance(notUuid.body));
      expect(theirs.headers.get('content-type')).toBe(none.headers.get('content-type'));
    }
    expect((await getInstallation(owner, victim.id)).body).toEqual(before);
    expect(await partnerStatus(victim.apiKey)).toBe(200);
    expect(await storedWebhookSecret(victim.id)).toBe(victim.webhookSecret);
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Connect, reconnect, rotate, disconnect, uninstall
// ---------------------------------------------------------------------------------------------

describe('credentials of an ApiKey installation', () => {
  it('connect mints an API key and a signing secret, shown once', async () => {
    const { appId, version } = await publishApp(
      gw,
      ['Catalog.Read', 'Orders.Create'],
      ['orders.created', 'orders.cancelled'],
    );
    const id = await install(owner, appId, version);
    const res = await action(owner, id, 'connect');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectDocumented('ConnectResult', res.body);
    const { apiKey, webhookSigningSecret } = res.body.credentials;
    expect(apiKey).toMatch(API_KEY);
    expect(webhookSigningSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.authorizationUrl).toBeNull();
    expect(res.body.installation).toMatchObject({
      id,
      status: 'Connected',
      apiKeyId: keyIdOf(apiKey),
      webhookSecretSet: true,
    });

    expect(await partnerStatus(apiKey)).toBe(200);
    expect(upstream.seen.at(-1)!.identity).toMatchObject({
      kind: 'partner',
      installationId: id,
      tenantId: owner.tenantId,
      scopes: ['Catalog.Read', 'Orders.Create'],
    });

    const shown = await getInstallation(owner, id);
    expectDocumented('Installation', shown.body);
    expect(shown.body).toMatchObject({
      id,
      status: 'Connected',
      scopes: ['Catalog.Read', 'Orders.Create'],
      subscribedEvents: ['orders.created', 'orders.cancelled'],
      apiKeyId: keyIdOf(apiKey),
      webhookSecretSet: true,
      connectedAt: expect.stringMatching(ISO),
    });
    const listed = await owner.tenant.call('GET', INSTALLATIONS);
    for (const text of [JSON.stringify(shown.body), JSON.stringify(listed.body)]) {
      expect(text).not.toContain(secretOf(apiKey));
      expect(text).not.toContain(webhookSigningSecret);
      expect(text).not.toContain('whsec_');
    }

    const again = await action(owner, id, 'connect');
    expectProblem(again, 409, 'marketplace.installation.already_connected');
    expect(await partnerStatus(apiKey)).toBe(200);
    expect((await getInstallation(owner, id)).body.apiKeyId).toBe(keyIdOf(apiKey));
  });

  it('reconnect mints new credentials and revokes the old key at once', async () => {
    const first = await connected(owner);
    expect(await partnerStatus(first.apiKey)).toBe(200); // cached as active now
    const res = await action(owner, first.id, 'reconnect');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectDocumented('ConnectResult', res.body);
    const { apiKey, webhookSigningSecret } = res.body.credentials;
    expect(apiKey).toMatch(API_KEY);
    expect(keyIdOf(apiKey)).not.toBe(keyIdOf(first.apiKey));
    expect(webhookSigningSecret).toMatch(/^whsec_/);
    expect(webhookSigningSecret).not.toBe(first.webhookSecret);

    const old = await partnerCall(gw, first.apiKey, 'GET', CATALOG);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ code: 'auth.unauthenticated' });
    expect(await partnerStatus(apiKey)).toBe(200);
    expect((await getInstallation(owner, first.id)).body).toMatchObject({
      status: 'Connected',
      apiKeyId: keyIdOf(apiKey),
      webhookSecretSet: true,
    });
    expect(await storedWebhookSecret(first.id)).toBe(webhookSigningSecret);
  });

  it('api-key rotation revokes the old key at once and keeps the signing secret', async () => {
    const app = await connected(owner);
    expect(await partnerStatus(app.apiKey)).toBe(200);
    const res = await action(owner, app.id, 'api-key/rotate');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectDocumented('ApiKeyRotationResult', res.body);
    const apiKey = res.body.credentials.apiKey as string;
    expect(apiKey).toMatch(API_KEY);
    expect(res.body.credentials.webhookSigningSecret).toBeNull();
    expect(res.body.installation).toMatchObject({
      status: 'Connected',
      apiKeyId: keyIdOf(apiKey),
      webhookSecretSet: true,
    });

    expect(await partnerStatus(app.apiKey)).toBe(401);
    expect(await partnerStatus(apiKey)).toBe(200);
    expect(await storedWebhookSecret(app.id)).toBe(app.webhookSecret);
    expect((await getInstallation(owner, app.id)).body.apiKeyId).toBe(keyIdOf(apiKey));
  });

  it('webhook-secret rotation replaces the secret and keeps the API key', async () => {
    const app = await connected(owner);
    const res = await action(owner, app.id, 'webhook-secret/rotate');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectDocumented('WebhookSecretRotationResult', res.body);
    const secret = res.body.credentials.webhookSigningSecret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(app.webhookSecret);
    expect(res.body.credentials.apiKey).toBeNull();
    expect(res.body.installation).toMatchObject({ apiKeyId: keyIdOf(app.apiKey), webhookSecretSet: true });
    expect(await storedWebhookSecret(app.id)).toBe(secret);
    expect(await partnerStatus(app.apiKey)).toBe(200);
  });

  it('an app without events gets no signing secret and cannot rotate one', async () => {
    const app = await connected(owner, ['Catalog.Read'], []);
    expect(app.webhookSecret).toBeNull();
    expect(app.apiKey).toMatch(API_KEY);
    expect(app.response.body.installation.webhookSecretSet).toBe(false);
    expectProblem(await action(owner, app.id, 'webhook-secret/rotate'), 409, 'marketplace.installation.no_events');
    expect(await storedWebhookSecret(app.id)).toBeNull();
    expect(await partnerStatus(app.apiKey)).toBe(200);
  });

  it('rotation and reconnect need a connected installation', async () => {
    const { appId, version } = await publishApp(gw, ['Catalog.Read'], ['orders.created']);
    const id = await install(owner, appId, version);
    expectProblem(await action(owner, id, 'api-key/rotate'), 409, 'marketplace.installation.not_connected');
    expectProblem(await action(owner, id, 'webhook-secret/rotate'), 409, 'marketplace.installation.not_connected');
    expectProblem(await action(owner, id, 'reconnect'), 409, 'marketplace.installation.not_connected');
    expect((await getInstallation(owner, id)).body).toMatchObject({
      status: 'Installed',
      apiKeyId: null,
      webhookSecretSet: false,
    });
  });

  it('disconnect revokes the credentials; reconnect afterwards works', async () => {
    const app = await connected(owner);
    expect(await partnerStatus(app.apiKey)).toBe(200);
    const res = await action(owner, app.id, 'disconnect');
    expect(res.status).toBe(200);
    expectDocumented('Installation', res.body);
    expect(res.body).toMatchObject({
      id: app.id,
      status: 'Disconnected',
      apiKeyId: null,
      webhookSecretSet: false,
      oauthConnected: false,
    });
    expect(await partnerStatus(app.apiKey)).toBe(401);
    expect(await storedWebhookSecret(app.id)).toBeNull();
    expect((await getInstallation(owner, app.id)).body).toEqual(res.body);
    expectProblem(await action(owner, app.id, 'api-key/rotate'), 409, 'marketplace.installation.not_connected');

    const back = await action(owner, app.id, 'reconnect');
    expect(back.status).toBe(200);
    const apiKey = back.body.credentials.apiKey as string;
    expect(back.body.installation).toMatchObject({
      status: 'Connected',
      apiKeyId: keyIdOf(apiKey),
      webhookSecretSet: true,
    });
    expect(await partnerStatus(apiKey)).toBe(200);
    expect(await partnerStatus(app.apiKey)).toBe(401);
  });

  it('a disconnected installation shows no connectedAt', async () => {
    // Documented: connectedAt is "when the current connection completed; null when not connected".
    const app = await connected(owner);
    const res = await action(owner, app.id, 'disconnect');
    expect(res.body).toMatchObject({ status: 'Disconnected', connectedAt: null });
  });

  it('connect (not only reconnect) works again after a disconnect', async () => {
    const app = await connected(owner);
    expect((await action(owner, app.id, 'disconnect')).status).toBe(200);
    const res = await action(owner, app.id, 'connect');
    expect(res.status).toBe(200);
    expect(res.body.installation).toMatchObject({
      status: 'Connected',
      apiKeyId: keyIdOf(res.body.credentials.apiKey),
      webhookSecretSet: true,
    });
    expect(await partnerStatus(res.body.credentials.apiKey)).toBe(200);
    expect(await partnerStatus(app.apiKey)).toBe(401);
  });

  it('disconnecting a Disconnected installation returns it unchanged', async () => {
    const app = await connected(owner);
    const first = await action(owner, app.id, 'disconnect');
    const second = await action(owner, app.id, 'disconnect');
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('uninstall revokes everything, hides the installation and lets the app be installed again', async () => {
    const app = await connected(owner);
    expect(await partnerStatus(app.apiKey)).toBe(200);
    const res = await owner.tenant.call('DELETE', `${INSTALLATIONS}/${app.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await partnerStatus(app.apiKey)).toBe(401);
    expectProblem(await getInstallation(owner, app.id), 404, 'resource.not_found');
    expect((await owner.tenant.call('GET', INSTALLATIONS)).body.map((i: { id: string }) => i.id)).not.toContain(app.id);
    expectProblem(await owner.tenant.call('DELETE', `${INSTALLATIONS}/${app.id}`), 404, 'resource.not_found');
    expectProblem(await action(owner, app.id, 'reconnect'), 404, 'resource.not_found');

    const again = await owner.tenant.call('POST', INSTALLATIONS, { appId: app.appId, contractVersion: 1 });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(app.id);
    expect(again.body).toMatchObject({ status: 'Installed', apiKeyId: null });
    const connect = await action(owner, again.body.id, 'connect');
    expect(connect.status).toBe(200);
    expect(await partnerStatus(connect.body.credentials.apiKey)).toBe(200);
    expect(await partnerStatus(app.apiKey)).toBe(401);
  });
});

describe('credentials of an OAuth2 installation', () => {
  let tokenEndpoint: Server;
  let tokenUrl = '';
  beforeAll(async () => {
    // A stand-in for the partner's token endpoint: any code is good.
    tokenEndpoint = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          access_token: `at-${randomBytes(8).toString('hex')}`,
          token_type: 'Bearer',
          expires_in: 3600,
        }),
      );
    });
    await new Promise<void>((resolve) => tokenEndpoint.listen(0, '127.0.0.1', resolve));
    tokenUrl = `http://127.0.0.1:${(tokenEndpoint.address() as AddressInfo).port}/token`;
  });
  afterAll(async () => {
    tokenEndpoint?.closeAllConnections();
    await new Promise((resolve) => tokenEndpoint?.close(resolve));
  });

  /** The restaurant's browser coming back to the callback with a code for this authorization URL. */
  const callback = async (authorizationUrl: string) => {
    const state = new URL(authorizationUrl).searchParams.get('state')!;
    const res = await fetch(
      `${gw.url}/api/marketplace/oauth/callback?code=code-${randomBytes(4).toString('hex')}&state=${encodeURIComponent(state)}`,
      { signal: AbortSignal.timeout(15_000) },
    );
    return { status: res.status, body: (await res.json()) as any };
  };

  async function oauthInstallation(): Promise<string> {
    const appId = await newApp();
    await publishedVersion(appId, {
      ...oauthContract('client-secret'),
      oauth2: oauthSettings('client-secret', { tokenEndpoint: tokenUrl }),
    });
    return install(owner, appId);
  }

  it('completes with the stand-in token endpoint (control)', async () => {
    const id = await oauthInstallation();
    const started = await action(owner, id, 'connect');
    const done = await callback(started.body.authorizationUrl);
    expect(done.status).toBe(200);
    expect(done.body.installation).toMatchObject({ id, status: 'Connected', oauthConnected: true });
    expect(await partnerStatus(done.body.credentials.apiKey)).toBe(200);
  });

  it('disconnect makes a pending authorization stop working', async () => {
    // Documented on disconnect: "... and a pending authorization no longer works".
    const id = await oauthInstallation();
    const started = await action(owner, id, 'connect');
    expect(started.body.installation.status).toBe('Connecting');
    const disconnected = await action(owner, id, 'disconnect');
    expect(disconnected.body).toMatchObject({ status: 'Disconnected', apiKeyId: null });

    const late = await callback(started.body.authorizationUrl);
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 400, code: 'oauth.state_invalid' });
    expect((await getInstallation(owner, id)).body).toMatchObject({
      status: 'Disconnected',
      apiKeyId: null,
      oauthConnected: false,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 7. Scopes are those of the consented contract version
// ---------------------------------------------------------------------------------------------

describe('scopes fixed at connect', () => {
  it('keeps version 1 scopes after the admin publishes a version 2 with more', async () => {
    const appId = await newApp();
    await publishedVersion(appId, apiKeyContract(['Catalog.Read']));
    const id = await install(owner, appId, 1);
    const first = await action(owner, id, 'connect');
    let apiKey = first.body.credentials.apiKey as string;
    expect(await partnerStatus(apiKey)).toBe(200);
    expect((await partnerCall(gw, apiKey, 'GET', ORDER)).body).toMatchObject({
      status: 403,
      code: 'auth.insufficient_scope',
    });

    expect(await publishedVersion(appId, apiKeyContract(['Catalog.Read', 'Orders.Create']))).toBe(2);
    // Control: version 2 grants the route to whoever consents to it.
    const v2 = await install(other, appId, 2);
    const v2Key = (await action(other, v2, 'connect')).body.credentials.apiKey as string;
    expect(await partnerStatus(v2Key, ORDER)).toBe(200);

    expect(await partnerStatus(apiKey, ORDER)).toBe(403);
    expect((await getInstallation(owner, id)).body).toMatchObject({ contractVersion: 1, scopes: ['Catalog.Read'] });
    // Neither rotation nor reconnect picks up the newer version.
    apiKey = (await action(owner, id, 'api-key/rotate')).body.credentials.apiKey;
    expect(await partnerStatus(apiKey, ORDER)).toBe(403);
    apiKey = (await action(owner, id, 'reconnect')).body.credentials.apiKey;
    expect(await partnerStatus(apiKey, ORDER)).toBe(403);
    expect(await partnerStatus(apiKey)).toBe(200);
    expect(upstream.seen.at(-1)!.identity).toMatchObject({ installationId: id, scopes: ['Catalog.Read'] });
  });
});

// ---------------------------------------------------------------------------------------------
// 8. Secrets at rest
// ---------------------------------------------------------------------------------------------

describe('secrets at rest', () => {
  it('keeps API secrets, webhook signing secrets and OAuth client secrets out of the database', async () => {
    const app = await connected(owner, ['Catalog.Read'], ['orders.created']);
    const rotated = await action(owner, app.id, 'webhook-secret/rotate');
    const newSecret = rotated.body.credentials.webhookSigningSecret as string;

    const clientSecret = `oauth-client-secret-${randomBytes(16).toString('hex')}`;
    const oauthAppId = await newApp();
    expect(await publishedVersion(oauthAppId, oauthContract(clientSecret))).toBe(1);
    const oauthInstallation = await install(owner, oauthAppId);
    const started = await action(owner, oauthInstallation, 'connect');
    expect(started.status).toBe(200);
    const state = new URL(started.body.authorizationUrl).searchParams.get('state')!;
    expect(state).toBeTruthy();

    const db = mongo.db(gw.database);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    expect(names).toEqual(expect.arrayContaining(['api_keys', 'contract_versions', 'installations', 'oauth_states']));
    const dump: string[] = [];
    for (const name of names)
      dump.push(JSON.stringify({ name, documents: await db.collection(name).find({}).toArray() }));
    const text = dump.join('\n');

    expect(text).toContain(keyIdOf(app.apiKey)); // the dump is real: the public key id is there
    for (const [what, secret] of [
      ['API secret', secretOf(app.apiKey)],
      ['full API key', app.apiKey],
      ['first webhook signing secret', app.webhookSecret!],
      ['rotated webhook signing secret', newSecret],
      ['OAuth client secret', clientSecret],
      ['OAuth state', state],
    ] as const) {
      expect({ what, found: text.includes(secret) }).toEqual({ what, found: false });
    }

    const key = await db
      .collection<{ _id: string; secretHash: string; status: string }>('api_keys')
      .findOne({ _id: keyIdOf(app.apiKey) });
    expect(key).toMatchObject({ status: 'active', secretHash: expect.any(String) });
    const secret = secretOf(app.apiKey);
    expect(key!.secretHash).not.toBe(secret);
    // Keyed: not a plain digest of the secret either.
    expect(key!.secretHash).not.toBe(createHash('sha256').update(secret).digest('base64url'));
    expect(key!.secretHash).not.toBe(createHash('sha256').update(secret).digest('hex'));
    const version = await db
      .collection<{ _id: string; oauth2: { clientSecretSealed: string } }>('contract_versions')
      .findOne({ _id: `${oauthAppId}:1` });
    expect(version!.oauth2.clientSecretSealed).toMatch(/^v1\./);
  });
});

// ---------------------------------------------------------------------------------------------
// 9. Concurrency
// ---------------------------------------------------------------------------------------------

describe('concurrency', () => {
  it('leaves exactly one working key after 10 concurrent api-key rotations', async () => {
    const app = await connected(owner, ['Catalog.Read'], []);
    const results = await Promise.all(Array.from({ length: 10 }, () => action(owner, app.id, 'api-key/rotate')));
    for (const res of results) {
      expect([200, 503]).toContain(res.status);
      if (res.status === 503) expect(res.body).toMatchObject({ code: 'resource.busy' });
    }
    const keys = results.filter((r) => r.status === 200).map((r) => r.body.credentials.apiKey as string);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);

    const statuses = await Promise.all([...keys, app.apiKey].map((k) => partnerStatus(k)));
    const working = [...keys, app.apiKey].filter((_, i) => statuses[i] === 200);
    expect(working).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 401)).toBe(true);
    const installation = await getInstallation(owner, app.id);
    expect(installation.body.apiKeyId).toBe(keyIdOf(working[0]!));
    const active = await mongo
      .db(gw.database)
      .collection('api_keys')
      .find({ installationId: app.id, status: 'active' })
      .toArray();
    expect(active.map((k) => k._id)).toEqual([keyIdOf(working[0]!)]);
  });

  it('connects an installation once under 10 concurrent connects', async () => {
    const { appId, version } = await publishApp(gw, ['Catalog.Read'], ['orders.created']);
    const id = await install(owner, appId, version);
    const results = await Promise.all(Array.from({ length: 10 }, () => action(owner, id, 'connect')));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) {
      expect([`409 marketplace.installation.already_connected`, `503 resource.busy`]).toContain(
        `${res.status} ${res.body.code}`,
      );
    }
    const apiKey = ok[0]!.body.credentials.apiKey as string;
    expect(await partnerStatus(apiKey)).toBe(200);
    expect((await getInstallation(owner, id)).body.apiKeyId).toBe(keyIdOf(apiKey));
    expect(await storedWebhookSecret(id)).toBe(ok[0]!.body.credentials.webhookSigningSecret);
  });

  it('installs an app once under 10 concurrent installs by one tenant', async () => {
    const { appId, version } = await publishApp(gw, ['Catalog.Read']);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => owner.tenant.call('POST', INSTALLATIONS, { appId, contractVersion: version })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 201))
      expectProblem(res, 409, 'marketplace.installation.exists');
    const listed = (await owner.tenant.call('GET', INSTALLATIONS)).body.filter(
      (i: { appId: string }) => i.appId === appId,
    );
    expect(listed).toHaveLength(1);
  });

  it('never gives two concurrently created versions the same number', async () => {
    // Some of these can be 503 resource.busy (five insert attempts, no backoff), which the
    // document lists for this route.
    const appId = await newApp();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => addVersion(appId, apiKeyContract(['Catalog.Read']))),
    );
    const created = results.filter((r) => r.status === 201);
    for (const res of results.filter((r) => r.status !== 201)) expectProblem(res, 503, 'resource.busy');
    expect(created.length).toBeGreaterThan(0);
    const numbers = created.map((r) => r.body.version as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: created.length }, (_, i) => i + 1));
    const detail = await gw.admin.call('GET', `${ADMIN}/apps/${appId}`);
    expect(detail.body.versions.map((v: { version: number }) => v.version)).toEqual(numbers);
  });
});
