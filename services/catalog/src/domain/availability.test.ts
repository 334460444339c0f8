import {
  Availability,
  emptyAvailability,
  optionAvailability,
  productAvailability,
  variantAvailability,
  type BranchAvailability,
} from './availability';

const av = (over: Partial<BranchAvailability> = {}): BranchAvailability => ({ ...emptyAvailability(), ...over });

it('numbers the values 0 Available, 1 SoldOut, 2 Unavailable (integers, never booleans)', () => {
  expect(Availability).toEqual({ Available: 0, SoldOut: 1, Unavailable: 2 });
  expect(emptyAvailability()).toEqual({ products: {}, variants: {}, modifierOptions: {} });
});

describe('variantAvailability: the stricter of its own and its product’s value', () => {
  it.each([
    [undefined, undefined, 0],
    [undefined, 1, 1],
    [undefined, 2, 2],
    [1, undefined, 1],
    [2, undefined, 2],
    [1, 2, 2],
    [2, 1, 2],
    [1, 1, 1],
  ] as const)('product %p, variant %p → %i', (product, variant, expected) => {
    const state = av({ products: product ? { p: product } : {}, variants: variant ? { v: variant } : {} });
    expect(variantAvailability(state, 'p', 'v')).toBe(expected);
  });

  it('ignores entries of other products and variants', () => {
    const state = av({ products: { other: 2 }, variants: { w: 2 } });
    expect(variantAvailability(state, 'p', 'v')).toBe(0);
  });
});

describe('productAvailability: its own value, raised to the least strict of its variants', () => {
  it.each([
    ['no entries', {}, {}, ['a', 'b'], 0],
    ['one variant sold out, one available', {}, { a: 1 }, ['a', 'b'], 0],
    ['every variant sold out', {}, { a: 1, b: 1 }, ['a', 'b'], 1],
    ['one sold out, one unavailable: the least strict', {}, { a: 1, b: 2 }, ['a', 'b'], 1],
    ['every variant unavailable', {}, { a: 2, b: 2 }, ['a', 'b'], 2],
    ['the single variant sold out', {}, { a: 1 }, ['a'], 1],
    ['the product sold out, variants available', { p: 1 }, {}, ['a', 'b'], 1],
    ['the product unavailable, a variant only sold out', { p: 2 }, { a: 1 }, ['a'], 2],
    ['the product sold out, every variant unavailable', { p: 1 }, { a: 2, b: 2 }, ['a', 'b'], 2],
  ] as const)('%s → %i', (_what, products, variants, ids, expected) => {
    expect(productAvailability(av({ products: { ...products }, variants: { ...variants } }), 'p', ids)).toBe(expected);
  });
});

describe('optionAvailability: its own value', () => {
  it('reads the option’s entry; absent is Available', () => {
    const state = av({ modifierOptions: { o1: 1, o2: 2 }, products: { o3: 2 } });
    expect(optionAvailability(state, 'o1')).toBe(1);
    expect(optionAvailability(state, 'o2')).toBe(2);
    expect(optionAvailability(state, 'o3')).toBe(0); // a product entry with the same id is not the option's
  });
});
