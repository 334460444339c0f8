import { AppError } from '@marketplace/errors';
import type { ModifierGroupInput, ProductInput, VariantInput } from './inputs';
import {
  branchFields,
  categoryFields,
  modifierGroupFields,
  productFields,
  taxCategoryFields,
  translations,
  Problems,
  VALIDATION_FAILED,
} from './rules';

const EUR = { currencyCode: 'EUR', defaultLanguage: 'en' };
const JPY = { currencyCode: 'JPY', defaultLanguage: 'ja' };
const KWD = { currencyCode: 'KWD', defaultLanguage: 'ar' };
const CAT = '11111111-1111-4111-8111-111111111111';
const TAX = '33333333-3333-4333-8333-333333333333';
const V1 = '22222222-2222-4222-8222-222222222222';
const V2 = '44444444-4444-4444-8444-444444444444';
const G1 = '55555555-5555-4555-8555-555555555555';
const G2 = '66666666-6666-4666-8666-666666666666';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The field errors a rule threw, as a 400 request.invalid (fails the test when it did not throw). */
function fieldErrors(run: () => unknown): Record<string, string[]> {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  if (thrown === undefined) throw new Error('expected a validation error, but the rule accepted the input');
  expect(thrown).toBeInstanceOf(AppError);
  const error = thrown as AppError;
  expect({ kind: error.kind, code: error.code }).toEqual({ kind: 'validation', code: VALIDATION_FAILED });
  expect(VALIDATION_FAILED).toBe('request.invalid');
  for (const messages of Object.values(error.fieldErrors!)) {
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(typeof message).toBe('string');
  }
  return error.fieldErrors!;
}
const fieldsOf = (run: () => unknown) => Object.keys(fieldErrors(run)).sort();

const variant = (over: Partial<VariantInput> = {}): VariantInput => ({
  name: 'Small',
  price: 7.5,
  isDefault: true,
  ...over,
});
const product = (variants: VariantInput[] = [variant()], extra: Partial<ProductInput> = {}): ProductInput => ({
  categoryId: CAT,
  name: 'Pizza',
  variants,
  ...extra,
});
const group = (over: Partial<ModifierGroupInput> = {}): ModifierGroupInput => ({
  name: 'Toppings',
  minSelections: 0,
  maxSelections: 2,
  isRequired: false,
  options: [
    { name: 'Olives', price: 1 },
    { name: 'Ham', price: 1.5 },
  ],
  ...over,
});

