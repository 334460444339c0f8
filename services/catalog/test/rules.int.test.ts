import { catalogTenant, created, startCatalogCluster, type CatalogCluster, type CatalogTenant } from './support/cluster';

// The tenant API's rules, through the gateway: every refusal is a 400 problem naming the field.
let cluster: CatalogCluster;
let t: CatalogTenant;
let category: any;
let group: any;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  t = await catalogTenant(cluster);
  category = await created(t, '/categories', { name: 'Pizza' });
  group = await created(t, '/modifier-groups', { name: 'Crust', minSelections: 1, maxSelections: 1, isRequired: true, options: [{ name: 'Thin', price: 0, isDefault: true }] });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

async function refused(method: string, path: string, body: unknown): Promise<Record<string, string[]>> {
  const res = await t.manage(method, path, body);
  expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({
    status: 400,
    type: expect.stringMatching(/^application\/problem\+json/),
    code: 'catalog.validation_failed',
  });
  return res.body.errors;
}

const variant = (over: Record<string, unknown> = {}) => ({ name: 'Small', price: 7.5, isDefault: true, ...over });
const product = (over: Record<string, unknown> = {}) => ({ categoryId: category.id, name: 'Margherita', variants: [variant()], ...over });
const groupBody = (over: Record<string, unknown> = {}) => ({ name: 'Toppings', minSelections: 0, maxSelections: 1, isRequired: false, options: [{ name: 'Olives', price: 1 }], ...over });

it('refuses a group whose minimum exceeds its maximum, or whose maximum exceeds its options', async () => {
  expect(await refused('POST', '/modifier-groups', groupBody({ minSelections: 2, maxSelections: 1, isRequired: true }))).toHaveProperty('minSelections');
  expect(await refused('POST', '/modifier-groups', groupBody({ maxSelections: 2 }))).toHaveProperty('maxSelections');
  expect(await refused('POST', '/modifier-groups', groupBody({ minSelections: 1, isRequired: false }))).toHaveProperty('isRequired');
});

it('needs exactly one default variant', async () => {
  expect(await refused('POST', '/products', product({ variants: [variant({ isDefault: false })] }))).toHaveProperty('variants');
  expect(await refused('POST', '/products', product({ variants: [variant(), variant({ name: 'Large' })] }))).toHaveProperty('variants');
});

it("refuses negative prices and more decimals than the tenant's currency has", async () => {
  expect(await refused('POST', '/products', product({ variants: [variant(), variant({ name: 'L', price: 9.999, isDefault: false })] }))).toHaveProperty(['variants[1].price']);
  expect(await refused('POST', '/products', product({ variants: [variant({ price: -1 })] }))).toHaveProperty(['variants[0].price']);
  const yen = await catalogTenant(cluster, { currencyCode: 'JPY', defaultLanguage: 'ja' });
  const ramen = await created(yen, '/categories', { name: 'Ramen' });
  const res = await yen.manage('POST', '/products', { categoryId: ramen.id, name: 'Shoyu', variants: [variant({ price: 1.5 })] });
  expect(res.status).toBe(400);
  expect(res.body.errors).toHaveProperty(['variants[0].price']);
  const ok = await yen.manage('POST', '/products', { categoryId: ramen.id, name: 'Shoyu', variants: [variant({ price: 980 })] });
  expect(ok.status).toBe(201);
  expect(ok.body.variants[0].price).toBe(980);
});

it('refuses unknown language codes and translations of the default language', async () => {
  expect(await refused('POST', '/categories', { name: 'Salads', translations: { xx: 'Salate' } })).toHaveProperty(['translations.xx']);
  expect(await refused('POST', '/categories', { name: 'Salads', translations: { en: 'Salads' } })).toHaveProperty(['translations.en']);
  const ok = await created(t, '/categories', { name: 'Salads', translations: { 'DE-at': 'Salate' } });
  expect(ok.translations).toEqual({ 'de-AT': 'Salate' });
});

it('refuses references to what the catalog does not have', async () => {
  const missing = '00000000-0000-4000-8000-000000000000';
  expect(await refused('POST', '/products', product({ categoryId: missing }))).toHaveProperty('categoryId');
  expect(await refused('POST', '/products', product({ taxCategoryId: missing }))).toHaveProperty('taxCategoryId');
  expect(await refused('POST', '/products', product({ variants: [variant({ modifierGroupIds: [group.id, missing] })] }))).toHaveProperty(['variants[0].modifierGroupIds[1]']);
  expect(await refused('POST', '/modifier-groups', groupBody({ options: [{ name: 'A', price: 0, childGroupIds: [missing] }] }))).toHaveProperty(['options[0].childGroupIds[0]']);
});

