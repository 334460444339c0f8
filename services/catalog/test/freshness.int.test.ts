import { partnerCall } from '@marketplace/testing';
import {
  catalogTenant,
  created,
  LOCATION,
  startCatalogCluster,
  startSecondInstance,
  throughGateway,
  type CatalogCluster,
  type CatalogTenant,
  type SecondInstance,
} from './support/cluster';

// Once a change is acknowledged, the very next partner read sees it: on the instance that wrote it
// and on another catalog instance (its own gateway, the same catalog database), although both keep
// the menu and the serialized responses in memory.
let cluster: CatalogCluster;
let second: SecondInstance;
let one: CatalogTenant; // through gateway 1 → catalog 1
let two: CatalogTenant; // through gateway 2 → catalog 2
let branch: any;
let category: any;
let pizza: any;
let toppings: any;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  second = await startSecondInstance(cluster);
  one = await catalogTenant(cluster);
  two = await throughGateway(one, second.gateway);
  branch = await created(one, '/branches', { name: 'Mitte', ...LOCATION });
  category = await created(one, '/categories', { name: 'Pizza' });
  toppings = await created(one, '/modifier-groups', {
    name: 'Toppings',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    options: [{ name: 'Olives', price: 0.5 }],
  });
  pizza = await created(one, '/products', {
    categoryId: category.id,
    name: 'Margherita',
    variants: [{ name: 'S', price: 7.5, isDefault: true, modifierGroupIds: [toppings.id] }],
  });
}, 90_000);

afterAll(async () => {
  await second?.stop();
  await cluster?.stop();
});

const list = async (t: CatalogTenant, query = '') => {
  const res = await t.read(`/branches/${branch.id}/products${query}`);
  expect(res.status).toBe(200);
  return res.body;
};
const detail = async (t: CatalogTenant, productId = pizza.id) => t.read(`/branches/${branch.id}/products/${productId}`);
const priceIn = (body: any) => body.categories[0].products.find((p: any) => p.id === pizza.id).variants[0].price;
const pizzaBody = (price: number, over: Record<string, unknown> = {}) => ({
  categoryId: category.id,
  name: 'Margherita',
  variants: [{ id: pizza.variants[0].id, name: 'S', price, isDefault: true, modifierGroupIds: [toppings.id] }],
  ...over,
});

it('serves both instances from the same catalog', async () => {
  expect((await two.read('/branches')).body).toEqual((await one.read('/branches')).body);
  expect(priceIn(await list(one))).toBe(7.5);
  expect(priceIn(await list(two))).toBe(7.5);
});

it('shows a changed price on the very next read, on the writing instance and on the other, list and detail', async () => {
  // Warm every cache: both instances, list and detail.
  await Promise.all([list(one), list(two), detail(one), detail(two)]);
  for (const [i, price] of [8, 8.5, 9, 9.5, 10, 10.5].entries()) {
    const writer = i % 2 === 0 ? one : two;
    const put = await writer.manage('PUT', `/products/${pizza.id}`, pizzaBody(price));
    expect(put.status).toBe(200);
    for (const [name, reader] of [
      ['writer', writer],
      ['other', writer === one ? two : one],
    ] as const) {
      expect({
        round: i,
        reader: name,
        list: priceIn(await list(reader)),
        detail: (await detail(reader)).body.variants[0].price,
      }).toEqual({ round: i, reader: name, list: price, detail: price });
    }
  }
});

it('shows an availability change at once on the other instance', async () => {
  await Promise.all([list(one), list(two), detail(one)]);
  expect(
    (await two.manage('PATCH', `/branches/${branch.id}/availability`, { products: { [pizza.id]: 1 } })).status,
  ).toBe(200);
  expect((await list(one)).categories[0].products[0].availability).toBe(1);
  expect((await detail(one)).body.availability).toBe(1);
  expect(
    (
      await one.manage('PATCH', `/branches/${branch.id}/availability`, {
        products: { [pizza.id]: 0 },
        modifierOptions: { [toppings.options[0].id]: 2 },
      })
    ).status,
  ).toBe(200);
  expect((await list(two)).categories[0].products[0].availability).toBe(0);
  expect((await detail(two)).body.variants[0].modifierGroups[0].options[0].availability).toBe(2);
});