describe('products', () => {
  it('stores the fields with prices in minor units and fresh variant ids', () => {
    const fields = productFields(
      product(
        [
          variant({ sku: 'S', compareAtPrice: 8, translations: { de: 'Klein' } }),
          variant({ name: 'Large', price: 11.9, isDefault: false, modifierGroupIds: [G1.toUpperCase(), G2] }),
        ],
        {
          categoryId: CAT.toUpperCase(),
          taxCategoryId: TAX.toUpperCase(),
          sku: 'PZ',
          sortOrder: 3,
          imageUrl: 'https://img.example.com/pizza.jpg',
          translations: { DE: 'Pizza' },
        },
      ),
      EUR,
    );
    expect(fields).toEqual({
      categoryId: CAT,
      sortOrder: 3,
      sku: 'PZ',
      name: 'Pizza',
      imageUrl: 'https://img.example.com/pizza.jpg',
      taxCategoryId: TAX,
      translations: { de: 'Pizza' },
      variants: [
        {
          id: expect.stringMatching(UUID),
          sku: 'S',
          name: 'Small',
          priceMinor: 750,
          compareAtPriceMinor: 800,
          isDefault: true,
          modifierGroupIds: [],
          translations: { de: 'Klein' },
        },
        {
          id: expect.stringMatching(UUID),
          sku: null,
          name: 'Large',
          priceMinor: 1190,
          compareAtPriceMinor: null,
          isDefault: false,
          modifierGroupIds: [G1, G2],
          translations: {},
        },
      ],
    });
    expect(fields.variants[0]!.id).not.toBe(fields.variants[1]!.id);
  });

  it('defaults what may be left out: sortOrder 0, sku, image and tax category null', () => {
    const fields = productFields(product(), EUR);
    expect([fields.sortOrder, fields.sku, fields.imageUrl, fields.taxCategoryId, fields.translations]).toEqual([
      0,
      null,
      null,
      null,
      {},
    ]);
    expect(
      productFields(product([variant({ compareAtPrice: null })]), EUR).variants[0]!.compareAtPriceMinor,
    ).toBeNull();
  });

  it('converts prices exactly: 9.99 is 999 minor units', () => {
    expect(productFields(product([variant({ price: 9.99, compareAtPrice: 0.29 })]), EUR).variants[0]).toMatchObject({
      priceMinor: 999,
      compareAtPriceMinor: 29,
    });
  });

  describe('exactly one default variant', () => {
    it('refuses none, naming variants', () => {
      const errors = fieldErrors(() =>
        productFields(product([variant({ isDefault: false }), variant({ name: 'L', isDefault: false })]), EUR),
      );
      expect(Object.keys(errors)).toEqual(['variants']);
      expect(errors.variants![0]).toMatch(/exactly one default variant.*not 0/);
    });

    it('refuses two, naming variants', () => {
      const errors = fieldErrors(() =>
        productFields(product([variant(), variant({ name: 'L' }), variant({ name: 'XL', isDefault: false })]), EUR),
      );
      expect(Object.keys(errors)).toEqual(['variants']);
      expect(errors.variants![0]).toMatch(/exactly one default variant.*not 2/);
    });

    it('accepts one among several, in any position', () => {
      const fields = productFields(
        product([variant({ isDefault: false }), variant({ name: 'L', isDefault: false }), variant({ name: 'XL' })]),
        EUR,
      );
      expect(fields.variants.map((v) => v.isDefault)).toEqual([false, false, true]);
    });
  });

  describe('prices', () => {
    it('refuses more decimals than the currency has, naming each field (EUR: 2)', () => {
      expect(
        fieldsOf(() =>
          productFields(
            product([variant(), variant({ name: 'L', price: 1.999, compareAtPrice: 0.001, isDefault: false })]),
            EUR,
          ),
        ),
      ).toEqual(['variants[1].compareAtPrice', 'variants[1].price']);
      expect(fieldsOf(() => productFields(product([variant({ price: 0.1 + 0.2 })]), EUR))).toEqual([
        'variants[0].price',
      ]);
    });

    it('refuses any decimal in JPY (0) and accepts whole yen', () => {
      const errors = fieldErrors(() => productFields(product([variant({ price: 1.5 })]), JPY));
      expect(Object.keys(errors)).toEqual(['variants[0].price']);
      expect(errors['variants[0].price']![0]).toMatch(/at most 0 decimals \(JPY\)/);
      expect(productFields(product([variant({ price: 980, compareAtPrice: 1200 })]), JPY).variants[0]).toMatchObject({
        priceMinor: 980,
        compareAtPriceMinor: 1200,
      });
    });

    it('allows three decimals in KWD and refuses four', () => {
      expect(productFields(product([variant({ price: 1.234 })]), KWD).variants[0]!.priceMinor).toBe(1234);
      const errors = fieldErrors(() => productFields(product([variant({ price: 1.2345 })]), KWD));
      expect(errors['variants[0].price']![0]).toMatch(/at most 3 decimals \(KWD\)/);
    });

    it('refuses negative amounts and amounts above 1,000,000', () => {
      expect(fieldsOf(() => productFields(product([variant({ price: -1 })]), EUR))).toEqual(['variants[0].price']);
      expect(fieldsOf(() => productFields(product([variant({ compareAtPrice: -0.01 })]), EUR))).toEqual([
        'variants[0].compareAtPrice',
      ]);
      expect(fieldsOf(() => productFields(product([variant({ price: 1_000_000.01 })]), EUR))).toEqual([
        'variants[0].price',
      ]);
      expect(productFields(product([variant({ price: 1_000_000 })]), EUR).variants[0]!.priceMinor).toBe(100_000_000);
      expect(productFields(product([variant({ price: 0 })]), EUR).variants[0]!.priceMinor).toBe(0);
    });
  });

  describe('variant ids in a replacement', () => {
    it('keeps an id the product has (in any case) and gives new variants fresh ids', () => {
      const fields = productFields(
        product([variant({ id: V1.toUpperCase() }), variant({ name: 'L', isDefault: false })]),
        EUR,
        new Set([V1, V2]),
      );
      expect(fields.variants[0]!.id).toBe(V1);
      expect(fields.variants[1]!.id).toMatch(UUID);
      expect([V1, V2]).not.toContain(fields.variants[1]!.id);
    });

    it('refuses an id the product does not have, naming the variant', () => {
      const errors = fieldErrors(() =>
        productFields(product([variant(), variant({ id: V2, name: 'L', isDefault: false })]), EUR, new Set([V1])),
      );
      expect(Object.keys(errors)).toEqual(['variants[1].id']);
      expect(errors['variants[1].id']![0]).toMatch(/not an id this resource has/);
    });

    it('refuses any id on a new product', () => {
      expect(fieldsOf(() => productFields(product([variant({ id: V1 })]), EUR))).toEqual(['variants[0].id']);
    });

    it('refuses the same id twice, naming the second', () => {
      const errors = fieldErrors(() =>
        productFields(
          product([variant({ id: V1 }), variant({ id: V1.toUpperCase(), name: 'L', isDefault: false })]),
          EUR,
          new Set([V1]),
        ),
      );
      expect(Object.keys(errors)).toEqual(['variants[1].id']);
      expect(errors['variants[1].id']![0]).toMatch(/twice/);
    });
  });

  it('refuses the same modifier group twice on a variant, in any case', () => {
    expect(fieldsOf(() => productFields(product([variant({ modifierGroupIds: [G1, G1] })]), EUR))).toEqual([
      'variants[0].modifierGroupIds',
    ]);
    expect(
      fieldsOf(() =>
        productFields(
          product([variant(), variant({ name: 'L', isDefault: false, modifierGroupIds: [G1, G2, G1.toUpperCase()] })]),
          EUR,
        ),
      ),
    ).toEqual(['variants[1].modifierGroupIds']);
    // Two variants may share a group.
    expect(
      productFields(
        product([
          variant({ modifierGroupIds: [G1] }),
          variant({ name: 'L', isDefault: false, modifierGroupIds: [G1] }),
        ]),
        EUR,
      ).variants.map((v) => v.modifierGroupIds),
    ).toEqual([[G1], [G1]]);
  });

  describe('imageUrl', () => {
    it.each([
      'http://img.example.com/a.jpg',
      '/images/a.jpg',
      'img.example.com/a.jpg',
      'ftp://img.example.com/a.jpg',
      'https://',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'HTTP://img.example.com/a.jpg',
    ])('refuses %s', (imageUrl) => {
      const errors = fieldErrors(() => productFields(product([variant()], { imageUrl }), EUR));
      expect(errors).toEqual({ imageUrl: ['must be an absolute https URL'] });
    });

    it.each([
      'https://img.example.com/a.jpg',
      'HTTPS://IMG.EXAMPLE.COM/a.jpg',
      'https://img.example.com:8443/a/b.png?size=2',
    ])('accepts %s', (imageUrl) => {
      expect(productFields(product([variant()], { imageUrl }), EUR).imageUrl).toBe(imageUrl);
    });
  });

  it('reports every problem of a product at once', () => {
    const errors = fieldErrors(() =>
      productFields(
        product(
          [
            variant({ price: 1.001, translations: { xx: 'X' } }),
            variant({ id: V1, name: 'L', price: -2, modifierGroupIds: [G1, G1] }),
          ],
          {
            imageUrl: 'http://img.example.com/a.jpg',
            translations: { en: 'Pizza' },
          },
        ),
        EUR,
      ),
    );
    expect(Object.keys(errors).sort()).toEqual([
      'imageUrl',
      'translations.en',
      'variants',
      'variants[0].price',
      'variants[0].translations.xx',
      'variants[1].id',
      'variants[1].modifierGroupIds',
      'variants[1].price',
    ]);
  });
});

