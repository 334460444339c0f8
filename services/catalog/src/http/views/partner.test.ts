import type { BranchAvailability } from '../../domain/availability';
import { activeBranch, activeBranches, buildMenu, type MenuResources } from '../../domain/menu';
import type {
  AvailabilityResource,
  Branch,
  Category,
  ModifierGroup,
  ModifierOption,
  Product,
  TaxCategory,
  Variant,
} from '../../domain/model';
import { branchListView, productDetailView, productListView } from './partner';

// The partner views of one tenant's menu, built from its resources without any I/O.
const at = new Date('2026-01-01T00:00:00Z');
const owned = (id: string) => ({ _id: id, tenantId: 't1', seq: 1, deleted: false, createdAt: at, updatedAt: at });

const branch = (id: string, name: string, isActive = true): Branch => ({
  ...owned(id),
  name,
  isActive,
  externalLocationId: null,
  address: null,
  coordinates: null,
  translations: {},
});
const category = (id: string, name: string, sortOrder = 0, translations = {}): Category => ({
  ...owned(id),
  name,
  sortOrder,
  translations,
});
const v = (id: string, priceMinor: number, over: Partial<Variant> = {}): Variant => ({
  id,
  sku: null,
  name: id,
  priceMinor,
  compareAtPriceMinor: null,
  isDefault: false,
  modifierGroupIds: [],
  translations: {},
  ...over,
});
const product = (
  id: string,
  categoryId: string,
  name: string,
  variants: Variant[],
  over: Partial<Product> = {},
): Product => ({
  ...owned(id),
  categoryId,
  sortOrder: 0,
  sku: null,
  name,
  imageUrl: null,
  taxCategoryId: null,
  translations: {},
  variants: variants.map((x, i) => ({ ...x, isDefault: i === 0 })),
  ...over,
});
const option = (id: string, priceMinor: number, over: Partial<ModifierOption> = {}): ModifierOption => ({
  id,
  name: id,
  priceMinor,
  isDefault: false,
  childGroupIds: [],
  translations: {},
  ...over,
});
const group = (id: string, options: ModifierOption[], over: Partial<ModifierGroup> = {}): ModifierGroup => ({
  ...owned(id),
  name: id,
  minSelections: 0,
  maxSelections: 1,
  isRequired: false,
  sortOrder: 0,
  translations: {},
  options,
  ...over,
});
const tax = (id: string, rate: number, isInclusive: boolean): TaxCategory => ({
  ...owned(id),
  name: id,
  rate,
  isInclusive,
  translations: {},
});
const availability = (branchId: string, av: Partial<BranchAvailability>): AvailabilityResource => ({
  ...owned(branchId),
  products: {},
  variants: {},
  modifierOptions: {},
  ...av,
});
const resources = (over: Partial<MenuResources>): MenuResources => ({
  branches: [branch('b1', 'Mitte')],
  categories: [],
  products: [],
  groups: [],
  taxes: [],
  availability: [],
  ...over,
});

