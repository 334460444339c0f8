import {
  catalogTenant,
  created,
  LOCATION,
  rawTenantCall,
  startCatalogCluster,
  tenantToken,
  type CatalogCluster,
  type CatalogTenant,
} from './support/cluster';

// The tenant API's validation, through the gateway: every refusal is a 400 problem+json
// `request.invalid` whose `errors` name exactly the offending fields, and changes nothing.
let cluster: CatalogCluster;
let t: CatalogTenant;
let other: CatalogTenant;
let category: any;
let tax: any;
let group: any;
let pizza: any;
let branch: any;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  cluster = await startCatalogCluster();
  [t, other] = await Promise.all([catalogTenant(cluster), catalogTenant(cluster)]);
  category = await created(t, '/categories', { name: 'Pizza' });
  tax = await created(t, '/tax-categories', { name: 'Food', rate: 7, isInclusive: true });
  group = await created(t, '/modifier-groups', {
    name: 'Crust',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    options: [{ name: 'Thin', price: 0, isDefault: true }],
  });
  pizza = await created(t, '/products', {
    categoryId: category.id,
    name: 'Margherita',
    variants: [
      { name: 'S', price: 7.5, isDefault: true },
      { name: 'L', price: 11, isDefault: false },
    ],
  });
  branch = await created(t, '/branches', { name: 'Mitte', ...LOCATION });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Asserts a 400 request.invalid problem and gives its `errors`. */
async function refused(
  method: string,
  path: string,
  body: unknown,
  as: CatalogTenant = t,
): Promise<Record<string, string[]>> {
  const res = await as.manage(method, path, body);
  expect({
    status: res.status,
    type: res.headers.get('content-type'),
    code: res.body?.code,
    bodyStatus: res.body?.status,
  }).toEqual({
    status: 400,
    type: expect.stringMatching(/^application\/problem\+json/),
    code: 'request.invalid',
    bodyStatus: 400,
  });
  expect(typeof res.body.errors).toBe('object');
  for (const [field, messages] of Object.entries(res.body.errors as Record<string, string[]>)) {
    expect({
      field,
      messages:
        Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string' && m.length > 0),
    }).toEqual({ field, messages: true });
  }
  return res.body.errors;
}
/** The sorted field paths a refusal names. */
const fields = async (method: string, path: string, body: unknown, as: CatalogTenant = t) =>
  Object.keys(await refused(method, path, body, as)).sort();

const variant = (over: Record<string, unknown> = {}) => ({ name: 'Small', price: 7.5, isDefault: true, ...over });
const product = (over: Record<string, unknown> = {}) => ({
  categoryId: category.id,
  name: 'Margherita',
  variants: [variant()],
  ...over,
});
const groupBody = (over: Record<string, unknown> = {}) => ({
  name: 'Toppings',
  minSelections: 0,
  maxSelections: 1,
  isRequired: false,
  options: [{ name: 'Olives', price: 1 }],
  ...over,
});
const options = (n: number, over: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ name: `O${i}`, price: 0, ...over }));