it('refuses a nesting cycle made by replacing an existing group', async () => {
  const a = await created(t, '/modifier-groups', groupBody({ name: 'A' }));
  const b = await created(t, '/modifier-groups', groupBody({ name: 'B', options: [{ name: 'to A', price: 0, childGroupIds: [a.id] }] }));
  const errors = await refused('PUT', `/modifier-groups/${a.id}`, groupBody({ name: 'A', options: [{ id: a.options[0].id, name: 'to B', price: 0, childGroupIds: [b.id] }] }));
  expect(errors.options![0]).toMatch(/cycle/);
  expect(await refused('PUT', `/modifier-groups/${a.id}`, groupBody({ name: 'A', options: [{ name: 'self', price: 0, childGroupIds: [a.id] }] }))).toHaveProperty('options');
});

it('checks the shape: lengths, unknown fields, types', async () => {
  expect(await refused('POST', '/branches', { name: 'Mitte', externalLocationId: 'x'.repeat(257) })).toHaveProperty('externalLocationId');
  expect(await refused('POST', '/branches', { name: 'Mitte', color: 'red' })).toHaveProperty('color');
  expect(await refused('POST', '/products', product({ variants: [variant({ price: '7.50' })] }))).toHaveProperty(['variants[0].price']);
  expect(await refused('PATCH', `/branches/${(await created(t, '/branches', { name: 'B' })).id}/availability`, { products: { 'not-a-uuid': 1 } })).toBeDefined();
  const branch = await created(t, '/branches', { name: 'Mitte', externalLocationId: 'x'.repeat(256) });
  expect(branch.externalLocationId).toHaveLength(256);
  expect(branch.isActive).toBe(true);
});

it('refuses availability for ids the catalog does not have, and values other than 0, 1, 2', async () => {
  const branch = await created(t, '/branches', { name: 'Hafen' });
  const missing = '00000000-0000-4000-8000-000000000001';
  expect(await refused('PATCH', `/branches/${branch.id}/availability`, { variants: { [missing]: 1 } })).toHaveProperty([`variants.${missing}`]);
  const pizza = await created(t, '/products', product());
  expect(await refused('PATCH', `/branches/${branch.id}/availability`, { products: { [pizza.id]: 3 } })).toBeDefined();
  const ok = await t.manage('PATCH', `/branches/${branch.id}/availability`, { products: { [pizza.id]: 1 }, modifierOptions: { [group.options[0].id]: 2 } });
  expect(ok.body).toEqual({ branchId: branch.id, products: { [pizza.id]: 1 }, variants: {}, modifierOptions: { [group.options[0].id]: 2 } });
  const cleared = await t.manage('PATCH', `/branches/${branch.id}/availability`, { products: { [pizza.id]: 0 } });
  expect(cleared.body.products).toEqual({});
  expect((await t.manage('GET', `/branches/${branch.id}/availability`)).body).toEqual(cleared.body);
});

it('keeps variant ids across a replacement and refuses ids the product never had', async () => {
  const pizza = await created(t, '/products', product({ variants: [variant(), variant({ name: 'Large', price: 11, isDefault: false })] }));
  const replaced = await t.manage('PUT', `/products/${pizza.id}`, product({ variants: [{ ...variant({ price: 8 }), id: pizza.variants[0].id }, variant({ name: 'XL', price: 14, isDefault: false })] }));
  expect(replaced.status).toBe(200);
  expect(replaced.body.variants[0].id).toBe(pizza.variants[0].id);
  expect(replaced.body.variants[1].id).not.toBe(pizza.variants[1].id);
  const foreign = await refused('PUT', `/products/${pizza.id}`, product({ variants: [{ ...variant(), id: group.options[0].id }] }));
  expect(foreign).toHaveProperty(['variants[0].id']);
});

it('refuses to delete what is still used, and deletes it once unused', async () => {
  const tax = await created(t, '/tax-categories', { name: 'Food', rate: 7, isInclusive: true });
  const cat = await created(t, '/categories', { name: 'Pasta' });
  const child = await created(t, '/modifier-groups', groupBody({ name: 'Child' }));
  const parent = await created(t, '/modifier-groups', groupBody({ name: 'Parent', options: [{ name: 'o', price: 0, childGroupIds: [child.id] }] }));
  const pasta = await created(t, '/products', product({ categoryId: cat.id, taxCategoryId: tax.id, variants: [variant({ modifierGroupIds: [parent.id] })] }));
  for (const [path, users] of [
    [`/tax-categories/${tax.id}`, [pasta.id]],
    [`/categories/${cat.id}`, [pasta.id]],
    [`/modifier-groups/${parent.id}`, [pasta.id]],
    [`/modifier-groups/${child.id}`, [parent.id]],
  ] as const) {
    const res = await t.manage('DELETE', path);
    expect({ path, status: res.status, code: res.body?.code, usedBy: res.body?.usedBy }).toEqual({ path, status: 409, code: 'catalog.in_use', usedBy: users });
  }
  expect((await t.manage('DELETE', `/products/${pasta.id}`)).status).toBe(204);
  for (const path of [`/modifier-groups/${parent.id}`, `/modifier-groups/${child.id}`, `/categories/${cat.id}`, `/tax-categories/${tax.id}`]) {
    expect({ path, status: (await t.manage('DELETE', path)).status }).toEqual({ path, status: 204 });
    expect((await t.manage('GET', path)).status).toBe(404);
  }
});