describe('modifier groups', () => {
  it('stores the fields with option prices in minor units and fresh option ids', () => {
    const fields = modifierGroupFields(
      group({
        sortOrder: 4,
        translations: { de: 'Beläge' },
        options: [
          {
            name: 'Olives',
            price: 0.8,
            isDefault: true,
            childGroupIds: [G1.toUpperCase()],
            translations: { fr: 'Olives' },
          },
          { name: 'Ham', price: 1.5 },
        ],
      }),
      EUR,
    );
    expect(fields).toEqual({
      name: 'Toppings',
      minSelections: 0,
      maxSelections: 2,
      isRequired: false,
      sortOrder: 4,
      translations: { de: 'Beläge' },
      options: [
        {
          id: expect.stringMatching(UUID),
          name: 'Olives',
          priceMinor: 80,
          isDefault: true,
          childGroupIds: [G1],
          translations: { fr: 'Olives' },
        },
        {
          id: expect.stringMatching(UUID),
          name: 'Ham',
          priceMinor: 150,
          isDefault: false,
          childGroupIds: [],
          translations: {},
        },
      ],
    });
    expect(modifierGroupFields(group(), EUR).sortOrder).toBe(0);
  });

  it.each([
    [
      'minSelections greater than maxSelections',
      { minSelections: 2, maxSelections: 1, isRequired: true },
      ['minSelections'],
    ],
    ['maxSelections greater than the number of options', { maxSelections: 3 }, ['maxSelections']],
    ['both', { minSelections: 4, maxSelections: 3, isRequired: true }, ['maxSelections', 'minSelections']],
    ['minSelections 1 but not required', { minSelections: 1, isRequired: false }, ['isRequired']],
    ['minSelections 0 but required', { minSelections: 0, isRequired: true }, ['isRequired']],
    [
      'more defaults than maxSelections',
      {
        maxSelections: 1,
        options: [
          { name: 'A', price: 0, isDefault: true },
          { name: 'B', price: 0, isDefault: true },
        ],
      },
      ['options'],
    ],
    [
      'a negative option price',
      {
        options: [
          { name: 'A', price: -1 },
          { name: 'B', price: 0 },
        ],
      },
      ['options[0].price'],
    ],
    [
      'too many decimals in an option price',
      {
        options: [
          { name: 'A', price: 0 },
          { name: 'B', price: 0.555 },
        ],
      },
      ['options[1].price'],
    ],
    [
      'an option price above 1,000,000',
      {
        options: [
          { name: 'A', price: 1_000_001 },
          { name: 'B', price: 0 },
        ],
      },
      ['options[0].price'],
    ],
    [
      'the same child group twice in an option',
      {
        options: [
          { name: 'A', price: 0, childGroupIds: [G1, G1.toUpperCase()] },
          { name: 'B', price: 0 },
        ],
      },
      ['options[0].childGroupIds'],
    ],
    [
      'an unknown language in an option',
      {
        options: [
          { name: 'A', price: 0 },
          { name: 'B', price: 0, translations: { xx: 'B' } },
        ],
      },
      ['options[1].translations.xx'],
    ],
    ['a translation in the default language', { translations: { EN: 'Toppings' } }, ['translations.EN']],
  ])('refuses %s', (_what, over, fields) => {
    expect(fieldsOf(() => modifierGroupFields(group(over as Partial<ModifierGroupInput>), EUR))).toEqual(fields);
  });

  it('explains the rule in each message', () => {
    expect(
      fieldErrors(() => modifierGroupFields(group({ minSelections: 2, maxSelections: 1, isRequired: true }), EUR))
        .minSelections![0],
    ).toMatch(/not be greater than maxSelections/);
    expect(fieldErrors(() => modifierGroupFields(group({ maxSelections: 3 }), EUR)).maxSelections![0]).toMatch(
      /number of options \(2\)/,
    );
    expect(fieldErrors(() => modifierGroupFields(group({ minSelections: 1 }), EUR)).isRequired![0]).toMatch(
      /exactly when minSelections is at least 1/,
    );
  });

  it('accepts the limits: min = max = number of options, and as many defaults as maxSelections', () => {
    const all = modifierGroupFields(
      group({
        minSelections: 2,
        maxSelections: 2,
        isRequired: true,
        options: [
          { name: 'A', price: 0, isDefault: true },
          { name: 'B', price: 0, isDefault: true },
        ],
      }),
      EUR,
    );
    expect([
      all.minSelections,
      all.maxSelections,
      all.isRequired,
      all.options.filter((o) => o.isDefault).length,
    ]).toEqual([2, 2, true, 2]);
    const single = modifierGroupFields(
      group({
        minSelections: 1,
        maxSelections: 1,
        isRequired: true,
        options: [
          { name: 'Thin', price: 0, isDefault: true },
          { name: 'Thick', price: 0.5 },
        ],
      }),
      EUR,
    );
    expect(single.options.map((o) => [o.priceMinor, o.isDefault, o.childGroupIds])).toEqual([
      [0, true, []],
      [50, false, []],
    ]);
  });

  it('keeps known option ids, refuses unknown and repeated ones, naming the option', () => {
    const kept = modifierGroupFields(
      group({
        options: [
          { id: V1.toUpperCase(), name: 'A', price: 0 },
          { name: 'B', price: 0 },
        ],
      }),
      EUR,
      new Set([V1]),
    );
    expect(kept.options[0]!.id).toBe(V1);
    expect(kept.options[1]!.id).not.toBe(V1);
    expect(
      fieldsOf(() =>
        modifierGroupFields(
          group({
            options: [
              { name: 'A', price: 0 },
              { id: V2, name: 'B', price: 0 },
            ],
          }),
          EUR,
          new Set([V1]),
        ),
      ),
    ).toEqual(['options[1].id']);
    expect(
      fieldsOf(() => modifierGroupFields(group({ options: [{ id: V1, name: 'A', price: 0 }], maxSelections: 1 }), EUR)),
    ).toEqual(['options[0].id']);
    const twice = fieldErrors(() =>
      modifierGroupFields(
        group({
          options: [
            { id: V1, name: 'A', price: 0 },
            { id: V1, name: 'B', price: 0 },
          ],
        }),
        EUR,
        new Set([V1]),
      ),
    );
    expect(Object.keys(twice)).toEqual(['options[1].id']);
    expect(twice['options[1].id']![0]).toMatch(/twice/);
  });

  it('refuses whole yen only in a JPY catalog', () => {
    expect(
      fieldsOf(() =>
        modifierGroupFields(
          group({
            options: [
              { name: 'A', price: 50.5 },
              { name: 'B', price: 0 },
            ],
          }),
          JPY,
        ),
      ),
    ).toEqual(['options[0].price']);
    expect(
      modifierGroupFields(
        group({
          options: [
            { name: 'A', price: 50 },
            { name: 'B', price: 0 },
          ],
        }),
        JPY,
      ).options[0]!.priceMinor,
    ).toBe(50);
  });
});

