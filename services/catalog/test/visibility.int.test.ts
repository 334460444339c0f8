import { catalogTenant, created, startCatalogCluster, type CatalogCluster, type CatalogTenant } from './support/cluster';

// What a partner and a tenant may see: only their own tenant's live resources, and partners only
// active branches. Everything else is the same 404 as a missing id.
let cluster: CatalogCluster;
let mine: CatalogTenant;
let theirs: CatalogTenant;
const ids: Record<string, string> = {};

beforeAll(async () => {
  cluster = await startCatalogCluster();
  [mine, theirs] = await Promise.all([catalogTenant(cluster), catalogTenant(cluster)]);
  for (const [who, t] of [['mine', mine], ['theirs', theirs]] as const) {
    const branch = await created(t, '/branches', { name: `${who} branch` });
    const category = await created(t, '/categories', { name: 'Pizza' });
    const product = await created(t, '/products', { categoryId: category.id, name: 'Margherita', variants: [{ name: 'S', price: 7, isDefault: true }] });
    Object.assign(ids, { [`${who}Branch`]: branch.id, [`${who}Product`]: product.id, [`${who}Category`]: category.id });
  }
  ids.closed = (await created(mine, '/branches', { name: 'closed', isActive: false })).id;
  ids.deletedBranch = (await created(mine, '/branches', { name: 'gone' })).id;
  expect((await mine.manage('DELETE', `/branches/${ids.deletedBranch}`)).status).toBe(204);
  ids.deletedProduct = (await created(mine, '/products', { categoryId: ids.mineCategory, name: 'Old', variants: [{ name: 'S', price: 1, isDefault: true }] })).id;
  expect((await mine.manage('DELETE', `/products/${ids.deletedProduct}`)).status).toBe(204);
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

it('lists only the active, live branches of the caller’s tenant', async () => {
  const res = await mine.read('/branches');
  expect(res.body.map((b: any) => b.id)).toEqual([ids.mineBranch]);
  const tenantList = await mine.manage('GET', '/branches');
  expect(tenantList.body.map((b: any) => b.name).sort()).toEqual(['closed', 'mine branch']);
});

it('answers the same 404 for another tenant’s, inactive, deleted, nonexistent and malformed ids', async () => {
  const missing = '00000000-0000-4000-8000-000000000000';
  const paths = [
    `/branches/${ids.theirsBranch}/products`,
    `/branches/${ids.closed}/products`,
    `/branches/${ids.deletedBranch}/products`,
    `/branches/${missing}/products`,
    '/branches/not-a-uuid/products',
    `/branches/${ids.theirsBranch}/products/${ids.theirsProduct}`,
    `/branches/${ids.mineBranch}/products/${ids.theirsProduct}`,
    `/branches/${ids.mineBranch}/products/${ids.deletedProduct}`,
    `/branches/${ids.closed}/products/${ids.mineProduct}`,
    `/branches/${ids.mineBranch}/products/${missing}`,
  ];
  const bodies = new Set<string>();
  for (const path of paths) {
    const res = await mine.read(path);
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
    const { instance: _instance, ...rest } = res.body;
    bodies.add(JSON.stringify(rest));
  }
  expect(bodies.size).toBe(1);
  expect(JSON.parse([...bodies][0]!)).toMatchObject({ status: 404, code: 'resource.not_found' });
  expect((await mine.read(`/branches/${ids.mineBranch}/products/${ids.mineProduct}`)).status).toBe(200);
});

it('gives a tenant 404 for another tenant’s resources, for reading, replacing and deleting', async () => {
  for (const [method, path, body] of [
    ['GET', `/branches/${ids.theirsBranch}`, undefined],
    ['PUT', `/branches/${ids.theirsBranch}`, { name: 'taken' }],
    ['DELETE', `/branches/${ids.theirsBranch}`, undefined],
    ['GET', `/products/${ids.theirsProduct}`, undefined],
    ['DELETE', `/products/${ids.theirsProduct}`, undefined],
    ['GET', `/branches/${ids.theirsBranch}/availability`, undefined],
    ['PATCH', `/branches/${ids.theirsBranch}/availability`, { products: {} }],
  ] as const) {
    const res = await mine.manage(method, path, body);
    expect({ method, path, status: res.status, code: res.body?.code }).toEqual({ method, path, status: 404, code: 'resource.not_found' });
  }
  // A product may not point at another tenant's category either.
  const res = await mine.manage('POST', '/products', { categoryId: ids.theirsCategory, name: 'X', variants: [{ name: 'S', price: 1, isDefault: true }] });
  expect(res.status).toBe(400);
  expect((await theirs.read('/branches')).body.map((b: any) => b.name)).toEqual(['theirs branch']);
});

it('shows a branch again once reactivated, and hides it when deactivated', async () => {
  expect((await mine.manage('PUT', `/branches/${ids.closed}`, { name: 'closed', isActive: true })).status).toBe(200);
  expect((await mine.read(`/branches/${ids.closed}/products`)).status).toBe(200);
  expect((await mine.manage('PUT', `/branches/${ids.closed}`, { name: 'closed', isActive: false })).status).toBe(200);
  expect((await mine.read(`/branches/${ids.closed}/products`)).status).toBe(404);
});
