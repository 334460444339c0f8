import { request, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import {
  catalogTenant,
  created,
  startCatalogCluster,
  type CatalogCluster,
  type CatalogTenant,
} from './support/cluster';

// A small menu built through the tenant API, read back through the Partner API: every field of the
// spec's Product list and Product detail responses, with nested modifiers and availability.
let cluster: CatalogCluster;
let t: CatalogTenant;
const menu: Record<string, any> = {};

beforeAll(async () => {
  cluster = await startCatalogCluster();
  t = await catalogTenant(cluster);
  menu.food = await created(t, '/tax-categories', {
    name: 'Food',
    rate: 7,
    isInclusive: true,
    translations: { de: 'Speisen' },
  });
  menu.drinks = await created(t, '/tax-categories', { name: 'Drinks', rate: 19, isInclusive: false });
  menu.branch = await created(t, '/branches', {
    name: 'Mitte',
    externalLocationId: 'POS-17',
    address: { line1: 'Main Street 1', city: 'Berlin', countryCode: 'DE', postalCode: '10115' },
    coordinates: { latitude: 52.52, longitude: 13.405 },
  });
  menu.pizzas = await created(t, '/categories', { name: 'Pizza', sortOrder: 1, translations: { de: 'Pizzen' } });
  menu.beverages = await created(t, '/categories', { name: 'Drinks', sortOrder: 2, translations: { de: 'Getränke' } });
  menu.empty = await created(t, '/categories', { name: 'Empty', sortOrder: 3 });
  menu.cheeseType = await created(t, '/modifier-groups', {
    name: 'Cheese type',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    options: [
      { name: 'Mozzarella', price: 0, isDefault: true },
      { name: 'Gorgonzola', price: 0.5 },
    ],
  });
  menu.extraCheese = await created(t, '/modifier-groups', {
    name: 'Extra cheese',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    options: [{ name: 'Double', price: 1.2, childGroupIds: [menu.cheeseType.id], translations: { de: 'Doppelt' } }],
  });
  menu.toppings = await created(t, '/modifier-groups', {
    name: 'Toppings',
    minSelections: 0,
    maxSelections: 2,
    isRequired: false,
    sortOrder: 2,
    options: [
      { name: 'Cheese', price: 1, childGroupIds: [menu.extraCheese.id] },
      { name: 'Olives', price: 0.8 },
    ],
  });
  menu.crust = await created(t, '/modifier-groups', {
    name: 'Crust',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    sortOrder: 1,
    options: [
      { name: 'Thin', price: 0, isDefault: true },
      { name: 'Thick', price: 0.5 },
    ],
  });
  menu.margherita = await created(t, '/products', {
    categoryId: menu.pizzas.id,
    sku: 'PZ-MARG',
    name: 'Margherita',
    imageUrl: 'https://img.example.com/margherita.jpg',
    taxCategoryId: menu.food.id,
    translations: { de: 'Pizza Margherita' },
    variants: [
      {
        name: 'Small',
        price: 7.5,
        isDefault: true,
        modifierGroupIds: [menu.toppings.id, menu.crust.id],
        translations: { de: 'Klein' },
      },
      {
        name: 'Large',
        sku: 'PZ-MARG-L',
        price: 11.9,
        compareAtPrice: 12.9,
        isDefault: false,
        modifierGroupIds: [menu.crust.id],
      },
    ],
  });
  menu.cola = await created(t, '/products', {
    categoryId: menu.beverages.id,
    name: 'Cola',
    taxCategoryId: menu.drinks.id,
    variants: [
      { name: '0.33 l', price: 2.5, isDefault: true },
      { name: '0.5 l', price: 3.2, isDefault: false },
    ],
  });
  menu.water = await created(t, '/products', {
    categoryId: menu.beverages.id,
    name: 'Water',
    sortOrder: -1,
    variants: [{ name: 'Bottle', price: 2, isDefault: true }],
  });
  const patched = await t.manage('PATCH', `/branches/${menu.branch.id}/availability`, {
    variants: { [menu.cola.variants[0].id]: 1 },
    products: { [menu.water.id]: 2 },
    modifierOptions: { [menu.toppings.options[1].id]: 1 },
  });
  expect(patched.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

it('lists the active branch with exactly the spec fields', async () => {
  const res = await t.read('/branches');
  expect(res.status).toBe(200);
  expect(res.body).toEqual([{ id: menu.branch.id, name: 'Mitte', isActive: true, externalLocationId: 'POS-17' }]);
});

it('returns the branch catalog as categories of product summaries, in order, without empty categories', async () => {
  const res = await t.read(`/branches/${menu.branch.id}/products`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body.resolvedLanguage).toBe('en');
  expect(res.body.categories.map((c: any) => c.name)).toEqual(['Pizza', 'Drinks']);
  const [pizza, drinks] = res.body.categories;
  expect(pizza).toEqual({
    id: menu.pizzas.id,
    name: 'Pizza',
    products: [
      {
        id: menu.margherita.id,
        sku: 'PZ-MARG',
        name: 'Margherita',
        imageUrl: 'https://img.example.com/margherita.jpg',
        taxCategory: { rate: 7, isInclusive: true },
        availability: 0,
        startingPrice: 7.5,
        variants: [
          {
            id: menu.margherita.variants[0].id,
            sku: null,
            name: 'Small',
            price: 7.5,
            compareAtPrice: null,
            isDefault: true,
            availability: 0,
          },
          {
            id: menu.margherita.variants[1].id,
            sku: 'PZ-MARG-L',
            name: 'Large',
            price: 11.9,
            compareAtPrice: 12.9,
            isDefault: false,
            availability: 0,
          },
        ],
      },
    ],
  });
  // Water sorts first (sortOrder -1) and is Unavailable; Cola's small size is sold out, so Cola
  // starts at the price of the size still available.
  expect(drinks.products.map((p: any) => [p.name, p.availability, p.startingPrice])).toEqual([
    ['Water', 2, 2],
    ['Cola', 0, 3.2],
  ]);
  expect(drinks.products[1].taxCategory).toEqual({ rate: 19, isInclusive: false });
  expect(drinks.products[1].variants.map((v: any) => v.availability)).toEqual([1, 0]);
  expect(drinks.products[0].variants[0].availability).toBe(2); // a product's Unavailable covers its variants
  expect(drinks.products[0]).not.toHaveProperty('modifierGroups');
});

it('returns a product with its modifier groups nested to the last level', async () => {
  const res = await t.read(`/branches/${menu.branch.id}/products/${menu.margherita.id}`);
  expect(res.status).toBe(200);
  const body = res.body;
  expect(Object.keys(body).sort()).toEqual(
    ['availability', 'id', 'imageUrl', 'name', 'resolvedLanguage', 'sku', 'taxCategory', 'variants'].sort(),
  );
  const small = body.variants[0];
  expect(Object.keys(small).sort()).toEqual(
    ['availability', 'compareAtPrice', 'id', 'isDefault', 'modifierGroups', 'name', 'price', 'sku'].sort(),
  );
  // Groups in sortOrder: Crust (1) before Toppings (2).
  expect(small.modifierGroups.map((g: any) => g.name)).toEqual(['Crust', 'Toppings']);
  const toppings = small.modifierGroups[1];
  expect(toppings).toMatchObject({
    id: menu.toppings.id,
    minSelections: 0,
    maxSelections: 2,
    isRequired: false,
    sortOrder: 2,
  });
  expect(toppings.options[1]).toEqual({
    id: menu.toppings.options[1].id,
    name: 'Olives',
    price: 0.8,
    isDefault: false,
    availability: 1,
    childGroups: [],
  });
  const extra = toppings.options[0].childGroups[0];
  expect(extra.name).toBe('Extra cheese');
  const cheeseType = extra.options[0].childGroups[0];
  expect(cheeseType).toMatchObject({ name: 'Cheese type', isRequired: true, minSelections: 1, maxSelections: 1 });
  expect(cheeseType.options.map((o: any) => [o.name, o.price, o.isDefault, o.childGroups])).toEqual([
    ['Mozzarella', 0, true, []],
    ['Gorgonzola', 0.5, false, []],
  ]);
  expect(body.variants[1].modifierGroups.map((g: any) => g.name)).toEqual(['Crust']);
});

/** A raw GET through the gateway (fetch would decompress and hide the encoding). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster.gateway.url}/api/partner/v1/catalog${path}`,
      { headers: { authorization: `ApiKey ${t.apiKey}`, ...headers }, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path} took more than 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

describe('transfer', () => {
  it('sends the product list gzipped to a client that accepts it, identical once decompressed', async () => {
    const plain = await rawGet(`/branches/${menu.branch.id}/products`, {});
    const zipped = await rawGet(`/branches/${menu.branch.id}/products`, { 'accept-encoding': 'gzip, deflate' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
    const refused = await rawGet(`/branches/${menu.branch.id}/products`, { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 to a revalidation of an unchanged menu, and 200 with a new ETag after a change', async () => {
    const first = await rawGet(`/branches/${menu.branch.id}/products`, {});
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await rawGet(`/branches/${menu.branch.id}/products`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    const cola = menu.cola;
    const changed = await t.manage('PUT', `/products/${cola.id}`, {
      categoryId: menu.beverages.id,
      name: 'Cola',
      taxCategoryId: menu.drinks.id,
      variants: [
        { id: cola.variants[0].id, name: '0.33 l', price: 2.6, isDefault: true },
        { id: cola.variants[1].id, name: '0.5 l', price: 3.2, isDefault: false },
      ],
    });
    expect(changed.status).toBe(200);
    const after = await rawGet(`/branches/${menu.branch.id}/products`, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(JSON.parse(after.bytes.toString()).categories[1].products[1].variants[0].price).toBe(2.6);
  });
});
