import {
  catalogTenant,
  created,
  LOCATION,
  startCatalogCluster,
  type CatalogCluster,
  type CatalogTenant,
} from './support/cluster';

// Availability per branch, as partners see it (README, "Effective availability at the branch"):
// integers 0, 1, 2; a variant is the stricter of its own and its product's value; a product is
// raised to the least strict of its variants; startingPrice counts available variants only (all
// when none is); a kept variant or option id keeps its availability across a replacement.
let cluster: CatalogCluster;
let t: CatalogTenant;
let mitte: any;
let hafen: any;
let category: any;
let group: any;
let cola: any; // the last test adds a fourth variant

beforeAll(async () => {
  cluster = await startCatalogCluster();
  t = await catalogTenant(cluster);
  mitte = await created(t, '/branches', { name: 'Mitte', ...LOCATION });
  hafen = await created(t, '/branches', { name: 'Hafen', ...LOCATION });
  category = await created(t, '/categories', { name: 'Drinks' });
  group = await created(t, '/modifier-groups', {
    name: 'Ice',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    options: [
      { name: 'With ice', price: 0 },
      { name: 'Crushed', price: 0.2 },
    ],
  });
  cola = await created(t, '/products', {
    categoryId: category.id,
    name: 'Cola',
    variants: [
      { name: '0.33 l', price: 2.5, isDefault: true, modifierGroupIds: [group.id] },
      { name: '0.5 l', price: 3.2, isDefault: false },
      { name: '1 l', price: 4.9, isDefault: false },
    ],
  });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

const variantId = (i: number) => (): string => cola.variants[i].id;
const [small, medium, large] = [variantId(0), variantId(1), variantId(2)];
async function set(branch: any, patch: Record<string, unknown>) {
  const res = await t.manage('PATCH', `/branches/${branch.id}/availability`, patch);
  expect(res.status).toBe(200);
  return res.body;
}
async function colaAt(branch: any) {
  const res = await t.read(`/branches/${branch.id}/products`);
  const p = res.body.categories[0].products[0];
  return {
    availability: p.availability,
    startingPrice: p.startingPrice,
    variants: p.variants.map((v: any) => v.availability),
  };
}
const clear = () =>
  set(mitte, {
    products: { [cola.id]: 0 },
    variants: { [small()]: 0, [medium()]: 0, [large()]: 0 },
    modifierOptions: { [group.options[0].id]: 0, [group.options[1].id]: 0 },
  });

afterEach(async () => {
  await clear();
});

it('starts all available, as integers', async () => {
  expect(await colaAt(mitte)).toEqual({ availability: 0, startingPrice: 2.5, variants: [0, 0, 0] });
  const detail = await t.read(`/branches/${mitte.id}/products/${cola.id}`);
  expect(detail.body.variants[0].modifierGroups[0].options.map((o: any) => o.availability)).toEqual([0, 0]);
});

it('starts at the cheapest variant still available', async () => {
  await set(mitte, { variants: { [small()]: 1 } });
  expect(await colaAt(mitte)).toEqual({ availability: 0, startingPrice: 3.2, variants: [1, 0, 0] });
  await set(mitte, { variants: { [medium()]: 2 } });
  expect(await colaAt(mitte)).toEqual({ availability: 0, startingPrice: 4.9, variants: [1, 2, 0] });
});

it('reports a product whose variants are all sold out as sold out, starting at the cheapest of all', async () => {
  await set(mitte, { variants: { [small()]: 1, [medium()]: 1, [large()]: 1 } });
  expect(await colaAt(mitte)).toEqual({ availability: 1, startingPrice: 2.5, variants: [1, 1, 1] });
  await set(mitte, { variants: { [small()]: 2 } });
  expect(await colaAt(mitte)).toEqual({ availability: 1, startingPrice: 2.5, variants: [2, 1, 1] }); // the least strict of its variants
  await set(mitte, { variants: { [medium()]: 2, [large()]: 2 } });
  expect(await colaAt(mitte)).toEqual({ availability: 2, startingPrice: 2.5, variants: [2, 2, 2] });
});

it('gives each variant the stricter of its own and its product’s value', async () => {
  await set(mitte, { products: { [cola.id]: 1 }, variants: { [medium()]: 2 } });
  expect(await colaAt(mitte)).toEqual({ availability: 1, startingPrice: 2.5, variants: [1, 2, 1] });
  await set(mitte, { products: { [cola.id]: 2 } });
  expect(await colaAt(mitte)).toEqual({ availability: 2, startingPrice: 2.5, variants: [2, 2, 2] });
  const detail = await t.read(`/branches/${mitte.id}/products/${cola.id}`);
  expect([detail.body.availability, detail.body.variants.map((v: any) => v.availability)]).toEqual([2, [2, 2, 2]]);
});

it('keeps options to their own value, whatever the product’s', async () => {
  await set(mitte, { products: { [cola.id]: 1 }, modifierOptions: { [group.options[1].id]: 2 } });
  const detail = await t.read(`/branches/${mitte.id}/products/${cola.id}`);
  expect(detail.body.variants[0].modifierGroups[0].options.map((o: any) => o.availability)).toEqual([0, 2]);
});

it('applies a branch’s availability to that branch only', async () => {
  await set(mitte, { products: { [cola.id]: 2 }, modifierOptions: { [group.options[0].id]: 1 } });
  expect(await colaAt(hafen)).toEqual({ availability: 0, startingPrice: 2.5, variants: [0, 0, 0] });
  const detail = await t.read(`/branches/${hafen.id}/products/${cola.id}`);
  expect(detail.body.variants[0].modifierGroups[0].options[0].availability).toBe(0);
  expect((await t.manage('GET', `/branches/${hafen.id}/availability`)).body).toEqual({
    branchId: hafen.id,
    products: {},
    variants: {},
    modifierOptions: {},
  });
});

it('keeps the availability of a kept variant and option across a replacement; new ones are available', async () => {
  await set(mitte, { variants: { [small()]: 1 }, modifierOptions: { [group.options[0].id]: 2 } });
  const replaced = await t.manage('PUT', `/products/${cola.id}`, {
    categoryId: category.id,
    name: 'Cola',
    variants: [
      { id: small(), name: '0.33 l', price: 2.6, isDefault: true, modifierGroupIds: [group.id] },
      { id: medium(), name: '0.5 l', price: 3.2, isDefault: false },
      { id: large(), name: '1 l', price: 4.9, isDefault: false },
      { name: '1.5 l', price: 5.9, isDefault: false },
    ],
  });
  expect(replaced.status).toBe(200);
  const regrouped = await t.manage('PUT', `/modifier-groups/${group.id}`, {
    name: 'Ice',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    options: [
      { id: group.options[0].id, name: 'With ice', price: 0 },
      { id: group.options[1].id, name: 'Crushed', price: 0.2 },
      { name: 'Cubes', price: 0.1 },
    ],
  });
  expect(regrouped.status).toBe(200);
  expect(await colaAt(mitte)).toEqual({ availability: 0, startingPrice: 3.2, variants: [1, 0, 0, 0] });
  const detail = await t.read(`/branches/${mitte.id}/products/${cola.id}`);
  expect(detail.body.variants[0].modifierGroups[0].options.map((o: any) => [o.name, o.availability])).toEqual([
    ['With ice', 2],
    ['Crushed', 0],
    ['Cubes', 0],
  ]);
});
