import { readTopic, stackEnv, quietLogger, waitFor, type RawTopicReader } from '@marketplace/testing';
import { createKafka, createAjv, loadTopicCatalog } from '@marketplace/events';
import { freePort, startServiceProcess, type ServiceProcess } from '@marketplace/testing';
import { IDENTITY_HEADER, privateKeyFrom, signIdentity } from '@marketplace/identity';
import { localEnv } from '@marketplace/testing';
import { catalogTenant, created, startCatalogCluster, type CatalogCluster, type CatalogTenant } from './support/cluster';

// After a change is acknowledged every read sees it, on every catalog instance; and every change
// is published on the catalog topic with the whole resource.
let cluster: CatalogCluster;
let second: ServiceProcess;
let t: CatalogTenant;
let topic: RawTopicReader;
let branch: any;
let category: any;
let pizza: any;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  // A second catalog instance on the same database, called directly with an identity signed as the
  // gateway would sign it.
  second = await startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: cluster.catalogDatabase });
  const kafka = createKafka({ brokers: stackEnv().KAFKA_BROKERS.split(','), clientId: 'catalog-changes-it', logger: quietLogger() });
  topic = await readTopic(kafka, 'catalog');
  t = await catalogTenant(cluster);
  branch = await created(t, '/branches', { name: 'Mitte' });
  category = await created(t, '/categories', { name: 'Pizza' });
  pizza = await created(t, '/products', { categoryId: category.id, name: 'Margherita', variants: [{ name: 'S', price: 7.5, isDefault: true }] });
}, 90_000);

afterAll(async () => {
  await topic?.stop();
  await second?.stop();
  await cluster?.stop();
});

/** A partner read on the second instance, signed like the gateway signs it. */
async function viaSecond(path: string): Promise<{ status: number; body: any }> {
  const fullPath = `/api/partner/v1/catalog${path}`;
  const identity = { kind: 'partner' as const, tenantId: t.tenantId, tenant: { currencyCode: 'EUR', defaultLanguage: 'en' }, installationId: t.tenantId, appId: t.tenantId, scopes: ['Catalog.Read'] };
  const token = signIdentity(privateKeyFrom(localEnv().INTERNAL_IDENTITY_PRIVATE_KEY!), identity, { method: 'GET', path: fullPath });
  const res = await fetch(second.url + fullPath, { headers: { [IDENTITY_HEADER]: token }, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json() };
}
const priceOn = (body: any) => body.categories[0].products[0].variants[0].price;

it('shows a changed price at once, on the instance that wrote it and on another one', async () => {
  // Warm both instances' caches.
  expect(priceOn((await t.read(`/branches/${branch.id}/products`)).body)).toBe(7.5);
  expect(priceOn((await viaSecond(`/branches/${branch.id}/products`)).body)).toBe(7.5);
  for (const price of [8, 8.5, 9, 9.5, 10]) {
    const put = await t.manage('PUT', `/products/${pizza.id}`, { categoryId: category.id, name: 'Margherita', variants: [{ id: pizza.variants[0].id, name: 'S', price, isDefault: true }] });
    expect(put.status).toBe(200);
    expect(priceOn((await t.read(`/branches/${branch.id}/products`)).body)).toBe(price);
    expect(priceOn((await viaSecond(`/branches/${branch.id}/products`)).body)).toBe(price);
    expect((await viaSecond(`/branches/${branch.id}/products/${pizza.id}`)).body.variants[0].price).toBe(price);
  }
});

it('shows availability changes and deletions at once', async () => {
  await t.read(`/branches/${branch.id}/products`);
  expect((await t.manage('PATCH', `/branches/${branch.id}/availability`, { products: { [pizza.id]: 1 } })).status).toBe(200);
  expect((await viaSecond(`/branches/${branch.id}/products`)).body.categories[0].products[0].availability).toBe(1);
  const extra = await created(t, '/products', { categoryId: category.id, name: 'Zucchini', variants: [{ name: 'S', price: 8, isDefault: true }] });
  expect((await viaSecond(`/branches/${branch.id}/products`)).body.categories[0].products).toHaveLength(2);
  expect((await t.manage('DELETE', `/products/${extra.id}`)).status).toBe(204);
  expect((await viaSecond(`/branches/${branch.id}/products`)).body.categories[0].products).toHaveLength(1);
  expect((await viaSecond(`/branches/${branch.id}/products/${extra.id}`)).status).toBe(404);
});

it('publishes every change, keyed by tenant, with the whole resource in minor units and a growing sequence', async () => {
  const tax = await created(t, '/tax-categories', { name: 'Food', rate: 7, isInclusive: true });
  expect((await t.manage('DELETE', `/tax-categories/${tax.id}`)).status).toBe(204);
  const mine = () => topic.messages.filter((m) => m.key?.toString() === t.tenantId);
  // branch, category, pizza, 5 price changes, availability, Zucchini created and deleted, tax created and deleted
  await waitFor('the 13 catalog events of this tenant on the topic', () => mine().length >= 13, 20_000);
  const decoded = mine().map((m) => ({ type: m.headers!['event-type']!.toString(), data: JSON.parse(m.value!.subarray(5).toString()) }));
  const validate = createAjv().compile(loadTopicCatalog().get('catalog').schema);
  for (const event of decoded) expect({ type: event.type, valid: validate(event.data), errors: validate.errors ?? null }).toEqual({ type: event.type, valid: true, errors: null });
  expect(decoded.map((e) => e.type)).toEqual([
    'catalog.branch.changed',
    'catalog.category.changed',
    ...Array(6).fill('catalog.product.changed'),
    'catalog.availability.changed',
    'catalog.product.changed',
    'catalog.product.changed',
    'catalog.tax-category.changed',
    'catalog.tax-category.changed',
  ]);
  const sequences = decoded.map((e) => e.data.sequence);
  expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
  expect(new Set(sequences).size).toBe(sequences.length);
  const lastPrice = decoded[7]!.data;
  expect(lastPrice).toMatchObject({ tenantId: t.tenantId, currencyCode: 'EUR', entity: 'product', id: pizza.id, deleted: false });
  expect(lastPrice.state.variants[0]).toMatchObject({ id: pizza.variants[0].id, priceMinor: 1000, compareAtPriceMinor: null });
  expect(decoded[8]!.data.state.products).toEqual({ [pizza.id]: 1 });
  expect(decoded[12]!.data).toMatchObject({ entity: 'tax-category', id: tax.id, deleted: true, state: { name: 'Food', rate: 7 } });
});

it('applies concurrent changes one at a time: distinct sequences, no lost product, at most one of two crossing nestings', async () => {
  const before = (await t.manage('GET', '/products')).body.length;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => t.manage('POST', '/products', { categoryId: category.id, name: `P${i}`, variants: [{ name: 'S', price: 1, isDefault: true }] })),
  );
  expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
  expect((await t.manage('GET', '/products')).body).toHaveLength(before + 20);

  const body = (name: string, child?: string) => ({ name, minSelections: 0, maxSelections: 1, isRequired: false, options: [{ name: 'o', price: 0, childGroupIds: child ? [child] : [] }] });
  const a = await created(t, '/modifier-groups', body('A'));
  const b = await created(t, '/modifier-groups', body('B'));
  const [toB, toA] = await Promise.all([t.manage('PUT', `/modifier-groups/${a.id}`, body('A', b.id)), t.manage('PUT', `/modifier-groups/${b.id}`, body('B', a.id))]);
  expect([toB.status, toA.status].sort()).toEqual([200, 400]);
});
