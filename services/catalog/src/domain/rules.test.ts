import type { AppError } from '@marketplace/errors';
import type { ModifierGroupInput, ProductInput } from './inputs';
import { modifierGroupFields, productFields, taxCategoryFields, translations, Problems } from './rules';

const EUR = { currencyCode: 'EUR', defaultLanguage: 'en' };
const JPY = { currencyCode: 'JPY', defaultLanguage: 'ja' };
const CAT = '11111111-1111-4111-8111-111111111111';
const V1 = '22222222-2222-4222-8222-222222222222';

/** The field errors a rule threw (fails the test when it did not throw). */
function fieldErrors(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    expect((error as AppError).code).toBe('catalog.validation_failed');
    return (error as AppError).fieldErrors!;
  }
  throw new Error('expected a validation error');
}

const product = (variants: ProductInput['variants'], extra: Partial<ProductInput> = {}): ProductInput => ({ categoryId: CAT, name: 'Pizza', variants, ...extra });
const group = (over: Partial<ModifierGroupInput>): ModifierGroupInput => ({
  name: 'Toppings',
  minSelections: 0,
  maxSelections: 2,
  isRequired: false,
  options: [{ name: 'Olives', price: 1 }, { name: 'Ham', price: 1.5 }],
  ...over,
});

describe('products', () => {
  it('stores prices in minor units and gives new variants fresh ids', () => {
    const fields = productFields(product([{ name: 'S', price: 7.5, compareAtPrice: 8, isDefault: true }, { name: 'L', price: 11.9, isDefault: false }]), EUR);
    expect(fields.variants.map((v) => [v.priceMinor, v.compareAtPriceMinor])).toEqual([[750, 800], [1190, null]]);
    expect(new Set(fields.variants.map((v) => v.id)).size).toBe(2);
  });

  it('needs exactly one default variant', () => {
    expect(fieldErrors(() => productFields(product([{ name: 'S', price: 1, isDefault: false }]), EUR))).toHaveProperty('variants');
    expect(fieldErrors(() => productFields(product([{ name: 'S', price: 1, isDefault: true }, { name: 'L', price: 2, isDefault: true }]), EUR)).variants![0]).toMatch(/exactly one/);
  });

  it("refuses more decimals than the currency has, naming the field", () => {
    const errors = fieldErrors(() => productFields(product([{ name: 'S', price: 1, isDefault: true }, { name: 'L', price: 1.999, compareAtPrice: 0.001, isDefault: false }]), EUR));
    expect(Object.keys(errors).sort()).toEqual(['variants[1].compareAtPrice', 'variants[1].price']);
    expect(Object.keys(fieldErrors(() => productFields(product([{ name: 'S', price: 1.5, isDefault: true }]), JPY)))).toEqual(['variants[0].price']);
    expect(productFields(product([{ name: 'S', price: 1500, isDefault: true }]), JPY).variants[0]!.priceMinor).toBe(1500);
  });

  it('keeps a known variant id and refuses an unknown or repeated one', () => {
    const kept = productFields(product([{ id: V1.toUpperCase(), name: 'S', price: 1, isDefault: true }]), EUR, new Set([V1]));
    expect(kept.variants[0]!.id).toBe(V1);
    expect(fieldErrors(() => productFields(product([{ id: V1, name: 'S', price: 1, isDefault: true }]), EUR))).toHaveProperty(['variants[0].id']);
    const twice = fieldErrors(() => productFields(product([{ id: V1, name: 'S', price: 1, isDefault: true }, { id: V1, name: 'L', price: 1, isDefault: false }]), EUR, new Set([V1])));
    expect(twice['variants[1].id']![0]).toMatch(/twice/);
  });

  it('needs an https image URL and unique modifier groups per variant', () => {
    expect(fieldErrors(() => productFields(product([{ name: 'S', price: 1, isDefault: true }], { imageUrl: 'http://img.example.com/a.jpg' }), EUR))).toHaveProperty('imageUrl');
    const errors = fieldErrors(() => productFields(product([{ name: 'S', price: 1, isDefault: true, modifierGroupIds: [V1, V1] }]), EUR));
    expect(errors).toHaveProperty(['variants[0].modifierGroupIds']);
  });
});

describe('modifier groups', () => {
  it.each([
    [{ minSelections: 2, maxSelections: 1, isRequired: true }, 'minSelections'],
    [{ maxSelections: 3 }, 'maxSelections'],
    [{ minSelections: 1, isRequired: false }, 'isRequired'],
    [{ minSelections: 0, isRequired: true }, 'isRequired'],
    [{ maxSelections: 1, options: [{ name: 'A', price: 0, isDefault: true }, { name: 'B', price: 0, isDefault: true }] }, 'options'],
    [{ options: [{ name: 'A', price: -1 }, { name: 'B', price: 0 }] }, 'options[0].price'],
  ])('refuses %p at %s', (over, field) => {
    expect(fieldErrors(() => modifierGroupFields(group(over as Partial<ModifierGroupInput>), EUR))).toHaveProperty([field]);
  });

  it('accepts a required single choice with a default', () => {
    const fields = modifierGroupFields(group({ minSelections: 1, maxSelections: 1, isRequired: true, options: [{ name: 'Thin', price: 0, isDefault: true }, { name: 'Thick', price: 0.5 }] }), EUR);
    expect(fields.options.map((o) => [o.priceMinor, o.isDefault, o.childGroupIds])).toEqual([[0, true, []], [50, false, []]]);
  });
});

describe('translations', () => {
  it('canonicalises tags and refuses unknown, default and repeated languages', () => {
    const problems = new Problems();
    const out = translations({ 'DE-at': 'Pizza', fr: 'Pizza', xx: 'Pizza', en: 'Pizza', 'de-AT': 'Again' }, EUR, 'translations', problems);
    expect(out).toEqual({ 'de-AT': 'Pizza', fr: 'Pizza' });
    expect(Object.keys(problems.errors).sort()).toEqual(['translations.de-AT', 'translations.en', 'translations.xx']);
  });
});

it('refuses a tax rate outside 0 to 100', () => {
  expect(fieldErrors(() => taxCategoryFields({ name: 'VAT', rate: 120, isInclusive: true }, EUR))).toHaveProperty('rate');
  expect(taxCategoryFields({ name: 'VAT', rate: 7.7, isInclusive: false }, EUR).rate).toBe(7.7);
});