it('shows a new product, then its deletion, at once', async () => {
  await Promise.all([list(one), list(two)]);
  const extra = await created(one, '/products', {
    categoryId: category.id,
    name: 'Zucchini',
    variants: [{ name: 'S', price: 8, isDefault: true }],
  });
  expect((await list(two)).categories[0].products.map((p: any) => p.name)).toEqual(['Margherita', 'Zucchini']);
  expect((await detail(two, extra.id)).status).toBe(200);
  expect((await two.manage('DELETE', `/products/${extra.id}`)).status).toBe(204);
  expect((await list(one)).categories[0].products.map((p: any) => p.name)).toEqual(['Margherita']);
  expect((await detail(one, extra.id)).status).toBe(404);
  expect((await detail(two, extra.id)).status).toBe(404);
});

it('shows a change of a nested modifier group in the product detail at once', async () => {
  await Promise.all([detail(one), detail(two)]);
  const res = await two.manage('PUT', `/modifier-groups/${toppings.id}`, {
    name: 'Extras',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    options: [{ id: toppings.options[0].id, name: 'Olives', price: 0.7 }],
  });
  expect(res.status).toBe(200);
  for (const t of [one, two]) {
    const group = (await detail(t)).body.variants[0].modifierGroups[0];
    expect([group.name, group.options[0].price]).toEqual(['Extras', 0.7]);
  }
});

it('shows renames and translations at once, in every language already cached', async () => {
  await Promise.all([list(one), list(two), list(one, '?language=de'), list(two, '?language=de')]);
  expect(
    (await one.manage('PUT', `/categories/${category.id}`, { name: 'Pizzas', translations: { de: 'Pizzen' } })).status,
  ).toBe(200);
  expect([
    (await list(two)).categories[0].name,
    (await list(two, '?language=de')).categories[0].name,
    (await list(two, '?language=de')).resolvedLanguage,
  ]).toEqual(['Pizzas', 'Pizzen', 'de']);
  expect((await two.manage('PUT', `/categories/${category.id}`, { name: 'Pizza' })).status).toBe(200);
  const de = await list(one, '?language=de');
  expect([de.resolvedLanguage, de.categories[0].name]).toEqual(['en', 'Pizza']); // no German left in the catalog
});

it('hides a deactivated branch and shows a new one at once', async () => {
  const hafen = await created(two, '/branches', { name: 'Hafen', ...LOCATION });
  await Promise.all([one.read('/branches'), one.read(`/branches/${hafen.id}/products`)]);
  expect((await one.read('/branches')).body.map((b: any) => b.name)).toEqual(['Hafen', 'Mitte']);
  expect((await two.manage('PUT', `/branches/${hafen.id}`, { name: 'Hafen', isActive: false })).status).toBe(200);
  expect((await one.read('/branches')).body.map((b: any) => b.name)).toEqual(['Mitte']);
  expect((await one.read(`/branches/${hafen.id}/products`)).status).toBe(404);
  expect((await one.manage('DELETE', `/branches/${hafen.id}`)).status).toBe(204);
  expect((await two.read(`/branches/${hafen.id}/products`)).status).toBe(404);
});

it('never answers 304 to a revalidation after a change made on the other instance', async () => {
  const path = `/catalog/branches/${branch.id}/products`;
  const first = await partnerCall(second.gateway, one.apiKey, 'GET', path);
  const etag = first.headers.get('etag')!;
  expect(etag).toMatch(/^W\/".+"$/);
  expect(
    (await partnerCall(second.gateway, one.apiKey, 'GET', path, { headers: { 'if-none-match': etag } })).status,
  ).toBe(304);
  expect((await one.manage('PUT', `/products/${pizza.id}`, pizzaBody(priceIn(first.body) + 1))).status).toBe(200);
  const after = await partnerCall(second.gateway, one.apiKey, 'GET', path, { headers: { 'if-none-match': etag } });
  expect(after.status).toBe(200);
  expect(priceIn(after.body)).toBe(priceIn(first.body) + 1);
  const newEtag = after.headers.get('etag')!;
  expect(newEtag).not.toBe(etag);
  // Both instances give the same body the same ETag.
  expect(
    (await partnerCall(cluster.gateway, one.apiKey, 'GET', path, { headers: { 'if-none-match': newEtag } })).status,
  ).toBe(304);
});

it('never serves a stale price while writes and reads on both instances interleave quickly', async () => {
  const stale: unknown[] = [];
  for (let i = 0; i < 15; i++) {
    const price = 20 + i;
    const [writer, reader] = i % 2 === 0 ? [two, one] : [one, two];
    expect((await writer.manage('PUT', `/products/${pizza.id}`, pizzaBody(price))).status).toBe(200);
    const [a, b] = await Promise.all([list(reader), list(reader, '?language=en')]);
    if (priceIn(a) !== price || priceIn(b) !== price) stale.push({ i, expected: price, got: [priceIn(a), priceIn(b)] });
  }
  expect(stale).toEqual([]);
});