describe('modifier groups', () => {
  it.each([
    ['minSelections above maxSelections', { minSelections: 2, maxSelections: 1, isRequired: true }, ['minSelections']],
    ['maxSelections above the number of options', { maxSelections: 2 }, ['maxSelections']],
    ['isRequired false with minSelections 1', { minSelections: 1, isRequired: false }, ['isRequired']],
    ['isRequired true with minSelections 0', { minSelections: 0, isRequired: true }, ['isRequired']],
    [
      'more default options than maxSelections',
      { maxSelections: 1, options: options(2, { isDefault: true }) },
      ['options'],
    ],
    ['maxSelections 0', { maxSelections: 0 }, ['maxSelections']],
    ['a negative minSelections', { minSelections: -1 }, ['minSelections']],
    ['no options', { options: [] }, ['options']],
    ['101 options', { options: options(101) }, ['options']],
    ['a negative option price', { options: [{ name: 'A', price: -0.5 }] }, ['options[0].price']],
    [
      'three decimals in an option price',
      {
        options: [
          { name: 'A', price: 0 },
          { name: 'B', price: 0.125 },
        ],
      },
      ['options[1].price'],
    ],
    [
      'the same child group twice in an option',
      { options: [{ name: 'A', price: 0, childGroupIds: [MISSING, MISSING] }] },
      ['options[0].childGroupIds'],
    ],
    ['an unknown field on an option', { options: [{ name: 'A', price: 0, colour: 'red' }] }, ['options[0].colour']],
    ['an option without a name', { options: [{ price: 0 }] }, ['options[0].name']],
  ])('refuses %s', async (_what, over, expected) => {
    expect(await fields('POST', '/modifier-groups', groupBody(over))).toEqual(expected);
  });

  it('accepts the limits: min = max = number of options, all of them default', async () => {
    const res = await t.manage(
      'POST',
      '/modifier-groups',
      groupBody({ minSelections: 3, maxSelections: 3, isRequired: true, options: options(3, { isDefault: true }) }),
    );
    expect(res.status).toBe(201);
    expect(res.body.options.map((o: any) => o.isDefault)).toEqual([true, true, true]);
  });

  it('keeps option ids across a replacement and refuses ids the group does not have', async () => {
    const g = await created(t, '/modifier-groups', groupBody({ maxSelections: 2, options: options(2) }));
    const replaced = await t.manage(
      'PUT',
      `/modifier-groups/${g.id}`,
      groupBody({
        maxSelections: 2,
        options: [
          { id: g.options[1].id.toUpperCase(), name: 'kept', price: 0 },
          { name: 'new', price: 0 },
        ],
      }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.options[0].id).toBe(g.options[1].id);
    expect([g.options[0].id, g.options[1].id]).not.toContain(replaced.body.options[1].id);
    expect(
      await fields(
        'PUT',
        `/modifier-groups/${g.id}`,
        groupBody({ options: [{ id: g.options[0].id, name: 'gone', price: 0 }] }),
      ),
    ).toEqual(['options[0].id']); // dropped by the last PUT
    expect(
      await fields(
        'PUT',
        `/modifier-groups/${g.id}`,
        groupBody({ options: [{ id: group.options[0].id, name: 'theirs', price: 0 }] }),
      ),
    ).toEqual(['options[0].id']);
    const kept = g.options[1].id;
    expect(
      await fields(
        'PUT',
        `/modifier-groups/${g.id}`,
        groupBody({
          maxSelections: 2,
          options: [
            { id: kept, name: 'a', price: 0 },
            { id: kept, name: 'b', price: 0 },
          ],
        }),
      ),
    ).toEqual(['options[1].id']);
  });
});

describe('products', () => {
  it.each([
    ['no default variant', { variants: [variant({ isDefault: false })] }, ['variants']],
    ['two default variants', { variants: [variant(), variant({ name: 'Large' })] }, ['variants']],
    ['no variants', { variants: [] }, ['variants']],
    [
      '101 variants',
      { variants: Array.from({ length: 101 }, (_, i) => variant({ name: `V${i}`, isDefault: i === 0 })) },
      ['variants'],
    ],
    [
      'three decimals in EUR',
      { variants: [variant(), variant({ name: 'L', price: 9.999, isDefault: false })] },
      ['variants[1].price'],
    ],
    ['0.1 + 0.2', { variants: [variant({ price: 0.1 + 0.2 })] }, ['variants[0].price']],
    [
      'a compare-at price with three decimals',
      { variants: [variant({ compareAtPrice: 8.001 })] },
      ['variants[0].compareAtPrice'],
    ],
    ['a negative price', { variants: [variant({ price: -1 })] }, ['variants[0].price']],
    ['a negative compare-at price', { variants: [variant({ compareAtPrice: -1 })] }, ['variants[0].compareAtPrice']],
    ['a price above 1,000,000', { variants: [variant({ price: 1_000_000.01 })] }, ['variants[0].price']],
    ['a price given as a string', { variants: [variant({ price: '7.50' })] }, ['variants[0].price']],
    ['an http image', { imageUrl: 'http://img.example.com/a.jpg' }, ['imageUrl']],
    ['a relative image', { imageUrl: '/img/a.jpg' }, ['imageUrl']],
    ['an image URL over 2,048 characters', { imageUrl: `https://img.example.com/${'a'.repeat(2030)}` }, ['imageUrl']],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, ['name']],
    ['an empty name', { name: '' }, ['name']],
    ['a sku of 65 characters', { sku: 'x'.repeat(65) }, ['sku']],
    ['an empty variant sku', { variants: [variant({ sku: '' })] }, ['variants[0].sku']],
    ['a variant name of 201 characters', { variants: [variant({ name: 'x'.repeat(201) })] }, ['variants[0].name']],
    [
      'the same group twice on a variant',
      { variants: [variant({ modifierGroupIds: [MISSING, MISSING] })] },
      ['variants[0].modifierGroupIds'],
    ],
    ['a category id that is no uuid', { categoryId: 'pizza' }, ['categoryId']],
    ['an unknown field', { price: 7.5 }, ['price']],
    ['an unknown field on a variant', { variants: [variant({ stock: 3 })] }, ['variants[0].stock']],
    ['a missing name', { name: undefined }, ['name']],
  ])('refuses %s', async (_what, over, expected) => {
    expect(await fields('POST', '/products', product(over))).toEqual(expected);
  });

  it('names every offending field at once', async () => {
    expect(
      await fields(
        'POST',
        '/products',
        product({
          translations: { en: 'x' },
          variants: [variant({ price: 1.001 }), variant({ name: 'L', price: 2.005, translations: { xx: 'L' } })],
        }),
      ),
    ).toEqual(['translations.en', 'variants', 'variants[0].price', 'variants[1].price', 'variants[1].translations.xx']);
    // A body the schema refuses is answered with the schema's findings alone: the rules need its shape.
    expect(
      await fields(
        'POST',
        '/products',
        product({ imageUrl: 'http://x.example.com/a.jpg', variants: [variant({ price: 1.001 })] }),
      ),
    ).toEqual(['imageUrl']);
  });

  it('accepts the limits (a price of 1,000,000 and of 0, a 64-character sku, a 2,048-character https image) and stores money exactly', async () => {
    const res = await t.manage(
      'POST',
      '/products',
      product({
        imageUrl: `https://img.example.com/${'a'.repeat(2024)}`,
        sku: 'x'.repeat(64),
        taxCategoryId: tax.id.toUpperCase(),
        variants: [
          variant({ price: 1_000_000, compareAtPrice: 0 }),
          variant({ name: 'L', price: 9.99, isDefault: false }),
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.imageUrl).toHaveLength(2048);
    expect(res.body.taxCategoryId).toBe(tax.id);
    expect(res.body.variants.map((v: any) => [v.price, v.compareAtPrice])).toEqual([
      [1_000_000, 0],
      [9.99, null],
    ]);
  });

  it('keeps variant ids across a replacement and refuses ids the product never had, or twice', async () => {
    const replaced = await t.manage(
      'PUT',
      `/products/${pizza.id}`,
      product({
        variants: [
          { ...variant({ price: 8 }), id: pizza.variants[0].id },
          variant({ name: 'XL', price: 14, isDefault: false }),
        ],
      }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.variants[0].id).toBe(pizza.variants[0].id);
    expect([pizza.variants[0].id, pizza.variants[1].id]).not.toContain(replaced.body.variants[1].id);
    expect(
      await fields('PUT', `/products/${pizza.id}`, product({ variants: [{ ...variant(), id: pizza.variants[1].id }] })),
    ).toEqual(['variants[0].id']); // dropped by the last PUT
    expect(
      await fields('PUT', `/products/${pizza.id}`, product({ variants: [{ ...variant(), id: group.options[0].id }] })),
    ).toEqual(['variants[0].id']);
    const id = pizza.variants[0].id;
    expect(
      await fields(
        'PUT',
        `/products/${pizza.id}`,
        product({
          variants: [
            { ...variant(), id },
            { ...variant({ name: 'L', isDefault: false }), id },
          ],
        }),
      ),
    ).toEqual(['variants[1].id']);
    expect(await fields('POST', '/products', product({ variants: [{ ...variant(), id }] }))).toEqual([
      'variants[0].id',
    ]);
  });

  it('changes nothing when it refuses a replacement', async () => {
    const before = (await t.manage('GET', `/products/${pizza.id}`)).body;
    await refused('PUT', `/products/${pizza.id}`, product({ name: 'Changed', variants: [variant({ price: 1.001 })] }));
    await refused('PUT', `/products/${pizza.id}`, product({ name: 'Changed', categoryId: MISSING }));
    expect((await t.manage('GET', `/products/${pizza.id}`)).body).toEqual(before);
  });
});

describe('currencies', () => {
  it('refuses 1.5 in a JPY catalog and accepts whole yen', async () => {
    const yen = await catalogTenant(cluster, { currencyCode: 'JPY', defaultLanguage: 'ja' });
    const ramen = await created(yen, '/categories', { name: 'Ramen' });
    expect(
      await fields(
        'POST',
        '/products',
        { categoryId: ramen.id, name: 'Shoyu', variants: [variant({ price: 1.5 })] },
        yen,
      ),
    ).toEqual(['variants[0].price']);
    expect(
      await fields('POST', '/modifier-groups', groupBody({ options: [{ name: 'Egg', price: 100.5 }] }), yen),
    ).toEqual(['options[0].price']);
    const ok = await yen.manage('POST', '/products', {
      categoryId: ramen.id,
      name: 'Shoyu',
      variants: [variant({ price: 980, compareAtPrice: 1200 })],
    });
    expect(ok.status).toBe(201);
    expect([ok.body.variants[0].price, ok.body.variants[0].compareAtPrice]).toEqual([980, 1200]);
  });

  it('allows three decimals in a KWD catalog and refuses four', async () => {
    const dinar = await catalogTenant(cluster, { currencyCode: 'KWD', defaultLanguage: 'ar' });
    const tea = await created(dinar, '/categories', { name: 'Tea' });
    expect(
      await fields(
        'POST',
        '/products',
        { categoryId: tea.id, name: 'Karak', variants: [variant({ price: 1.2345 })] },
        dinar,
      ),
    ).toEqual(['variants[0].price']);
    const ok = await dinar.manage('POST', '/products', {
      categoryId: tea.id,
      name: 'Karak',
      variants: [variant({ price: 1.234 })],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.variants[0].price).toBe(1.234);
  });
});

describe('references', () => {
  it('refuses ids the catalog does not have, naming the field', async () => {
    expect(await fields('POST', '/products', product({ categoryId: MISSING }))).toEqual(['categoryId']);
    expect(await fields('POST', '/products', product({ taxCategoryId: MISSING }))).toEqual(['taxCategoryId']);
    expect(
      await fields('POST', '/products', product({ variants: [variant({ modifierGroupIds: [group.id, MISSING] })] })),
    ).toEqual(['variants[0].modifierGroupIds[1]']);
    expect(
      await fields(
        'POST',
        '/modifier-groups',
        groupBody({ options: [{ name: 'A', price: 0, childGroupIds: [MISSING] }] }),
      ),
    ).toEqual(['options[0].childGroupIds[0]']);
    expect(
      await fields(
        'POST',
        '/modifier-groups',
        groupBody({
          maxSelections: 2,
          options: [
            { name: 'A', price: 0, childGroupIds: [group.id] },
            { name: 'B', price: 0, childGroupIds: [group.id, MISSING] },
          ],
        }),
      ),
    ).toEqual(['options[1].childGroupIds[1]']);
  });

  it('refuses another tenant’s category, tax category and groups as unknown', async () => {
    const theirCategory = await created(other, '/categories', { name: 'Theirs' });
    const theirTax = await created(other, '/tax-categories', { name: 'Theirs', rate: 10, isInclusive: false });
    const theirGroup = await created(other, '/modifier-groups', groupBody());
    expect(await fields('POST', '/products', product({ categoryId: theirCategory.id }))).toEqual(['categoryId']);
    expect(await fields('POST', '/products', product({ taxCategoryId: theirTax.id }))).toEqual(['taxCategoryId']);
    expect(
      await fields('POST', '/products', product({ variants: [variant({ modifierGroupIds: [theirGroup.id] })] })),
    ).toEqual(['variants[0].modifierGroupIds[0]']);
    expect(
      await fields(
        'POST',
        '/modifier-groups',
        groupBody({ options: [{ name: 'A', price: 0, childGroupIds: [theirGroup.id] }] }),
      ),
    ).toEqual(['options[0].childGroupIds[0]']);
  });

  it('refuses a deleted category and a deleted group', async () => {
    const gone = await created(t, '/categories', { name: 'Gone' });
    const goneGroup = await created(t, '/modifier-groups', groupBody({ name: 'Gone' }));
    expect((await t.manage('DELETE', `/categories/${gone.id}`)).status).toBe(204);
    expect((await t.manage('DELETE', `/modifier-groups/${goneGroup.id}`)).status).toBe(204);
    expect(await fields('POST', '/products', product({ categoryId: gone.id }))).toEqual(['categoryId']);
    expect(
      await fields('POST', '/products', product({ variants: [variant({ modifierGroupIds: [goneGroup.id] })] })),
    ).toEqual(['variants[0].modifierGroupIds[0]']);
  });
});

describe('nesting', () => {
  const nest = (name: string, children: string[]) =>
    groupBody({ name, options: [{ name: 'o', price: 0, childGroupIds: children }] });

  it('refuses a cycle made by replacing an existing group, through two and through three groups', async () => {
    const a = await created(t, '/modifier-groups', nest('A', []));
    const b = await created(t, '/modifier-groups', nest('B', [a.id]));
    const c = await created(t, '/modifier-groups', nest('C', [b.id]));
    const twoErrors = await refused('PUT', `/modifier-groups/${a.id}`, nest('A', [b.id]));
    expect(Object.keys(twoErrors)).toEqual(['options']);
    expect(twoErrors.options![0]).toMatch(/cycle/);
    expect(Object.keys(await refused('PUT', `/modifier-groups/${a.id}`, nest('A', [c.id])))).toEqual(['options']);
    expect((await refused('PUT', `/modifier-groups/${a.id}`, nest('A', [a.id]))).options![0]).toMatch(/cycle/);
    // Nothing was stored: a still has no children, and the partner detail of a product using c ends.
    expect((await t.manage('GET', `/modifier-groups/${a.id}`)).body.options[0].childGroupIds).toEqual([]);
    const p = await created(t, '/products', product({ variants: [variant({ modifierGroupIds: [c.id] })] }));
    const detail = await t.read(`/branches/${branch.id}/products/${p.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.variants[0].modifierGroups[0].options[0].childGroups[0].options[0].childGroups[0]).toMatchObject(
      { id: a.id, options: [{ childGroups: [] }] },
    );
  });

  it('allows 10 levels and refuses 11, counted from the top or the bottom', async () => {
    const chain: any[] = [await created(t, '/modifier-groups', nest('L10', []))];
    for (let level = 9; level >= 1; level--)
      chain.unshift(await created(t, '/modifier-groups', nest(`L${level}`, [chain[0].id])));
    // chain[0] (L1) → … → chain[9] (L10): 10 levels.
    const top = await refused('POST', '/modifier-groups', nest('L0', [chain[0].id]));
    expect(Object.keys(top)).toEqual(['options']);
    expect(top.options![0]).toMatch(/more than 10 levels/);
    const leaf = await created(t, '/modifier-groups', nest('leaf', []));
    expect((await refused('PUT', `/modifier-groups/${chain[9].id}`, nest('L10', [leaf.id]))).options![0]).toMatch(
      /more than 10 levels/,
    );
    // A diamond at the top does not add levels.
    expect(
      (
        await t.manage(
          'POST',
          '/modifier-groups',
          groupBody({
            name: 'side',
            maxSelections: 1,
            options: [{ name: 'x', price: 0, childGroupIds: [chain[1].id, chain[2].id] }],
          }),
        )
      ).status,
    ).toBe(201);
  });

  it('checks a change of a group shared through many paths quickly', async () => {
    // 9 levels of 8 groups, each nesting all 8 groups of the level below (built bottom-up, which is
    // cheap): 72 groups, 9 levels, but 8^8 paths lead up from a bottom group. Renaming a bottom
    // group must not take the service longer than any other change.
    const shared = await catalogTenant(cluster);
    let below: string[] = [];
    for (let level = 9; level >= 1; level--) {
      const row: string[] = [];
      for (let i = 0; i < 8; i++)
        row.push((await created(shared, '/modifier-groups', nest(`L${level}-${i}`, below))).id);
      below = row;
    }
    const bottom = (await shared.manage('GET', '/modifier-groups')).body.find((g: any) => g.name === 'L9-0');
    const started = Date.now();
    const renamed = await shared.manage('PUT', `/modifier-groups/${bottom.id}`, nest('L9-0 renamed', []));
    const took = Date.now() - started;
    expect(renamed.status).toBe(200);
    expect(took).toBeLessThan(1_500);
  }, 60_000);
});

describe('languages', () => {
  it('refuses an unknown language, naming the tag at its path', async () => {
    expect(await fields('POST', '/categories', { name: 'Salads', translations: { xx: 'Salate' } })).toEqual([
      'translations.xx',
    ]);
    expect(
      await fields('POST', '/products', product({ variants: [variant({ translations: { xx: 'Klein' } })] })),
    ).toEqual(['variants[0].translations.xx']);
    expect(
      await fields(
        'POST',
        '/modifier-groups',
        groupBody({ options: [{ name: 'A', price: 0, translations: { 'zz-AT': 'A' } }] }),
      ),
    ).toEqual(['options[0].translations.zz-AT']);
    expect(
      await fields('POST', '/tax-categories', { name: 'VAT', rate: 19, isInclusive: true, translations: { und: 'x' } }),
    ).toEqual(['translations.und']);
    expect(await fields('POST', '/branches', { name: 'Mitte', translations: { de_AT: 'x' } })).toEqual([
      'translations.de_AT',
    ]);
  });

  it('refuses the default language and a language given twice', async () => {
    expect(await fields('POST', '/categories', { name: 'Salads', translations: { EN: 'Salads' } })).toEqual([
      'translations.EN',
    ]);
    const twice = await refused('POST', '/categories', {
      name: 'Salads',
      translations: { de: 'Salate', DE: 'Salate' },
    });
    expect(Object.keys(twice)).toHaveLength(1);
    expect(Object.values(twice)[0]![0]).toMatch(/repeats the language de/);
  });

  it('refuses a tag longer than 35 characters', async () => {
    expect(
      Object.keys(
        await refused('POST', '/categories', { name: 'Salads', translations: { [`de-${'a'.repeat(40)}`]: 'x' } }),
      ),
    ).toHaveLength(1);
  });

  it('stores tags in canonical form', async () => {
    const ok = await created(t, '/categories', {
      name: 'Salads',
      translations: { 'DE-at': 'Salate', 'zh-hant': '沙拉' },
    });
    expect(ok.translations).toEqual({ 'de-AT': 'Salate', 'zh-Hant': '沙拉' });
  });
});

describe('tax categories and branches', () => {
  it.each([[100.5], [-1], [7.12345], ['19']])('refuses the tax rate %p', async (rate) => {
    expect(await fields('POST', '/tax-categories', { name: 'VAT', rate, isInclusive: true })).toEqual(['rate']);
  });

  it('accepts rates from 0 to 100 with 4 decimals', async () => {
    for (const rate of [0, 7.1234, 100])
      expect((await t.manage('POST', '/tax-categories', { name: 'VAT', rate, isInclusive: false })).body.rate).toBe(
        rate,
      );
  });

  it.each([
    ['an externalLocationId of 257 characters', { externalLocationId: 'x'.repeat(257) }, ['externalLocationId']],
    ['an empty externalLocationId', { externalLocationId: '' }, ['externalLocationId']],
    [
      'a lower-case country code',
      { address: { line1: 'Main St 1', city: 'Berlin', countryCode: 'de' } },
      ['address.countryCode'],
    ],
    ['an address without a city', { address: { line1: 'Main St 1', countryCode: 'DE' } }, ['address.city']],
    [
      'an unknown address field',
      { address: { line1: 'Main St 1', city: 'Berlin', countryCode: 'DE', floor: 2 } },
      ['address.floor'],
    ],
    ['a latitude of 91', { coordinates: { latitude: 91, longitude: 0 } }, ['coordinates.latitude']],
    ['isActive as a string', { isActive: 'yes' }, ['isActive']],
    ['an unknown field', { color: 'red' }, ['color']],
  ])(
    'refuses a branch with %s (only the field at fault is named, not the nullable object around it)',
    async (_what, over, expected) => {
      expect(await fields('POST', '/branches', { name: 'Mitte', ...over })).toEqual(expected);
    },
  );

  it('accepts an externalLocationId of 256 characters, and null', async () => {
    const long = await created(t, '/branches', { name: 'Long', externalLocationId: 'x'.repeat(256), ...LOCATION });
    expect(long.externalLocationId).toHaveLength(256);
    expect(long.isActive).toBe(true);
    expect(
      (await created(t, '/branches', { name: 'Unmapped', externalLocationId: null, ...LOCATION })).externalLocationId,
    ).toBeNull();
    expect(await fields('PUT', `/branches/${long.id}`, { name: 'Long', externalLocationId: 'x'.repeat(257) })).toEqual([
      'externalLocationId',
    ]);
  });

  it('an active branch takes orders, so it needs an address and coordinates: 400 naming each missing one', async () => {
    const { address, coordinates } = LOCATION;
    // Active is the default.
    expect(await fields('POST', '/branches', { name: 'Nowhere' })).toEqual(['address', 'coordinates']);
    expect(await fields('POST', '/branches', { name: 'Nowhere', isActive: true, address })).toEqual(['coordinates']);
    expect(await fields('POST', '/branches', { name: 'Nowhere', coordinates, address: null })).toEqual(['address']);
    // An inactive one may have neither; activating it without them is refused, and it stays inactive.
    const closed = await created(t, '/branches', { name: 'Closed', isActive: false });
    expect(closed).toMatchObject({ isActive: false, address: null, coordinates: null });
    expect(await fields('PUT', `/branches/${closed.id}`, { name: 'Closed', isActive: true, coordinates })).toEqual([
      'address',
    ]);
    expect((await t.manage('GET', `/branches/${closed.id}`)).body.isActive).toBe(false);
    const opened = await t.manage('PUT', `/branches/${closed.id}`, { name: 'Closed', isActive: true, ...LOCATION });
    expect(opened.status).toBe(200);
    // Taking them away from an active branch is refused the same way.
    expect(await fields('PUT', `/branches/${closed.id}`, { name: 'Closed', address })).toEqual(['coordinates']);
  });

  it('refuses unknown fields on every resource', async () => {
    expect(await fields('POST', '/categories', { name: 'X', parentId: MISSING })).toEqual(['parentId']);
    expect(await fields('POST', '/categories', { name: 'X', sortOrder: 1.5 })).toEqual(['sortOrder']);
    expect(await fields('POST', '/categories', { id: MISSING, name: 'X' })).toEqual(['id']); // the service chooses ids
    expect(await fields('POST', '/tax-categories', { name: 'X', rate: 1, isInclusive: true, country: 'DE' })).toEqual([
      'country',
    ]);
    expect(await fields('POST', '/modifier-groups', groupBody({ multiple: true }))).toEqual(['multiple']);
    expect(await fields('PATCH', `/branches/${branch.id}/availability`, { options: {} })).toEqual(['options']);
  });
});

describe('availability', () => {
  it.each([
    ['3', 3],
    ['true', true],
    ['a string', '1'],
    ['1.5', 1.5],
    ['-1', -1],
  ])('refuses the value %s', async (_what, value) => {
    expect(await fields('PATCH', `/branches/${branch.id}/availability`, { products: { [pizza.id]: value } })).toEqual([
      `products.${pizza.id}`,
    ]);
  });

  it('refuses ids the catalog does not have, and keys that are no uuid', async () => {
    const theirs = await created(other, '/categories', { name: 'X' });
    const theirProduct = await created(other, '/products', { categoryId: theirs.id, name: 'X', variants: [variant()] });
    expect(await fields('PATCH', `/branches/${branch.id}/availability`, { variants: { [MISSING]: 1 } })).toEqual([
      `variants.${MISSING}`,
    ]);
    expect(
      await fields('PATCH', `/branches/${branch.id}/availability`, { products: { [theirProduct.id]: 1 } }),
    ).toEqual([`products.${theirProduct.id}`]);
    expect(
      await fields('PATCH', `/branches/${branch.id}/availability`, { modifierOptions: { [pizza.variants[0].id]: 1 } }),
    ).toEqual([`modifierOptions.${pizza.variants[0].id}`]);
    expect(
      Object.keys(await refused('PATCH', `/branches/${branch.id}/availability`, { products: { 'not-a-uuid': 1 } })),
    ).toHaveLength(1);
    expect((await t.manage('GET', `/branches/${branch.id}/availability`)).body).toEqual({
      branchId: branch.id,
      products: {},
      variants: {},
      modifierOptions: {},
    });
  });

  it('sets entries, and 0 clears one', async () => {
    const b = await created(t, '/branches', { name: 'Hafen', ...LOCATION });
    const ok = await t.manage('PATCH', `/branches/${b.id}/availability`, {
      products: { [pizza.id]: 1 },
      modifierOptions: { [group.options[0].id]: 2 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      branchId: b.id,
      products: { [pizza.id]: 1 },
      variants: {},
      modifierOptions: { [group.options[0].id]: 2 },
    });
    const cleared = await t.manage('PATCH', `/branches/${b.id}/availability`, { products: { [pizza.id]: 0 } });
    expect(cleared.body).toEqual({
      branchId: b.id,
      products: {},
      variants: {},
      modifierOptions: { [group.options[0].id]: 2 },
    });
    expect((await t.manage('GET', `/branches/${b.id}/availability`)).body).toEqual(cleared.body);
  });
});

describe('bodies that are not JSON objects', () => {
  let token: string;
  beforeAll(async () => {
    token = await tenantToken(cluster.gateway, t.tenantId);
  });

  it('answers 400 request.malformed to a body that is not JSON', async () => {
    const res = await rawTenantCall(cluster.gateway, token, 'POST', '/categories', '{"name": "Pizza",');
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'request.malformed' });
  });

  it('answers 415 request.unsupported_media_type to a body that is not JSON by its Content-Type', async () => {
    const res = await rawTenantCall(
      cluster.gateway,
      token,
      'POST',
      '/categories',
      'name=Pizza',
      'application/x-www-form-urlencoded',
    );
    expect({ status: res.status, code: res.body?.code }).toEqual({
      status: 415,
      code: 'request.unsupported_media_type',
    });
  });

  it('answers 400 request.invalid to a body nested more than 64 levels', async () => {
    const deep = `{"name":"x","translations":${'{"a":'.repeat(70)}1${'}'.repeat(70)}}`;
    const res = await rawTenantCall(cluster.gateway, token, 'POST', '/categories', deep);
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'request.invalid' });
  });

  it('answers 400 to JSON that is not an object', async () => {
    const array = await rawTenantCall(cluster.gateway, token, 'POST', '/categories', '[]');
    expect({ status: array.status, code: array.body?.code }).toEqual({ status: 400, code: 'request.invalid' });
    for (const body of ['"Pizza"', '42', 'null']) {
      const res = await rawTenantCall(cluster.gateway, token, 'POST', '/categories', body);
      expect({ body, status: res.status, code: res.body?.code }).toEqual({
        body,
        status: 400,
        code: expect.stringMatching(/^(request\.malformed|request\.invalid)$/),
      });
    }
    expect((await t.manage('GET', '/categories')).body.map((c: any) => c.name)).not.toContain('x');
  });
});
