import {
  catalogTenant,
  created,
  LOCATION,
  startCatalogCluster,
  type CatalogCluster,
  type CatalogTenant,
} from './support/cluster';

// Deleting what something still uses is 409 catalog.in_use naming the users; once nothing uses it,
// the delete is 204 and the resource is gone.
let cluster: CatalogCluster;
let t: CatalogTenant;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  t = await catalogTenant(cluster);
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

const groupBody = (name: string, children: string[] = []) => ({
  name,
  minSelections: 0,
  maxSelections: 1,
  isRequired: false,
  options: [{ name: 'o', price: 0, childGroupIds: children }],
});
const productBody = (categoryId: string, over: Record<string, unknown> = {}, groups: string[] = []) => ({
  categoryId,
  name: 'Pasta',
  variants: [{ name: 'S', price: 8, isDefault: true, modifierGroupIds: groups }],
  ...over,
});

/** Asserts 409 catalog.in_use with exactly these users (in any order). */
async function inUse(path: string, users: string[]): Promise<void> {
  const res = await t.manage('DELETE', path);
  expect({
    path,
    status: res.status,
    type: res.headers.get('content-type'),
    code: res.body?.code,
    usedBy: [...(res.body?.usedBy ?? [])].sort(),
  }).toEqual({
    path,
    status: 409,
    type: expect.stringMatching(/^application\/problem\+json/),
    code: 'catalog.in_use',
    usedBy: [...users].sort(),
  });
  expect((await t.manage('GET', path)).status).toBe(200); // still there
}

async function deleted(path: string): Promise<void> {
  const res = await t.manage('DELETE', path);
  expect({ path, status: res.status }).toEqual({ path, status: 204 });
  expect({ path, after: (await t.manage('GET', path)).status }).toEqual({ path, after: 404 });
}

it('refuses to delete a category its products use, until they moved', async () => {
  const pasta = await created(t, '/categories', { name: 'Pasta' });
  const mains = await created(t, '/categories', { name: 'Mains' });
  const a = await created(t, '/products', productBody(pasta.id));
  const b = await created(t, '/products', productBody(pasta.id, { name: 'Penne' }));
  await inUse(`/categories/${pasta.id}`, [a.id, b.id]);
  expect((await t.manage('PUT', `/products/${a.id}`, productBody(mains.id))).status).toBe(200);
  await inUse(`/categories/${pasta.id}`, [b.id]);
  expect((await t.manage('PUT', `/products/${b.id}`, productBody(mains.id, { name: 'Penne' }))).status).toBe(200);
  await deleted(`/categories/${pasta.id}`);
  await inUse(`/categories/${mains.id}`, [a.id, b.id]);
});

it('refuses to delete a tax category its products use, until none does', async () => {
  const cat = await created(t, '/categories', { name: 'Drinks' });
  const tax = await created(t, '/tax-categories', { name: 'Drinks', rate: 19, isInclusive: false });
  const cola = await created(t, '/products', productBody(cat.id, { name: 'Cola', taxCategoryId: tax.id }));
  await inUse(`/tax-categories/${tax.id}`, [cola.id]);
  expect(
    (await t.manage('PUT', `/products/${cola.id}`, productBody(cat.id, { name: 'Cola', taxCategoryId: null }))).status,
  ).toBe(200);
  await deleted(`/tax-categories/${tax.id}`);
});

it('refuses to delete a modifier group a variant offers, until the variant no longer does', async () => {
  const cat = await created(t, '/categories', { name: 'Pizza' });
  const crust = await created(t, '/modifier-groups', groupBody('Crust'));
  const pizza = await created(t, '/products', productBody(cat.id, { name: 'Pizza' }, [crust.id]));
  await inUse(`/modifier-groups/${crust.id}`, [pizza.id]);
  const kept = pizza.variants[0].id;
  const res = await t.manage('PUT', `/products/${pizza.id}`, {
    ...productBody(cat.id, { name: 'Pizza' }),
    variants: [{ id: kept, name: 'S', price: 8, isDefault: true, modifierGroupIds: [] }],
  });
  expect(res.status).toBe(200);
  await deleted(`/modifier-groups/${crust.id}`);
});

it('refuses to delete a modifier group nested under an option, until the option no longer nests it', async () => {
  const child = await created(t, '/modifier-groups', groupBody('Cheese type'));
  const parent = await created(t, '/modifier-groups', groupBody('Extra cheese', [child.id]));
  const other = await created(t, '/modifier-groups', groupBody('Sauce', [child.id]));
  await inUse(`/modifier-groups/${child.id}`, [parent.id, other.id]);
  expect(
    (
      await t.manage('PUT', `/modifier-groups/${parent.id}`, {
        ...groupBody('Extra cheese'),
        options: [{ id: parent.options[0].id, name: 'o', price: 0, childGroupIds: [] }],
      })
    ).status,
  ).toBe(200);
  await inUse(`/modifier-groups/${child.id}`, [other.id]);
  await deleted(`/modifier-groups/${other.id}`); // deleting the user removes the use too
  await deleted(`/modifier-groups/${child.id}`);
});

it('lists both kinds of users of a group: products and groups', async () => {
  const cat = await created(t, '/categories', { name: 'Burgers' });
  const sauce = await created(t, '/modifier-groups', groupBody('Sauce'));
  const sides = await created(t, '/modifier-groups', groupBody('Sides', [sauce.id]));
  const burger = await created(t, '/products', productBody(cat.id, { name: 'Burger' }, [sauce.id]));
  await inUse(`/modifier-groups/${sauce.id}`, [burger.id, sides.id]);
});

it('no longer counts a deleted product as a user', async () => {
  const cat = await created(t, '/categories', { name: 'Salads' });
  const tax = await created(t, '/tax-categories', { name: 'Food', rate: 7, isInclusive: true });
  const dressing = await created(t, '/modifier-groups', groupBody('Dressing'));
  const salad = await created(
    t,
    '/products',
    productBody(cat.id, { name: 'Salad', taxCategoryId: tax.id }, [dressing.id]),
  );
  await inUse(`/categories/${cat.id}`, [salad.id]);
  await deleted(`/products/${salad.id}`);
  await deleted(`/modifier-groups/${dressing.id}`);
  await deleted(`/categories/${cat.id}`);
  await deleted(`/tax-categories/${tax.id}`);
});

it('deletes what nothing uses at once, and a second delete is 404', async () => {
  for (const [path, body] of [
    ['/categories', { name: 'Unused' }],
    ['/tax-categories', { name: 'Unused', rate: 5, isInclusive: true }],
    ['/modifier-groups', groupBody('Unused')],
    ['/branches', { name: 'Unused', ...LOCATION }],
  ] as const) {
    const resource = await created(t, path, body);
    await deleted(`${path}/${resource.id}`);
    expect({ path, again: (await t.manage('DELETE', `${path}/${resource.id}`)).status }).toEqual({ path, again: 404 });
  }
});