describe('translations', () => {
  it('canonicalises tags and refuses unknown, default and repeated languages, naming each tag as given', () => {
    const problems = new Problems();
    const out = translations(
      { 'DE-at': 'Pizza', fr: 'Pizza', 'zh-hant': '比薩', xx: 'Pizza', en: 'Pizza', 'de-AT': 'Again', und: 'Pizza' },
      EUR,
      'translations',
      problems,
    );
    expect(out).toEqual({ 'de-AT': 'Pizza', fr: 'Pizza', 'zh-Hant': '比薩' });
    expect(Object.keys(problems.errors).sort()).toEqual([
      'translations.de-AT',
      'translations.en',
      'translations.und',
      'translations.xx',
    ]);
    expect(problems.errors['translations.xx']![0]).toMatch(/not a known language/);
    expect(problems.errors['translations.en']![0]).toMatch(/default language/);
    expect(problems.errors['translations.de-AT']![0]).toMatch(/repeats the language de-AT/);
  });

  it('compares with the default language in canonical form', () => {
    const problems = new Problems();
    translations({ EN: 'Pizza' }, EUR, 'x', problems);
    expect(Object.keys(problems.errors)).toEqual(['x.EN']);
    // A regional form of the default language is another language.
    expect(translations({ 'en-GB': 'Pizza' }, EUR, 'x', new Problems())).toEqual({ 'en-GB': 'Pizza' });
    const austrian = { currencyCode: 'EUR', defaultLanguage: 'de-AT' };
    expect(translations({ de: 'Pizza' }, austrian, 'x', new Problems())).toEqual({ de: 'Pizza' });
    const refused = new Problems();
    translations({ 'DE-at': 'Pizza' }, austrian, 'x', refused);
    expect(Object.keys(refused.errors)).toEqual(['x.DE-at']);
  });

  it('takes none as no translations', () => {
    const problems = new Problems();
    expect(translations(undefined, EUR, 'translations', problems)).toEqual({});
    expect(problems.any).toBe(false);
  });
});