describe('ordering', () => {
  it('orders categories by sortOrder, then name, then id', () => {
    const menu = buildMenu(
      resources({
        categories: [
          category('c-z', 'Zeta', 1),
          category('c-b2', 'Beta', 1),
          category('c-a', 'Alpha', 2),
          category('c-b1', 'Beta', 1),
          category('c-neg', 'Omega', -1),
        ],
        products: ['c-z', 'c-b2', 'c-a', 'c-b1', 'c-neg'].map((c) => product(`p-${c}`, c, 'P', [v(`v-${c}`, 100)])),
      }),
      2,
      'en',
    );
    expect(productListView(menu, 'b1', 'en').categories.map((c) => c.id)).toEqual([
      'c-neg',
      'c-b1',
      'c-b2',
      'c-z',
      'c-a',
    ]);
  });

  it('orders the products of a category by sortOrder, then name, then id', () => {
    const menu = buildMenu(
      resources({
        categories: [category('c', 'Pizza')],
        products: [
          product('p3', 'c', 'Margherita', [v('v3', 100)], { sortOrder: 2 }),
          product('p2', 'c', 'Diavola', [v('v2', 100)], { sortOrder: 2 }),
          product('p1b', 'c', 'Tonno', [v('v1b', 100)], { sortOrder: 1 }),
          product('p1a', 'c', 'Tonno', [v('v1a', 100)], { sortOrder: 1 }),
          product('p0', 'c', 'Zucchini', [v('v0', 100)], { sortOrder: -5 }),
        ],
      }),
      2,
      'en',
    );
    expect(productListView(menu, 'b1', 'en').categories[0]!.products.map((p) => p.id)).toEqual([
      'p0',
      'p1a',
      'p1b',
      'p2',
      'p3',
    ]);
  });

  it('leaves out categories without products', () => {
    const menu = buildMenu(
      resources({
        categories: [category('empty', 'Empty', 0), category('c', 'Pizza', 1), category('also-empty', 'Later', 2)],
        products: [product('p', 'c', 'P', [v('v', 1)])],
      }),
      2,
      'en',
    );
    expect(productListView(menu, 'b1', 'en').categories.map((c) => c.id)).toEqual(['c']);
    expect(
      productListView(buildMenu(resources({ categories: [category('empty', 'Empty')] }), 2, 'en'), 'b1', 'en'),
    ).toEqual({ categories: [], resolvedLanguage: 'en' });
  });

  it('orders the modifier groups of a variant and of an option by sortOrder', () => {
    const menu = buildMenu(
      resources({
        categories: [category('c', 'Pizza')],
        products: [product('p', 'c', 'P', [v('v', 100, { modifierGroupIds: ['g-late', 'g-early'] })])],
        groups: [
          group('g-late', [option('o', 0, { childGroupIds: ['k2', 'k1'] })], { sortOrder: 5 }),
          group('g-early', [option('o2', 0)], { sortOrder: 1 }),
          group('k1', [option('k1o', 0)], { sortOrder: 1 }),
          group('k2', [option('k2o', 0)], { sortOrder: 2 }),
        ],
      }),
      2,
      'en',
    );
    const detail = productDetailView(menu, 'b1', menu.products.get('p')!, 'en') as any;
    expect(detail.variants[0].modifierGroups.map((g: any) => g.id)).toEqual(['g-early', 'g-late']);
    expect(detail.variants[0].modifierGroups[1].options[0].childGroups.map((g: any) => g.id)).toEqual(['k1', 'k2']);
  });
});

describe('startingPrice', () => {
  const menuWith = (av: Partial<BranchAvailability>) =>
    buildMenu(
      resources({
        categories: [category('c', 'Drinks')],
        products: [product('p', 'c', 'Cola', [v('big', 320), v('small', 250), v('mid', 280)])],
        availability: [availability('b1', av)],
      }),
      2,
      'en',
    );
  const startingPrice = (av: Partial<BranchAvailability>) =>
    productListView(menuWith(av), 'b1', 'en').categories[0]!.products[0]!.startingPrice;

  it('is the lowest price of the variants available at the branch', () => {
    expect(startingPrice({})).toBe(2.5);
    expect(startingPrice({ variants: { small: 1 } })).toBe(2.8);
    expect(startingPrice({ variants: { small: 2, mid: 1 } })).toBe(3.2);
  });

  it('is the lowest of all variants when none is available', () => {
    expect(startingPrice({ variants: { small: 1, mid: 1, big: 1 } })).toBe(2.5);
    expect(startingPrice({ variants: { small: 2, mid: 1, big: 2 } })).toBe(2.5);
    expect(startingPrice({ products: { p: 1 } })).toBe(2.5);
    expect(startingPrice({ products: { p: 2 } })).toBe(2.5);
  });

  it('reports a product whose variants are all sold out as sold out', () => {
    const listed = productListView(menuWith({ variants: { small: 1, mid: 1, big: 1 } }), 'b1', 'en').categories[0]!
      .products[0]!;
    expect(listed.availability).toBe(1);
    expect(listed.variants.map((x) => x.availability)).toEqual([1, 1, 1]);
  });
});

