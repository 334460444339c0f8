import { optionAvailability, productAvailability, variantAvailability, type BranchAvailability } from './availability';

const av: BranchAvailability = { products: { p2: 2 }, variants: { v1: 1, v3: 2 }, modifierOptions: { o1: 1 } };

it('gives a variant the stricter of its own and its product’s value', () => {
  expect(variantAvailability(av, 'p1', 'v1')).toBe(1);
  expect(variantAvailability(av, 'p1', 'v2')).toBe(0);
  expect(variantAvailability(av, 'p2', 'v2')).toBe(2);
});

it('raises a product to the least strict of its variants', () => {
  expect(productAvailability(av, 'p1', ['v1', 'v2'])).toBe(0); // one size still available
  expect(productAvailability(av, 'p1', ['v1'])).toBe(1); // every size sold out
  expect(productAvailability(av, 'p1', ['v1', 'v3'])).toBe(1);
  expect(productAvailability(av, 'p2', ['v2'])).toBe(2);
});

it('reads options as they are; absent is Available (0)', () => {
  expect(optionAvailability(av, 'o1')).toBe(1);
  expect(optionAvailability(av, 'o2')).toBe(0);
});