describe('tax categories', () => {
  it('stores the rate as a percentage', () => {
    expect(
      taxCategoryFields({ name: 'VAT', rate: 7.7, isInclusive: false, translations: { de: 'MwSt' } }, EUR),
    ).toEqual({ name: 'VAT', rate: 7.7, isInclusive: false, translations: { de: 'MwSt' } });
    expect(taxCategoryFields({ name: 'None', rate: 0, isInclusive: true }, EUR).rate).toBe(0);
    expect(taxCategoryFields({ name: 'All', rate: 100, isInclusive: true }, EUR).rate).toBe(100);
    expect(taxCategoryFields({ name: 'Fine', rate: 8.1234, isInclusive: true }, EUR).rate).toBe(8.1234);
  });

  it.each([120, 100.01, -1, 8.12345])('refuses the rate %s', (rate) => {
    expect(fieldErrors(() => taxCategoryFields({ name: 'VAT', rate, isInclusive: true }, EUR))).toEqual({
      rate: ['must be a percentage from 0 to 100 with at most 4 decimals'],
    });
  });

  it('refuses an unknown language in its translations', () => {
    expect(
      fieldsOf(() => taxCategoryFields({ name: 'VAT', rate: 19, isInclusive: true, translations: { xx: 'x' } }, EUR)),
    ).toEqual(['translations.xx']);
  });
});