describe('availability per branch', () => {
  it('applies only the availability of the branch read', () => {
    const menu = buildMenu(
      resources({
        branches: [branch('b1', 'Mitte'), branch('b2', 'Hafen')],
        categories: [category('c', 'Pizza')],
        products: [product('p', 'c', 'P', [v('v1', 100), v('v2', 200)])],
        availability: [availability('b2', { products: { p: 2 } }), availability('b1', { variants: { v2: 1 } })],
      }),
      2,
      'en',
    );
    const at1 = productListView(menu, 'b1', 'en').categories[0]!.products[0]!;
    const at2 = productListView(menu, 'b2', 'en').categories[0]!.products[0]!;
    expect([at1.availability, at1.variants.map((x) => x.availability)]).toEqual([0, [0, 1]]);
    expect([at2.availability, at2.variants.map((x) => x.availability)]).toEqual([2, [2, 2]]);
  });

  it('treats a branch without an availability document as all available', () => {
    const menu = buildMenu(
      resources({ categories: [category('c', 'Pizza')], products: [product('p', 'c', 'P', [v('v1', 100)])] }),
      2,
      'en',
    );
    expect(productListView(menu, 'b1', 'en').categories[0]!.products[0]!.availability).toBe(0);
  });
});

describe('language', () => {
  const menu = buildMenu(
    resources({
      categories: [category('c', 'Drinks', 0, { de: 'Getränke' })],
      products: [
        product('p', 'c', 'Lemonade', [
          v('v', 300, { name: 'Glass', modifierGroupIds: ['g'] }),
          v('w', 400, { name: 'Bottle', translations: { de: 'Flasche' } }),
        ]),
      ],
      groups: [
        group(
          'g',
          [
            option('o1', 0, { name: 'With ice', translations: { de: 'Mit Eis' } }),
            option('o2', 0, { name: 'No ice', translations: { it: 'Senza ghiaccio' } }),
          ],
          { name: 'Ice' },
        ),
      ],
    }),
    2,
    'en',
  );

  it('knows the default language and every language with a translation, from any name', () => {
    expect([...menu.languages].sort()).toEqual(['de', 'en', 'it']); // 'it' only on one option
  });

  it('gives each name in the language, or its default name when it has no translation', () => {
    const list = productListView(menu, 'b1', 'de');
    expect(list.resolvedLanguage).toBe('de');
    expect(list.categories[0]!.name).toBe('Getränke');
    expect(list.categories[0]!.products[0]!.name).toBe('Lemonade'); // untranslated
    expect(list.categories[0]!.products[0]!.variants.map((x) => x.name)).toEqual(['Glass', 'Flasche']);
    const detail = productDetailView(menu, 'b1', menu.products.get('p')!, 'de') as any;
    expect(detail.resolvedLanguage).toBe('de');
    expect(detail.variants[0].modifierGroups[0].name).toBe('Ice');
    expect(detail.variants[0].modifierGroups[0].options.map((o: any) => o.name)).toEqual(['Mit Eis', 'No ice']);
  });
});

