import { priceOrder, roundHalfUp, type LineToPrice, type PriceBreakdown, type PricingInput } from './pricing';

const untaxed = (variantPriceMinor: number, quantity = 1, modifierPricesMinor: number[] = []): LineToPrice => ({
  quantity,
  variantPriceMinor,
  modifierPricesMinor,
  tax: null,
});
const incl = (variantPriceMinor: number, rate: number, quantity = 1): LineToPrice => ({
  ...untaxed(variantPriceMinor, quantity),
  tax: { ratePercent: rate, inclusive: true },
});
const excl = (variantPriceMinor: number, rate: number, quantity = 1): LineToPrice => ({
  ...untaxed(variantPriceMinor, quantity),
  tax: { ratePercent: rate, inclusive: false },
});
const order = (lines: LineToPrice[], rest: Partial<PricingInput> = {}): PricingInput => ({
  lines,
  promotion: null,
  deliveryFeeMinor: 0,
  serviceFee: { fixedMinor: 0, percent: 0 },
  ...rest,
});

describe('roundHalfUp', () => {
  it.each([
    [1n, 2n, 1n], // 0.5 → 1
    [3n, 2n, 2n], // 1.5 → 2
    [149n, 100n, 1n], // 1.49 → 1
    [151n, 100n, 2n], // 1.51 → 2
    [0n, 7n, 0n],
    [2n * 10n ** 30n + 1n, 2n, 10n ** 30n + 1n], // 10^30 + 0.5, beyond any float
  ])('%p / %p = %p', (n, d, expected) => expect(roundHalfUp(n, d)).toBe(expected));

  it.each([
    [-1n, 2n],
    [1n, 0n],
    [1n, -2n],
  ])('refuses %p / %p', (n, d) => expect(() => roundHalfUp(n, d)).toThrow(RangeError));
});

