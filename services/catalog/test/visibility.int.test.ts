import {
  catalogTenant,
  created,
  LOCATION,
  startCatalogCluster,
  type CatalogCluster,
  type CatalogTenant,
} from './support/cluster';

// What a partner and a tenant may see: only their own tenant's live resources, and partners only
// active branches. Everything else is the same 404 `resource.not_found` as a missing id.
let cluster: CatalogCluster;
let mine: CatalogTenant;
let theirs: CatalogTenant;
const ids: Record<string, any> = {};
const MISSING = '00000000-0000-4000-8000-000000000000';
let notFoundBody: Record<string, unknown>;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  [mine, theirs] = await Promise.all([catalogTenant(cluster), catalogTenant(cluster)]);
  for (const [who, t] of [
    ['mine', mine],
    ['theirs', theirs],
  ] as const) {
    const branch = await created(t, '/branches', { name: `${who} branch`, ...LOCATION });
    const category = await created(t, '/categories', { name: 'Pizza' });
    const tax = await created(t, '/tax-categories', { name: 'Food', rate: 7, isInclusive: true });
    const group = await created(t, '/modifier-groups', {
      name: 'Crust',
      minSelections: 0,
      maxSelections: 1,
      isRequired: false,
      options: [{ name: 'Thin', price: 0 }],
    });
    const product = await created(t, '/products', {
      categoryId: category.id,
      name: 'Margherita',
      variants: [{ name: 'S', price: 7, isDefault: true }],
    });
    Object.assign(ids, {
      [`${who}Branch`]: branch.id,
      [`${who}Product`]: product.id,
      [`${who}Category`]: category.id,
      [`${who}Tax`]: tax.id,
      [`${who}Group`]: group.id,
    });
  }
  ids.closed = (await created(mine, '/branches', { name: 'closed', isActive: false })).id;
  ids.deactivated = (await created(mine, '/branches', { name: 'deactivated', ...LOCATION })).id;
  ids.deletedBranch = (await created(mine, '/branches', { name: 'gone', ...LOCATION })).id;
  ids.deletedProduct = (
    await created(mine, '/products', {
      categoryId: ids.mineCategory,
      name: 'Old',
      variants: [{ name: 'S', price: 1, isDefault: true }],
    })
  ).id;
  // Partner reads before the changes, so that a cached menu would show them.
  expect((await mine.read(`/branches/${ids.deactivated}/products`)).status).toBe(200);
  expect((await mine.read(`/branches/${ids.deletedBranch}/products/${ids.deletedProduct}`)).status).toBe(200);
  expect(
    (await mine.manage('PUT', `/branches/${ids.deactivated}`, { name: 'deactivated', isActive: false })).status,
  ).toBe(200);
  expect((await mine.manage('DELETE', `/branches/${ids.deletedBranch}`)).status).toBe(204);
  expect((await mine.manage('DELETE', `/products/${ids.deletedProduct}`)).status).toBe(204);
  notFoundBody = (await mine.read(`/branches/${MISSING}/products`)).body;
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

/** A 404 with exactly the body of any other 404 (but for `instance`, the request's own path). */
function expectNotFound(what: string, res: { status: number; body: any; headers: Headers }): void {
  const strip = (body: any) => {
    const { instance: _instance, ...rest } = body ?? {};
    return rest;
  };
  expect({ what, status: res.status, type: res.headers.get('content-type'), body: strip(res.body) }).toEqual({
    what,
    status: 404,
    type: expect.stringMatching(/^application\/problem\+json/),
    body: strip(notFoundBody),
  });
}

it('uses one 404 body: resource.not_found', () => {
  expect(notFoundBody).toMatchObject({ status: 404, code: 'resource.not_found', title: 'Not Found' });
});

it('lists only the active, live branches of the caller’s tenant to partners; the tenant sees inactive ones too', async () => {
  const partner = await mine.read('/branches');
  expect(partner.status).toBe(200);
  expect(partner.body).toEqual([{ id: ids.mineBranch, name: 'mine branch', isActive: true, externalLocationId: null }]);
  const tenantList = await mine.manage('GET', '/branches');
  expect(tenantList.body.map((b: any) => [b.name, b.isActive]).sort()).toEqual([
    ['closed', false],
    ['deactivated', false],
    ['mine branch', true],
  ]);
  expect((await mine.manage('GET', `/branches/${ids.closed}`)).body).toMatchObject({ id: ids.closed, isActive: false });
  expect((await theirs.read('/branches')).body.map((b: any) => b.name)).toEqual(['theirs branch']);
});

it.each([
  ['another tenant’s branch', () => `/branches/${ids.theirsBranch}/products`],
  ['a branch created inactive', () => `/branches/${ids.closed}/products`],
  ['a branch deactivated by PUT', () => `/branches/${ids.deactivated}/products`],
  ['a deleted branch', () => `/branches/${ids.deletedBranch}/products`],
  ['a nonexistent branch', () => `/branches/${MISSING}/products`],
  ['a branch id that is no uuid', () => '/branches/not-a-uuid/products'],
  ['another tenant’s product at their branch', () => `/branches/${ids.theirsBranch}/products/${ids.theirsProduct}`],
  ['another tenant’s product at my branch', () => `/branches/${ids.mineBranch}/products/${ids.theirsProduct}`],
  ['my product at another tenant’s branch', () => `/branches/${ids.theirsBranch}/products/${ids.mineProduct}`],
  ['a deleted product', () => `/branches/${ids.mineBranch}/products/${ids.deletedProduct}`],
  ['my product at an inactive branch', () => `/branches/${ids.closed}/products/${ids.mineProduct}`],
  ['my product at a deactivated branch', () => `/branches/${ids.deactivated}/products/${ids.mineProduct}`],
  ['my product at a deleted branch', () => `/branches/${ids.deletedBranch}/products/${ids.mineProduct}`],
  ['a nonexistent product', () => `/branches/${ids.mineBranch}/products/${MISSING}`],
  ['a product id that is no uuid', () => `/branches/${ids.mineBranch}/products/margherita`],
  ['a category id as a product id', () => `/branches/${ids.mineBranch}/products/${ids.mineCategory}`],
])('answers partners the same 404 for %s', async (what, path) => {
  expectNotFound(what, await mine.read(path()));
});