describe('branches', () => {
  const address = { line1: 'Main St 1', city: 'Berlin', countryCode: 'DE' };
  const coordinates = { latitude: 52.5, longitude: 13.4 };

  it('defaults to active, no external location id', () => {
    expect(branchFields({ name: 'Mitte', address, coordinates }, EUR)).toEqual({
      name: 'Mitte',
      isActive: true,
      externalLocationId: null,
      address: { ...address, line2: null, postalCode: null },
      coordinates,
      translations: {},
    });
  });

  it('refuses an active branch (the default) without an address or coordinates: it could not take orders', () => {
    expect(fieldsOf(() => branchFields({ name: 'Mitte' }, EUR))).toEqual(['address', 'coordinates']);
    expect(fieldsOf(() => branchFields({ name: 'Mitte', isActive: true, address, coordinates: null }, EUR))).toEqual([
      'coordinates',
    ]);
    expect(fieldsOf(() => branchFields({ name: 'Mitte', isActive: true, address: null, coordinates }, EUR))).toEqual([
      'address',
    ]);
  });

  it('keeps an inactive branch without an address or coordinates', () => {
    expect(branchFields({ name: 'Mitte', isActive: false }, EUR)).toMatchObject({
      isActive: false,
      address: null,
      coordinates: null,
    });
  });

  it('stores an address with its optional lines as null', () => {
    const fields = branchFields(
      {
        name: 'Mitte',
        isActive: false,
        externalLocationId: 'POS-1',
        address: { line1: 'Main St 1', city: 'Berlin', countryCode: 'DE' },
        coordinates: { latitude: 52.5, longitude: 13.4 },
      },
      EUR,
    );
    expect(fields).toEqual({
      name: 'Mitte',
      isActive: false,
      externalLocationId: 'POS-1',
      address: { line1: 'Main St 1', line2: null, city: 'Berlin', postalCode: null, countryCode: 'DE' },
      coordinates: { latitude: 52.5, longitude: 13.4 },
      translations: {},
    });
  });

  it('refuses an unknown language', () => {
    expect(
      fieldsOf(() =>
        branchFields({ name: 'Mitte', address, coordinates, translations: { xx: 'x', de: 'Mitte' } }, EUR),
      ),
    ).toEqual(['translations.xx']);
  });
});

describe('categories', () => {
  it('stores the sort order (0 when left out) and canonical translations', () => {
    expect(categoryFields({ name: 'Pizza', translations: { 'DE-at': 'Pizzen' } }, EUR)).toEqual({
      name: 'Pizza',
      sortOrder: 0,
      translations: { 'de-AT': 'Pizzen' },
    });
    expect(categoryFields({ name: 'Pizza', sortOrder: -3 }, EUR).sortOrder).toBe(-3);
  });

  it('refuses an unknown language and the default language', () => {
    expect(fieldsOf(() => categoryFields({ name: 'Pizza', translations: { xx: 'x', en: 'Pizza' } }, EUR))).toEqual([
      'translations.en',
      'translations.xx',
    ]);
  });
});