describe('views', () => {
  const menu = buildMenu(
    resources({
      branches: [branch('b1', 'Mitte'), branch('b0', 'Altstadt'), branch('b9', 'Closed', false)],
      categories: [category('c', 'Pizza')],
      taxes: [tax('food', 7, true)],
      products: [
        product(
          'p',
          'c',
          'Margherita',
          [
            v('s', 750, { sku: 'S', name: 'Small', compareAtPriceMinor: 800, modifierGroupIds: ['crust'] }),
            v('l', 1190, { name: 'Large' }),
          ],
          {
            sku: 'PZ',
            imageUrl: 'https://img.example.com/p.jpg',
            taxCategoryId: 'food',
          },
        ),
        product('q', 'c', 'Quattro', [v('q1', 900)], { sortOrder: 1, taxCategoryId: null }),
      ],
      groups: [
        group(
          'crust',
          [
            option('thin', 0, { name: 'Thin', isDefault: true }),
            option('thick', 50, { name: 'Thick', childGroupIds: ['cheese'] }),
          ],
          { name: 'Crust', minSelections: 1, isRequired: true, sortOrder: 3 },
        ),
        group('cheese', [option('double', 120, { name: 'Double' })], { name: 'Cheese' }),
      ],
      availability: [availability('b1', { modifierOptions: { double: 1 } })],
    }),
    2,
    'en',
  );

  it('lists active branches only, by name, with exactly the spec fields', () => {
    expect(branchListView(activeBranches(menu))).toEqual([
      { id: 'b0', name: 'Altstadt', isActive: true, externalLocationId: null },
      { id: 'b1', name: 'Mitte', isActive: true, externalLocationId: null },
    ]);
    expect(activeBranch(menu, 'b9')).toBeUndefined();
    expect(activeBranch(menu, 'nope')).toBeUndefined();
    expect(activeBranch(menu, 'b1')?._id).toBe('b1');
  });

  it('gives the product list with exactly the spec fields, money in major units', () => {
    expect(productListView(menu, 'b1', 'en')).toEqual({
      categories: [
        {
          id: 'c',
          name: 'Pizza',
          products: [
            {
              id: 'p',
              sku: 'PZ',
              name: 'Margherita',
              imageUrl: 'https://img.example.com/p.jpg',
              taxCategory: { rate: 7, isInclusive: true },
              availability: 0,
              startingPrice: 7.5,
              variants: [
                { id: 's', sku: 'S', name: 'Small', price: 7.5, compareAtPrice: 8, isDefault: true, availability: 0 },
                {
                  id: 'l',
                  sku: null,
                  name: 'Large',
                  price: 11.9,
                  compareAtPrice: null,
                  isDefault: false,
                  availability: 0,
                },
              ],
            },
            {
              id: 'q',
              sku: null,
              name: 'Quattro',
              imageUrl: null,
              taxCategory: null,
              availability: 0,
              startingPrice: 9,
              variants: [
                { id: 'q1', sku: null, name: 'q1', price: 9, compareAtPrice: null, isDefault: true, availability: 0 },
              ],
            },
          ],
        },
      ],
      resolvedLanguage: 'en',
    });
  });

  it('gives the product detail with every group nested through the options', () => {
    expect(productDetailView(menu, 'b1', menu.products.get('p')!, 'en')).toEqual({
      id: 'p',
      sku: 'PZ',
      name: 'Margherita',
      imageUrl: 'https://img.example.com/p.jpg',
      taxCategory: { rate: 7, isInclusive: true },
      availability: 0,
      variants: [
        {
          id: 's',
          sku: 'S',
          name: 'Small',
          price: 7.5,
          compareAtPrice: 8,
          isDefault: true,
          availability: 0,
          modifierGroups: [
            {
              id: 'crust',
              name: 'Crust',
              minSelections: 1,
              maxSelections: 1,
              isRequired: true,
              sortOrder: 3,
              options: [
                { id: 'thin', name: 'Thin', price: 0, isDefault: true, availability: 0, childGroups: [] },
                {
                  id: 'thick',
                  name: 'Thick',
                  price: 0.5,
                  isDefault: false,
                  availability: 0,
                  childGroups: [
                    {
                      id: 'cheese',
                      name: 'Cheese',
                      minSelections: 0,
                      maxSelections: 1,
                      isRequired: false,
                      sortOrder: 0,
                      options: [
                        {
                          id: 'double',
                          name: 'Double',
                          price: 1.2,
                          isDefault: false,
                          availability: 1,
                          childGroups: [],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
        {
          id: 'l',
          sku: null,
          name: 'Large',
          price: 11.9,
          compareAtPrice: null,
          isDefault: false,
          availability: 0,
          modifierGroups: [],
        },
      ],
      resolvedLanguage: 'en',
    });
  });

  it('gives money in the currency’s major unit: whole yen, three decimals of a dinar', () => {
    const yen = buildMenu(
      resources({ categories: [category('c', 'Ramen')], products: [product('p', 'c', 'Shoyu', [v('v', 980)])] }),
      0,
      'ja',
    );
    expect(productListView(yen, 'b1', 'ja').categories[0]!.products[0]!).toMatchObject({
      startingPrice: 980,
      variants: [{ price: 980 }],
    });
    const dinar = buildMenu(
      resources({ categories: [category('c', 'Tea')], products: [product('p', 'c', 'Karak', [v('v', 1234)])] }),
      3,
      'ar',
    );
    expect(productListView(dinar, 'b1', 'ar').categories[0]!.products[0]!).toMatchObject({
      startingPrice: 1.234,
      variants: [{ price: 1.234 }],
    });
  });
});