it('still answers my own live product at my active branch (the 404s are not a broken route)', async () => {
  expect((await mine.read(`/branches/${ids.mineBranch}/products/${ids.mineProduct}`)).status).toBe(200);
  expect(
    (await mine.read(`/branches/${ids.mineBranch.toUpperCase()}/products/${ids.mineProduct.toUpperCase()}`)).body.id,
  ).toBe(ids.mineProduct);
  const list = await mine.read(`/branches/${ids.mineBranch}/products`);
  expect(list.body.categories.flatMap((c: any) => c.products.map((p: any) => p.id))).toEqual([ids.mineProduct]); // the deleted product is gone
});

it.each(['Branch', 'Product', 'Category', 'Tax', 'Group'])(
  'gives a tenant 404 for another tenant’s %s: read, replace, delete',
  async (kind) => {
    const path = {
      Branch: 'branches',
      Product: 'products',
      Category: 'categories',
      Tax: 'tax-categories',
      Group: 'modifier-groups',
    }[kind]!;
    const theirId = ids[`theirs${kind}`]!;
    const body = {
      Branch: { name: 'taken' },
      Product: { categoryId: ids.mineCategory, name: 'taken', variants: [{ name: 'S', price: 1, isDefault: true }] },
      Category: { name: 'taken' },
      Tax: { name: 'taken', rate: 1, isInclusive: true },
      Group: {
        name: 'taken',
        minSelections: 0,
        maxSelections: 1,
        isRequired: false,
        options: [{ name: 'o', price: 0 }],
      },
    }[kind];
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', body],
      ['DELETE', undefined],
    ] as const) {
      expectNotFound(`${method} ${kind}`, await mine.manage(method, `/${path}/${theirId}`, payload));
    }
    // Untouched for its owner, and not in my lists.
    const theirs_ = await theirs.manage('GET', `/${path}/${theirId}`);
    expect(theirs_.status).toBe(200);
    expect(theirs_.body.name).not.toBe('taken');
    expect((await mine.manage('GET', `/${path}`)).body.map((r: any) => r.id)).not.toContain(theirId);
  },
);

it('gives a tenant 404 for another tenant’s branch availability', async () => {
  expectNotFound('GET availability', await mine.manage('GET', `/branches/${ids.theirsBranch}/availability`));
  expectNotFound(
    'PATCH availability',
    await mine.manage('PATCH', `/branches/${ids.theirsBranch}/availability`, { products: {} }),
  );
  expectNotFound(
    'PATCH availability with my product',
    await mine.manage('PATCH', `/branches/${ids.theirsBranch}/availability`, { products: { [ids.mineProduct]: 1 } }),
  );
  expect((await theirs.manage('GET', `/branches/${ids.theirsBranch}/availability`)).body.products).toEqual({});
});

it('gives a tenant 404 for nonexistent, malformed and deleted ids', async () => {
  for (const path of ['branches', 'products', 'categories', 'tax-categories', 'modifier-groups']) {
    expectNotFound(`GET ${path} missing`, await mine.manage('GET', `/${path}/${MISSING}`));
    expectNotFound(`GET ${path} malformed`, await mine.manage('GET', `/${path}/not-a-uuid`));
    expectNotFound(`DELETE ${path} missing`, await mine.manage('DELETE', `/${path}/${MISSING}`));
  }
  expectNotFound('GET deleted branch', await mine.manage('GET', `/branches/${ids.deletedBranch}`));
  expectNotFound('PUT deleted branch', await mine.manage('PUT', `/branches/${ids.deletedBranch}`, { name: 'back' }));
  expectNotFound(
    'availability of a deleted branch',
    await mine.manage('GET', `/branches/${ids.deletedBranch}/availability`),
  );
  expectNotFound('GET deleted product', await mine.manage('GET', `/products/${ids.deletedProduct}`));
  expect((await mine.manage('GET', '/branches')).body.map((b: any) => b.id)).not.toContain(ids.deletedBranch);
  expect((await mine.manage('GET', '/products')).body.map((p: any) => p.id)).not.toContain(ids.deletedProduct);
});

it('shows a branch again once reactivated, and hides it when deactivated', async () => {
  expect(
    (await mine.manage('PUT', `/branches/${ids.closed}`, { name: 'closed', isActive: true, ...LOCATION })).status,
  ).toBe(200);
  expect((await mine.read(`/branches/${ids.closed}/products`)).status).toBe(200);
  expect((await mine.read('/branches')).body.map((b: any) => b.id).sort()).toEqual([ids.mineBranch, ids.closed].sort());
  expect((await mine.manage('PUT', `/branches/${ids.closed}`, { name: 'closed', isActive: false })).status).toBe(200);
  expectNotFound('deactivated again', await mine.read(`/branches/${ids.closed}/products`));
  expect((await mine.read('/branches')).body.map((b: any) => b.id)).toEqual([ids.mineBranch]);
});
