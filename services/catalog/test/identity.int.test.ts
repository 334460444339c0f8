import { generateKeyPairSync } from 'node:crypto';
import {
  IDENTITY_HEADER,
  privateKeyFrom,
  signIdentity,
  type CallerIdentity,
  type PartnerIdentity,
  type TenantIdentity,
} from '@marketplace/identity';
import { localEnv } from '@marketplace/testing';
import {
  catalogTenant,
  created,
  startCatalogCluster,
  type CatalogCluster,
  type CatalogTenant,
} from './support/cluster';

// The catalog's port answers the tenant and partner routes only with an identity the gateway signed
// for that very method and path: anything else is 401 auth.unauthenticated, before the body is read.
// (test/services/identity-guard.int.test.ts covers the partner branch list; this covers the tenant
// catalog routes.)
let cluster: CatalogCluster;
let t: CatalogTenant;
let category: any;
const ownKey = () => privateKeyFrom(localEnv().INTERNAL_IDENTITY_PRIVATE_KEY!);
const otherKey = () =>
  privateKeyFrom(generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'));

beforeAll(async () => {
  cluster = await startCatalogCluster();
  t = await catalogTenant(cluster);
  category = await created(t, '/categories', { name: 'Pizza' });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

const tenantIdentity = (): TenantIdentity => ({
  kind: 'tenant',
  tenantId: t.tenantId,
  tenant: { currencyCode: 'EUR', defaultLanguage: 'en' },
});
const partnerIdentity = (): PartnerIdentity => ({
  kind: 'partner',
  tenantId: t.tenantId,
  tenant: { currencyCode: 'EUR', defaultLanguage: 'en' },
  installationId: t.tenantId,
  appId: t.tenantId,
  scopes: ['Catalog.Read'],
});
const sign = (identity: CallerIdentity, method: string, path: string, key = ownKey(), nowMs = Date.now()) =>
  signIdentity(key, identity, { method, path, service: 'catalog' }, nowMs);

/** A call straight to the catalog's port, past the gateway. */
async function direct(method: string, path: string, identity?: string, body?: string) {
  const res = await fetch(cluster.catalog.url + path, {
    method,
    headers: {
      ...(identity === undefined ? {} : { [IDENTITY_HEADER]: identity }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
}

const expect401 = (what: string, res: { status: number; type: string | null; body: any }) =>
  expect({ what, status: res.status, type: res.type, code: res.body?.code }).toEqual({
    what,
    status: 401,
    type: expect.stringMatching(/^application\/problem\+json/),
    code: 'auth.unauthenticated',
  });

const tenantRoutes = (): [string, string, string | undefined][] => [
  ['GET', '/api/tenant/v1/catalog/categories', undefined],
  ['POST', '/api/tenant/v1/catalog/categories', JSON.stringify({ name: 'Direct' })],
  ['GET', `/api/tenant/v1/catalog/categories/${category.id}`, undefined],
  ['PUT', `/api/tenant/v1/catalog/categories/${category.id}`, JSON.stringify({ name: 'Direct' })],
  ['DELETE', `/api/tenant/v1/catalog/categories/${category.id}`, undefined],
  [
    'POST',
    '/api/tenant/v1/catalog/products',
    JSON.stringify({ categoryId: category.id, name: 'P', variants: [{ name: 'S', price: 1, isDefault: true }] }),
  ],
  ['POST', '/api/tenant/v1/catalog/branches', JSON.stringify({ name: 'Direct' })],
  ['PATCH', `/api/tenant/v1/catalog/branches/${category.id}/availability`, JSON.stringify({ products: {} })],
  ['GET', '/api/tenant/v1/catalog/openapi.json', undefined],
];

it('refuses every tenant catalog route without an identity', async () => {
  for (const [method, path, body] of tenantRoutes())
    expect401(`${method} ${path}`, await direct(method, path, undefined, body));
});

it('refuses before reading the body: a malformed body without identity is 401, not 400', async () => {
  expect401('malformed body', await direct('POST', '/api/tenant/v1/catalog/categories', undefined, '{"name":'));
});

it('refuses forged, misdirected, expired and partner identities on the tenant routes', async () => {
  const path = '/api/tenant/v1/catalog/categories';
  const cases: [string, string][] = [
    ['garbage', 'v1.abc.def'],
    ['signed by another key', sign(tenantIdentity(), 'POST', path, otherKey())],
    ['signed for GET, used for POST', sign(tenantIdentity(), 'GET', path)],
    ['signed for another path', sign(tenantIdentity(), 'POST', '/api/tenant/v1/catalog/branches')],
    ['expired', sign(tenantIdentity(), 'POST', path, ownKey(), Date.now() - 120_000)],
    ['a partner identity', sign(partnerIdentity(), 'POST', path)],
  ];
  for (const [what, identity] of cases)
    expect401(what, await direct('POST', path, identity, JSON.stringify({ name: `Forged ${what}` })));
  // None of them created anything.
  const names = (await t.manage('GET', '/categories')).body.map((c: any) => c.name);
  expect(names).toEqual(['Pizza']);
});

it('refuses a tenant identity on the partner routes', async () => {
  const path = '/api/partner/v1/catalog/branches';
  expect401('tenant identity on a partner route', await direct('GET', path, sign(tenantIdentity(), 'GET', path)));
  expect401('no identity', await direct('GET', path));
});

it('answers a correctly signed request for the tenant it names (so the refusals above are the guard’s)', async () => {
  const path = '/api/tenant/v1/catalog/categories';
  const res = await direct('POST', path, sign(tenantIdentity(), 'POST', path), JSON.stringify({ name: 'Signed' }));
  expect(res.status).toBe(201);
  expect((await t.manage('GET', `/categories/${res.body.id}`)).body.name).toBe('Signed');
  const list = await direct('GET', path, sign(tenantIdentity(), 'GET', path));
  expect(list.body.map((c: any) => c.name).sort()).toEqual(['Pizza', 'Signed']);
  // Probes need no identity.
  expect((await fetch(`${cluster.catalog.url}/healthz`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
});