describe('priceOrder (hand-checked figures, minor units)', () => {
  it.each<[string, PricingInput, Partial<PriceBreakdown>]>([
    [
      'one untaxed line',
      order([untaxed(1000)]),
      {
        lines: [{ unitPriceMinor: 1000, lineTotalMinor: 1000, modifierTotalsMinor: [] }],
        subtotalMinor: 1000,
        discountMinor: 0,
        inclusiveTaxMinor: 0,
        exclusiveTaxMinor: 0,
        taxTotalMinor: 0,
        deliveryFeeMinor: 0,
        serviceFeeMinor: 0,
        grandTotalMinor: 1000,
      },
    ],
    // Pizza 12.00 with options 1.50, 1.00 and 0.00, three times: unit 14.50, line 43.50, options
    // 4.50, 3.00, 0.00; and two colas at 2.50 = 5.00. Subtotal 48.50.
    [
      'quantities and options',
      order([untaxed(1200, 3, [150, 100, 0]), untaxed(250, 2)]),
      {
        lines: [
          { unitPriceMinor: 1450, lineTotalMinor: 4350, modifierTotalsMinor: [450, 300, 0] },
          { unitPriceMinor: 250, lineTotalMinor: 500, modifierTotalsMinor: [] },
        ],
        subtotalMinor: 4850,
        grandTotalMinor: 4850,
      },
    ],
    // 7 % contained in 10.00: 1000 × 7 / 107 = 65.42… → 65; the total stays 10.00.
    [
      'an inclusive tax',
      order([incl(1000, 7)]),
      { inclusiveTaxMinor: 65, exclusiveTaxMinor: 0, taxTotalMinor: 65, grandTotalMinor: 1000 },
    ],
    // 19 % on 10.00 = 190, added: 1190.
    [
      'an exclusive tax',
      order([excl(1000, 19)]),
      { inclusiveTaxMinor: 0, exclusiveTaxMinor: 190, taxTotalMinor: 190, grandTotalMinor: 1190 },
    ],
    // Pizza 12.00 incl. 7 %: 1200 × 7 / 107 = 78.50… → 79. Two colas 2.50 excl. 19 %: 500 × 0.19 = 95.
    // Total 1700 + 95 = 1795.
    [
      'mixed inclusive and exclusive lines',
      order([incl(1200, 7), excl(250, 19, 2)]),
      { subtotalMinor: 1700, inclusiveTaxMinor: 79, exclusiveTaxMinor: 95, taxTotalMinor: 174, grandTotalMinor: 1795 },
    ],
    // 10 % of 10.05 = 100.5 → 101 (half up); 1005 − 101 = 904.
    [
      'a percentage discount on a half cent',
      order([untaxed(1005)], { promotion: { kind: 'percentage', percent: 10 } }),
      { discountMinor: 101, grandTotalMinor: 904 },
    ],
    // A 15.00 voucher on 10.00 is capped at 1000; nothing is left to tax; total 0.
    [
      'a fixed discount above the subtotal',
      order([incl(1000, 7)], { promotion: { kind: 'fixed', amountMinor: 1500 } }),
      { discountMinor: 1000, inclusiveTaxMinor: 0, taxTotalMinor: 0, grandTotalMinor: 0 },
    ],
    // 10 % off 17.00 = 170; goods 1530. The pizza's share 1200 × 1530 / 1700 = 1080 contains
    // 1080 × 7 / 107 = 70.65… → 71; the colas' share 500 × 1530 / 1700 = 450 adds 450 × 0.19 = 85.5 → 86.
    // Service fee 50 + 2 % of 1530 (30.6 → 31) = 81; delivery 250. Total 1530 + 86 + 250 + 81 = 1947.
    [
      'a discount spread over lines with different taxes, and both fees',
      order([incl(1200, 7), excl(250, 19, 2)], {
        promotion: { kind: 'percentage', percent: 10 },
        deliveryFeeMinor: 250,
        serviceFee: { fixedMinor: 50, percent: 2 },
      }),
      {
        subtotalMinor: 1700,
        discountMinor: 170,
        inclusiveTaxMinor: 71,
        exclusiveTaxMinor: 86,
        taxTotalMinor: 157,
        deliveryFeeMinor: 250,
        serviceFeeMinor: 81,
        grandTotalMinor: 1947,
      },
    ],
    // 0.05 at 10 % (0.5) and 0.05 at 30 % (1.5): rounding per line would give 1 + 2 = 3; the exact
    // sum 2.0 is rounded once: 2. Total 10 + 2 = 12.
    [
      'one rounding of the summed exclusive taxes, not one per line',
      order([excl(5, 10), excl(5, 30)]),
      { exclusiveTaxMinor: 2, grandTotalMinor: 12 },
    ],
    // Three 10.00 lines incl. 7 %: per line 65.42… → 65, three times 195; the exact sum
    // 3000 × 7 / 107 = 196.26… → 196.
    [
      'one rounding of the summed inclusive taxes, not one per line',
      order([incl(1000, 7), incl(1000, 7), incl(1000, 7)]),
      { inclusiveTaxMinor: 196, grandTotalMinor: 3000 },
    ],
    // Exactly on the half: 19 % of 0.50 = 9.5 → 10. Total 60.
    ['a tax exactly on a half cent', order([excl(50, 19)]), { exclusiveTaxMinor: 10, grandTotalMinor: 60 }],
    // 0.99 + 2.5 % of 19.99 (49.975 → 50) = 149. Total 1999 + 149 = 2148.
    [
      'a service fee, fixed plus a percentage',
      order([untaxed(1999)], { serviceFee: { fixedMinor: 99, percent: 2.5 } }),
      { serviceFeeMinor: 149, grandTotalMinor: 2148 },
    ],
    // 2 % of 10.25 = 20.5 → 21, exactly on the half.
    [
      'a service fee percentage on a half cent',
      order([untaxed(1025)], { serviceFee: { fixedMinor: 0, percent: 2 } }),
      { serviceFeeMinor: 21, grandTotalMinor: 1046 },
    ],
    // The delivery fee is added as is and carries no tax: 19 % of 1000 only = 190; 1000 + 190 + 299.
    [
      'a delivery fee, untaxed',
      order([excl(1000, 19)], { deliveryFeeMinor: 299 }),
      { exclusiveTaxMinor: 190, deliveryFeeMinor: 299, grandTotalMinor: 1489 },
    ],
    // Nothing to tax or discount; the service fee's fixed part and the delivery fee remain: 50 + 100.
    [
      'a zero subtotal',
      order([incl(0, 7), excl(0, 19)], {
        promotion: { kind: 'percentage', percent: 50 },
        deliveryFeeMinor: 100,
        serviceFee: { fixedMinor: 50, percent: 10 },
      }),
      {
        subtotalMinor: 0,
        discountMinor: 0,
        taxTotalMinor: 0,
        deliveryFeeMinor: 100,
        serviceFeeMinor: 50,
        grandTotalMinor: 150,
      },
    ],
    ['no lines at all', order([]), { lines: [], subtotalMinor: 0, taxTotalMinor: 0, grandTotalMinor: 0 }],
    // 8.875 % of 10.00 = 88.75 → 89.
    ['a tax rate with three decimals', order([excl(1000, 8.875)]), { exclusiveTaxMinor: 89, grandTotalMinor: 1089 }],
    // 12.3456 % of 100.00 = 1234.56 → 1235 (12.3456 × 10 000 is 123455.99999999999 as a float).
    [
      'a tax rate with four decimals',
      order([excl(10_000, 12.3456)]),
      { exclusiveTaxMinor: 1235, grandTotalMinor: 11_235 },
    ],
    // 999 × 999.99 = 998,990.01; 19 % = 18,980,810.19 → 18,980,810; total 99,899,001 + 18,980,810.
    [
      'a large order, exclusive tax',
      order([excl(99_999, 19, 999)]),
      { subtotalMinor: 99_899_001, exclusiveTaxMinor: 18_980_810, grandTotalMinor: 118_879_811 },
    ],
    // 999 × 99,999 = 99,899,001 incl. 19 %, 3.33 % off: 99,899,001 × 333 / 10,000 = 3,326,636.73… →
    // 3,326,637; goods 96,572,364, containing 96,572,364 × 19 / 119 = 15,419,116.94… → 15,419,117.
    // (The exact numerator, 99,899,001 × 96,572,364 × 190,000 ≈ 1.8e21, is far beyond 2^53.)
    [
      'a large order with a discount, inclusive tax, exactly',
      order([{ ...incl(99_999, 19, 999), modifierPricesMinor: [0] }], {
        promotion: { kind: 'percentage', percent: 3.33 },
      }),
      {
        lines: [{ unitPriceMinor: 99_999, lineTotalMinor: 99_899_001, modifierTotalsMinor: [0] }],
        subtotalMinor: 99_899_001,
        discountMinor: 3_326_637,
        inclusiveTaxMinor: 15_419_117,
        grandTotalMinor: 96_572_364,
      },
    ],
  ])('%s', (_name, input, expected) => {
    expect(priceOrder(input)).toMatchObject(expected);
  });

  it.each<[string, PricingInput]>([
    ['a promotion of 100 %', order([excl(1000, 19)], { promotion: { kind: 'percentage', percent: 100 } })],
    ['a tax rate of 0 %', order([excl(1000, 0)])],
    ['a service fee of 100 %', order([untaxed(1000)], { serviceFee: { fixedMinor: 0, percent: 100 } })],
  ])('accepts the edge of a range: %s', (_name, input) => {
    expect(() => priceOrder(input)).not.toThrow();
  });

  it.each<[string, PricingInput]>([
    ['a quantity of 0', order([untaxed(100, 0)])],
    ['a fractional quantity', order([untaxed(100, 1.5)])],
    ['a negative price', order([untaxed(-1)])],
    ['a fractional price', order([untaxed(1.5)])],
    ['a price that is not a number', order([untaxed(NaN)])],
    ['a negative option price', order([untaxed(100, 1, [-5])])],
    ['a promotion of 0 %', order([untaxed(100)], { promotion: { kind: 'percentage', percent: 0 } })],
    ['a promotion over 100 %', order([untaxed(100)], { promotion: { kind: 'percentage', percent: 100.01 } })],
    [
      'a promotion percent with three decimals',
      order([untaxed(100)], { promotion: { kind: 'percentage', percent: 12.345 } }),
    ],
    ['a fixed promotion of 0', order([untaxed(100)], { promotion: { kind: 'fixed', amountMinor: 0 } })],
    ['a fractional fixed promotion', order([untaxed(100)], { promotion: { kind: 'fixed', amountMinor: 2.5 } })],
    ['a tax rate with five decimals', order([excl(100, 7.12345)])],
    ['a negative tax rate', order([excl(100, -7)])],
    ['a tax rate over 100 %', order([incl(100, 101)])],
    ['a service fee over 100 %', order([untaxed(100)], { serviceFee: { fixedMinor: 0, percent: 101 } })],
    [
      'a service fee percent with three decimals',
      order([untaxed(100)], { serviceFee: { fixedMinor: 0, percent: 1.005 } }),
    ],
    [
      'a service fee percent that is not a number',
      order([untaxed(100)], { serviceFee: { fixedMinor: 0, percent: NaN } }),
    ],
    ['a negative fixed service fee', order([untaxed(100)], { serviceFee: { fixedMinor: -1, percent: 0 } })],
    ['a negative delivery fee', order([untaxed(100)], { deliveryFeeMinor: -1 })],
    ['a total beyond the safe integers', order([untaxed(2 ** 30, 2 ** 30)])],
  ])('refuses %s (RangeError: callers validate first)', (_name, input) => {
    expect(() => priceOrder(input)).toThrow(RangeError);
  });
});

