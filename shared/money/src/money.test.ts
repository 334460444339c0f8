import { currencyDecimals, fromMinorUnits, MAX_AMOUNT, toMinorUnits, validTaxRate } from './money';

describe('currencyDecimals', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['KWD', 3],
    ['BHD', 3],
  ])('%s has %i decimals', (code, decimals) => expect(currencyDecimals(code)).toBe(decimals));

  // Amounts are stored and published as integer minor units with the currency code, for other
  // services and outside consumers: the exponent must be ISO 4217's minor unit, which the runtime's
  // display data (CLDR) does not always give (it shows Iraqi dinars, rupiahs, forints and Colombian
  // pesos without decimals).
  it.each([
    ['IQD', 3],
    ['IDR', 2],
    ['HUF', 2],
    ['COP', 2],
    ['ISK', 0],
    ['CLP', 0],
  ])('%s has its ISO 4217 minor unit: %i decimals', (code, decimals) => expect(currencyDecimals(code)).toBe(decimals));
});

describe('toMinorUnits', () => {
  it.each([
    [9.99, 2, 999], // 9.99 * 100 is 998.9999999999999 in floating point
    [0.29, 2, 29], // 0.29 * 100 is 28.999999999999996
    [1.15, 2, 115], // 1.15 * 100 is 114.99999999999999
    [4.35, 2, 435], // 4.35 * 100 is 434.99999999999994
    [0.01, 2, 1],
    [9.5, 2, 950],
    [7, 2, 700],
    [0, 2, 0],
    [980, 0, 980],
    [1500, 0, 1500],
    [1.234, 3, 1234],
    [0.001, 3, 1],
    [1.005, 3, 1005],
    [MAX_AMOUNT, 2, 100_000_000],
    [MAX_AMOUNT, 0, 1_000_000],
    [999_999.999, 3, 999_999_999],
  ])('converts %s with %i decimals to %i minor units, exactly', (amount, decimals, minor) => {
    expect(toMinorUnits(amount, decimals)).toBe(minor);
  });

  it('converts every cent amount from 0.00 to 1000.00 exactly and back', () => {
    const wrong: number[] = [];
    for (let minor = 0; minor <= 100_000; minor++) {
      const amount = Number((minor / 100).toFixed(2)); // what JSON.parse gives for "12.34"
      if (toMinorUnits(amount, 2) !== minor || fromMinorUnits(minor, 2) !== amount) wrong.push(minor);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    [0.1 + 0.2, 2, 'the floating-point sum 0.30000000000000004'],
    [9.999, 2, 'three decimals in EUR'],
    [1.005, 2, 'three decimals in EUR'],
    [0.001, 2, 'a tenth of a cent'],
    [1.5, 0, 'a fraction of a yen'],
    [0.5, 0, 'half a yen'],
    [1.2345, 3, 'four decimals in KWD'],
    [-0.01, 2, 'negative'],
    [-1, 2, 'negative'],
    [-1, 0, 'negative'],
    [MAX_AMOUNT + 0.01, 2, 'above the maximum'],
    [MAX_AMOUNT + 1, 0, 'above the maximum'],
    [1e21, 2, 'far above the maximum'],
    [Number.NaN, 2, 'not a number'],
    [Number.POSITIVE_INFINITY, 2, 'infinite'],
    [Number.NEGATIVE_INFINITY, 2, 'infinite'],
  ])('refuses %s with %i decimals (%s)', (amount, decimals) => {
    expect(toMinorUnits(amount, decimals)).toBeUndefined();
  });

  it('caps amounts at 1,000,000 in major units', () => expect(MAX_AMOUNT).toBe(1_000_000));
});

describe('fromMinorUnits', () => {
  it.each([
    [999, 2, 9.99],
    [950, 2, 9.5],
    [1, 2, 0.01],
    [0, 2, 0],
    [100_000_000, 2, 1_000_000],
    [980, 0, 980],
    [1234, 3, 1.234],
    [1, 3, 0.001],
    [999_999_999, 3, 999_999.999],
  ])('gives %i minor units with %i decimals as %s', (minor, decimals, amount) => {
    expect(fromMinorUnits(minor, decimals)).toBe(amount);
  });
});

describe('validTaxRate', () => {
  it.each([0, 7, 19, 7.7, 8.1234, 0.0001, 99.9999, 100])('accepts %s', (rate) => expect(validTaxRate(rate)).toBe(true));

  it.each([-1, -0.0001, 100.0001, 101, 8.12345, 0.00001, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s', (rate) =>
    expect(validTaxRate(rate)).toBe(false),
  );
});
