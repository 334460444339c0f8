import { createAjv, loadTopicCatalog } from '@marketplace/events';
import { waitFor } from '@marketplace/testing';
import {
  catalogTenant,
  catalogTopic,
  created,
  startCatalogCluster,
  type CatalogCluster,
  type CatalogEvent,
  type CatalogTenant,
} from './support/cluster';

// Every acknowledged change publishes one event on the topic `catalog`, keyed by tenant, typed
// `catalog.<kind>.changed`, carrying the whole resource after the change (money in minor units),
// with a sequence that increases per tenant. Refused changes publish nothing.
let cluster: CatalogCluster;
let topic: Awaited<ReturnType<typeof catalogTopic>>;
let t: CatalogTenant;
const r: Record<string, any> = {};
/** What the tenant did, in order: the event type and resource id each successful change must publish. */
const expected: { type: string; id: () => string; deleted: boolean }[] = [];
let events: CatalogEvent[];
const validate = createAjv().compile(loadTopicCatalog().get('catalog').schema);

async function change(
  kind: string,
  deleted: boolean,
  method: string,
  path: string,
  body: unknown,
  id?: () => string,
): Promise<any> {
  const res = await t.manage(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  expected.push({ type: `catalog.${kind}.changed`, id: id ?? (() => res.body.id), deleted });
  return res.body;
}

beforeAll(async () => {
  cluster = await startCatalogCluster();
  topic = await catalogTopic('catalog-events-it');
  t = await catalogTenant(cluster);
  r.tax = await change('tax-category', false, 'POST', '/tax-categories', {
    name: 'Food',
    rate: 7,
    isInclusive: true,
    translations: { de: 'Speisen' },
  });
  await change('tax-category', false, 'PUT', `/tax-categories/${r.tax.id}`, {
    name: 'Food',
    rate: 7.7,
    isInclusive: false,
  });
  r.branch = await change('branch', false, 'POST', '/branches', {
    name: 'Mitte',
    externalLocationId: 'POS-1',
    address: { line1: 'Main St 1', city: 'Berlin', countryCode: 'DE' },
    coordinates: { latitude: 52.5, longitude: 13.4 },
  });
  r.category = await change('category', false, 'POST', '/categories', { name: 'Pizza', sortOrder: 2 });
  r.child = await change('modifier-group', false, 'POST', '/modifier-groups', {
    name: 'Cheese',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    options: [{ name: 'Mozzarella', price: 0, isDefault: true }],
  });
  r.group = await change('modifier-group', false, 'POST', '/modifier-groups', {
    name: 'Extras',
    minSelections: 0,
    maxSelections: 2,
    isRequired: false,
    options: [
      { name: 'Double', price: 1.25, childGroupIds: [r.child.id], translations: { de: 'Doppelt' } },
      { name: 'Olives', price: 0.99 },
    ],
  });
  r.pizza = await change('product', false, 'POST', '/products', {
    categoryId: r.category.id,
    name: 'Margherita',
    sku: 'PZ',
    taxCategoryId: r.tax.id,
    variants: [
      { name: 'S', price: 9.99, compareAtPrice: 12.5, isDefault: true, modifierGroupIds: [r.group.id] },
      { name: 'L', price: 14.1, isDefault: false },
    ],
  });
  // Refused changes: no event.
  expect(
    (
      await t.manage('POST', '/products', {
        categoryId: r.category.id,
        name: 'X',
        variants: [{ name: 'S', price: 1.001, isDefault: true }],
      })
    ).status,
  ).toBe(400);
  expect((await t.manage('DELETE', `/categories/${r.category.id}`)).status).toBe(409);
  expect(
    (
      await t.manage('PUT', `/modifier-groups/${r.child.id}`, {
        name: 'Cheese',
        minSelections: 0,
        maxSelections: 1,
        isRequired: false,
        options: [{ name: 'o', price: 0, childGroupIds: [r.group.id] }],
      })
    ).status,
  ).toBe(400);
  await change('product', false, 'PUT', `/products/${r.pizza.id}`, {
    categoryId: r.category.id,
    name: 'Margherita',
    sku: 'PZ',
    taxCategoryId: r.tax.id,
    variants: [{ id: r.pizza.variants[0].id, name: 'S', price: 10.5, isDefault: true, modifierGroupIds: [r.group.id] }],
  });
  await change(
    'availability',
    false,
    'PATCH',
    `/branches/${r.branch.id}/availability`,
    {
      products: { [r.pizza.id]: 1 },
      variants: { [r.pizza.variants[0].id]: 2 },
      modifierOptions: { [r.group.options[1].id]: 1 },
    },
    () => r.branch.id,
  );
  await change(
    'availability',
    false,
    'PATCH',
    `/branches/${r.branch.id}/availability`,
    { products: { [r.pizza.id]: 0 } },
    () => r.branch.id,
  );
  await change('product', true, 'DELETE', `/products/${r.pizza.id}`, undefined, () => r.pizza.id);
  await change('modifier-group', true, 'DELETE', `/modifier-groups/${r.group.id}`, undefined, () => r.group.id);
  await change('category', true, 'DELETE', `/categories/${r.category.id}`, undefined, () => r.category.id);
  await change('tax-category', true, 'DELETE', `/tax-categories/${r.tax.id}`, undefined, () => r.tax.id);
  await change('branch', true, 'DELETE', `/branches/${r.branch.id}`, undefined, () => r.branch.id);
  events = await waitFor(
    `the ${expected.length} catalog events of tenant ${t.tenantId} on the topic`,
    () => {
      const mine = topic.of(t.tenantId);
      return mine.length >= expected.length && mine;
    },
    30_000,
  );
}, 90_000);

afterAll(async () => {
  await topic?.stop();
  await cluster?.stop();
});

it('publishes exactly one event per acknowledged change, in order, keyed by tenant, and none for refused ones', () => {
  expect(events.map((e) => [e.type, e.data.id, e.data.deleted])).toEqual(
    expected.map((x) => [x.type, x.id(), x.deleted]),
  );
  expect(new Set(events.map((e) => e.key))).toEqual(new Set([t.tenantId]));
  expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
});

it('encodes each value in the schema-registry wire format and matches schemas/catalog.schema.json', () => {
  for (const [i, e] of events.entries()) {
    const valid = validate(e.data);
    expect({ i, type: e.type, magicByte: e.magicByte, valid, errors: validate.errors ?? null }).toEqual({
      i,
      type: e.type,
      magicByte: 0,
      valid: true,
      errors: null,
    });
    expect({
      i,
      tenantId: e.data.tenantId,
      currencyCode: e.data.currencyCode,
      entity: `catalog.${e.data.entity}.changed`,
      stateId: e.data.state.id,
    }).toEqual({
      i,
      tenantId: t.tenantId,
      currencyCode: 'EUR',
      entity: e.type,
      stateId: e.data.id,
    });
  }
});

it('numbers the changes with a sequence that strictly increases', () => {
  const sequences = events.map((e) => e.data.sequence);
  for (let i = 1; i < sequences.length; i++)
    expect({
      i,
      previous: sequences[i - 1],
      sequence: sequences[i],
      increases: sequences[i]! > sequences[i - 1]!,
    }).toMatchObject({ increases: true });
  expect(sequences[0]).toBeGreaterThanOrEqual(1);
});

it('carries the whole product in minor units', () => {
  const created_ = events.find((e) => e.type === 'catalog.product.changed')!;
  expect(created_.data).toEqual({
    tenantId: t.tenantId,
    currencyCode: 'EUR',
    sequence: expect.any(Number),
    entity: 'product',
    id: r.pizza.id,
    deleted: false,
    state: {
      id: r.pizza.id,
      categoryId: r.category.id,
      sortOrder: 0,
      sku: 'PZ',
      name: 'Margherita',
      imageUrl: null,
      taxCategoryId: r.tax.id,
      translations: {},
      variants: [
        {
          id: r.pizza.variants[0].id,
          sku: null,
          name: 'S',
          priceMinor: 999,
          compareAtPriceMinor: 1250,
          isDefault: true,
          modifierGroupIds: [r.group.id],
          translations: {},
        },
        {
          id: r.pizza.variants[1].id,
          sku: null,
          name: 'L',
          priceMinor: 1410,
          compareAtPriceMinor: null,
          isDefault: false,
          modifierGroupIds: [],
          translations: {},
        },
      ],
      createdAt: r.pizza.createdAt,
      updatedAt: r.pizza.updatedAt,
    },
  });
  const replaced = events.filter((e) => e.type === 'catalog.product.changed')[1]!;
  expect(replaced.data.state.variants).toEqual([
    {
      id: r.pizza.variants[0].id,
      sku: null,
      name: 'S',
      priceMinor: 1050,
      compareAtPriceMinor: null,
      isDefault: true,
      modifierGroupIds: [r.group.id],
      translations: {},
    },
  ]);
});

it('carries modifier groups with their options in minor units', () => {
  const group = events.find((e) => e.type === 'catalog.modifier-group.changed' && e.data.id === r.group.id)!;
  expect(group.data.state).toEqual({
    id: r.group.id,
    name: 'Extras',
    minSelections: 0,
    maxSelections: 2,
    isRequired: false,
    sortOrder: 0,
    translations: {},
    options: [
      {
        id: r.group.options[0].id,
        name: 'Double',
        priceMinor: 125,
        isDefault: false,
        childGroupIds: [r.child.id],
        translations: { de: 'Doppelt' },
      },
      {
        id: r.group.options[1].id,
        name: 'Olives',
        priceMinor: 99,
        isDefault: false,
        childGroupIds: [],
        translations: {},
      },
    ],
    createdAt: r.group.createdAt,
    updatedAt: r.group.updatedAt,
  });
});

it('carries tax categories, branches and categories whole', () => {
  const [taxCreated, taxChanged] = events.filter((e) => e.type === 'catalog.tax-category.changed');
  expect(taxCreated!.data.state).toEqual({
    id: r.tax.id,
    name: 'Food',
    rate: 7,
    isInclusive: true,
    translations: { de: 'Speisen' },
    createdAt: r.tax.createdAt,
    updatedAt: r.tax.updatedAt,
  });
  expect(taxChanged!.data.state).toMatchObject({ id: r.tax.id, rate: 7.7, isInclusive: false, translations: {} });
  expect(events.find((e) => e.type === 'catalog.branch.changed')!.data.state).toEqual({
    id: r.branch.id,
    name: 'Mitte',
    isActive: true,
    externalLocationId: 'POS-1',
    address: { line1: 'Main St 1', line2: null, city: 'Berlin', postalCode: null, countryCode: 'DE' },
    coordinates: { latitude: 52.5, longitude: 13.4 },
    translations: {},
    createdAt: r.branch.createdAt,
    updatedAt: r.branch.updatedAt,
  });
  expect(events.find((e) => e.type === 'catalog.category.changed')!.data.state).toEqual({
    id: r.category.id,
    name: 'Pizza',
    sortOrder: 2,
    translations: {},
    createdAt: r.category.createdAt,
    updatedAt: r.category.updatedAt,
  });
});

it('carries the whole availability of the branch after each change', () => {
  const [first, second] = events.filter((e) => e.type === 'catalog.availability.changed');
  expect(first!.data).toMatchObject({ entity: 'availability', id: r.branch.id, deleted: false });
  expect(first!.data.state).toEqual({
    id: r.branch.id,
    products: { [r.pizza.id]: 1 },
    variants: { [r.pizza.variants[0].id]: 2 },
    modifierOptions: { [r.group.options[1].id]: 1 },
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });
  // The second change cleared one entry; the event still carries the whole state.
  expect(second!.data.state).toMatchObject({
    products: {},
    variants: { [r.pizza.variants[0].id]: 2 },
    modifierOptions: { [r.group.options[1].id]: 1 },
  });
});

it('marks deletions with deleted: true and the last state', () => {
  const deletions = events.filter((e) => e.data.deleted);
  expect(deletions.map((e) => [e.data.entity, e.data.id])).toEqual([
    ['product', r.pizza.id],
    ['modifier-group', r.group.id],
    ['category', r.category.id],
    ['tax-category', r.tax.id],
    ['branch', r.branch.id],
  ]);
  expect(deletions[0]!.data.state).toMatchObject({
    id: r.pizza.id,
    name: 'Margherita',
    variants: [{ id: r.pizza.variants[0].id, priceMinor: 1050 }],
  });
  expect(deletions[3]!.data.state).toMatchObject({ id: r.tax.id, name: 'Food', rate: 7.7, isInclusive: false });
  expect(deletions[4]!.data.state).toMatchObject({ id: r.branch.id, name: 'Mitte', externalLocationId: 'POS-1' });
});

it('gives money in the minor units of the tenant’s currency', async () => {
  const yen = await catalogTenant(cluster, { currencyCode: 'JPY', defaultLanguage: 'ja' });
  const dinar = await catalogTenant(cluster, { currencyCode: 'KWD', defaultLanguage: 'ar' });
  const ramen = await created(yen, '/categories', { name: 'Ramen' });
  const shoyu = await created(yen, '/products', {
    categoryId: ramen.id,
    name: 'Shoyu',
    variants: [{ name: 'Bowl', price: 980, compareAtPrice: 1200, isDefault: true }],
  });
  const tea = await created(dinar, '/categories', { name: 'Tea' });
  const karak = await created(dinar, '/products', {
    categoryId: tea.id,
    name: 'Karak',
    variants: [{ name: 'Cup', price: 1.234, isDefault: true }],
  });
  const product = async (tenant: CatalogTenant, id: string) =>
    waitFor(
      `the product event of ${id}`,
      () => topic.of(tenant.tenantId).find((e) => e.type === 'catalog.product.changed' && e.data.id === id),
      20_000,
    );
  const yenEvent = await product(yen, shoyu.id);
  expect([
    yenEvent.data.currencyCode,
    yenEvent.data.state.variants[0].priceMinor,
    yenEvent.data.state.variants[0].compareAtPriceMinor,
  ]).toEqual(['JPY', 980, 1200]);
  const dinarEvent = await product(dinar, karak.id);
  expect([dinarEvent.data.currencyCode, dinarEvent.data.state.variants[0].priceMinor]).toEqual(['KWD', 1234]);
  expect(validate(dinarEvent.data)).toBe(true);
});