describe('priceOrder on generated orders', () => {
  // mulberry32: a small seeded generator, so every run sees the same orders.
  const generator = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };

  // An independent reading of the rule: every line's tax is its own fraction, summed without
  // grouping or common factors, rounded with quotient and remainder.
  const round = (n: bigint, d: bigint) => n / d + (2n * (n % d) >= d ? 1n : 0n);
  const reference = (input: PricingInput) => {
    const totals = input.lines.map(
      (l) => BigInt(l.quantity) * BigInt(l.modifierPricesMinor.reduce((s, p) => s + p, l.variantPriceMinor)),
    );
    const subtotal = totals.reduce((s, t) => s + t, 0n);
    const promotion = input.promotion;
    const wanted =
      promotion === null
        ? 0n
        : promotion.kind === 'fixed'
          ? BigInt(promotion.amountMinor)
          : round(subtotal * BigInt(Math.round(promotion.percent * 100)), 10_000n);
    const discount = wanted < subtotal ? wanted : subtotal;
    const tax = { inclusive: [0n, 1n], exclusive: [0n, 1n] };
    input.lines.forEach((line, i) => {
      if (!line.tax || subtotal === 0n) return;
      const r = BigInt(Math.round(line.tax.ratePercent * 10_000));
      const [n, d] = [
        totals[i]! * (subtotal - discount) * r,
        subtotal * (line.tax.inclusive ? 1_000_000n + r : 1_000_000n),
      ];
      const sum = line.tax.inclusive ? tax.inclusive : tax.exclusive;
      [sum[0], sum[1]] = [sum[0]! * d + n * sum[1]!, sum[1]! * d];
    });
    const exclusiveTax = round(tax.exclusive[0]!, tax.exclusive[1]!);
    const serviceFee =
      BigInt(input.serviceFee.fixedMinor) +
      round((subtotal - discount) * BigInt(Math.round(input.serviceFee.percent * 100)), 10_000n);
    return {
      subtotalMinor: Number(subtotal),
      discountMinor: Number(discount),
      inclusiveTaxMinor: Number(round(tax.inclusive[0]!, tax.inclusive[1]!)),
      exclusiveTaxMinor: Number(exclusiveTax),
      serviceFeeMinor: Number(serviceFee),
      grandTotalMinor: Number(subtotal - discount + exclusiveTax + BigInt(input.deliveryFeeMinor) + serviceFee),
    };
  };

  it('match the documented rule, grand total included, on 500 seeded orders', () => {
    const random = generator(20_240_611);
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(values: T[]) => values[int(values.length)]!;
    const shapes = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const lines = Array.from({ length: 1 + int(8) }, () => ({
        ...untaxed(
          int(20_000),
          1 + pick([0, 0, 1, 4, 98]),
          Array.from({ length: int(4) }, () => int(500)),
        ),
        tax:
          int(4) === 0
            ? null
            : { ratePercent: pick([0, 5.5, 7, 7.7, 8.875, 12.3456, 19, 21]), inclusive: int(2) === 0 },
      }));
      const promotion = pick([
        null,
        { kind: 'percentage' as const, percent: (1 + int(10_000)) / 100 },
        { kind: 'fixed' as const, amountMinor: 1 + int(50_000) },
      ]);
      const input = order(lines, {
        promotion,
        deliveryFeeMinor: int(1000),
        serviceFee: { fixedMinor: int(200), percent: int(1500) / 100 },
      });
      const p = priceOrder(input);
      shapes.add(`${lines.length}:${promotion?.kind}:${lines.map((l) => l.tax?.inclusive).join()}`);

      expect(p).toMatchObject(reference(input));
      expect(p.grandTotalMinor).toBe(
        p.subtotalMinor - p.discountMinor + p.exclusiveTaxMinor + p.deliveryFeeMinor + p.serviceFeeMinor,
      );
      expect(p.taxTotalMinor).toBe(p.inclusiveTaxMinor + p.exclusiveTaxMinor);
      expect(p.subtotalMinor).toBe(p.lines.reduce((s, l) => s + l.lineTotalMinor, 0));
      expect(p.discountMinor).toBeLessThanOrEqual(p.subtotalMinor);
    }
    // The generator really varies the orders (a float LCG past 2^53 once made nearly all of them alike).
    expect(shapes.size).toBeGreaterThan(300);
  });
});
