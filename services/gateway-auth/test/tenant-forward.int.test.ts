import { createTenant, startGateway, apiClient, type TestGateway } from '@marketplace/testing';
import { TestUpstream } from './support/upstream';

// Tenant API parts owned by other services: the gateway checks the tenant's bearer token and
// forwards the request unchanged with a signed tenant identity carrying the tenant's profile.
let catalog: TestUpstream;
let webhooks: TestUpstream;
let gw: TestGateway;

beforeAll(async () => {
  catalog = await new TestUpstream().start();
  webhooks = await new TestUpstream().start();
  gw = await startGateway({ CATALOG_URL: catalog.url, WEBHOOKS_URL: webhooks.url });
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await catalog?.stop();
  await webhooks?.stop();
});

it('forwards catalog and webhook paths, any method, with the tenant identity and profile', async () => {
  const owner = await createTenant(gw, { currencyCode: 'JPY', defaultLanguage: 'ja' });
  const put = await owner.tenant.call('PUT', '/api/tenant/v1/catalog/products/abc?x=1', { name: 'Ramen' });
  expect(put.status).toBe(200);
  const seen = catalog.seen.at(-1)!;
  expect(seen.method).toBe('PUT');
  expect(seen.url).toBe('/api/tenant/v1/catalog/products/abc?x=1');
  expect(JSON.parse(seen.body)).toEqual({ name: 'Ramen' });
  expect(seen.identity).toEqual({
    kind: 'tenant',
    tenantId: owner.tenantId,
    tenant: { currencyCode: 'JPY', defaultLanguage: 'ja' },
  });
  expect(seen.headers.authorization).toBeUndefined(); // the bearer token stays at the gateway

  for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
    const res = await owner.tenant.call(method, '/api/tenant/v1/catalog');
    expect(res.status).toBe(method === 'POST' ? 201 : 200);
  }
  const hook = await owner.tenant.call('POST', '/api/tenant/v1/webhooks/installations/1/test');
  expect(hook.status).toBe(201);
  expect(webhooks.seen.at(-1)!.identity).toMatchObject({ kind: 'tenant', tenantId: owner.tenantId });
});

it('refuses a missing, foreign-role or forged token before anything is forwarded', async () => {
  const before = catalog.seen.length;
  const anonymous = await fetch(`${gw.url}/api/tenant/v1/catalog/branches`);
  expect(anonymous.status).toBe(401);
  const asAdmin = await gw.admin.call('GET', '/api/tenant/v1/catalog/branches');
  expect(asAdmin.status).toBe(401);
  const forged = await apiClient(gw.url, 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoidGVuYW50In0.x').call(
    'GET',
    '/api/tenant/v1/catalog/branches',
  );
  expect(forged.status).toBe(401);
  expect(catalog.seen.length).toBe(before);
});

it('does not forward lookalike prefixes', async () => {
  const owner = await createTenant(gw);
  const before = catalog.seen.length;
  const res = await owner.tenant.call('GET', '/api/tenant/v1/catalogue/branches');
  expect(res.status).toBe(404);
  expect(catalog.seen.length).toBe(before);
});
