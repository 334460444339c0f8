import { currencyDecimals, fromMinorUnits, toMinorUnits, validTaxRate } from './money';

it('knows the decimals of a currency', () => {
  expect(currencyDecimals('EUR')).toBe(2);
  expect(currencyDecimals('JPY')).toBe(0);
  expect(currencyDecimals('KWD')).toBe(3);
});

it.each([
  [9.99, 2, 999],
  [0.29, 2, 29], // 0.29 * 100 is 28.999999999999996 in floating point
  [1.005, 3, 1005],
  [0, 2, 0],
  [1500, 0, 1500],
  [1_000_000, 2, 100_000_000],
])('converts %s with %i decimals to %i minor units, exactly', (amount, decimals, minor) => {
  expect(toMinorUnits(amount, decimals)).toBe(minor);
  expect(fromMinorUnits(minor, decimals)).toBe(amount);
});

it.each([
  [9.999, 2],
  [1.5, 0],
  [0.1 + 0.2, 2],
  [-0.01, 2],
  [1_000_000.01, 2],
  [Number.NaN, 2],
  [Number.POSITIVE_INFINITY, 2],
])('refuses %s with %i decimals', (amount, decimals) => {
  expect(toMinorUnits(amount, decimals)).toBeUndefined();
});

it('accepts tax rates from 0 to 100 with up to 4 decimals', () => {
  expect([0, 7, 19, 7.7, 8.1234, 100].every(validTaxRate)).toBe(true);
  expect([-1, 100.01, 8.12345, Number.NaN].some(validTaxRate)).toBe(false);
});
