import { priceOrder, roundHalfUp, type LineToPrice, type PricingInput } from './pricing';

const untaxed = (variantPriceMinor: number, quantity = 1, modifierPricesMinor: number[] = []): LineToPrice => ({ quantity, variantPriceMinor, modifierPricesMinor, tax: null });
const incl = (rate: number) => ({ ratePercent: rate, inclusive: true });
const excl = (rate: number) => ({ ratePercent: rate, inclusive: false });
const order = (lines: LineToPrice[], rest: Partial<PricingInput> = {}): PricingInput => ({ lines, promotion: null, deliveryFeeMinor: 0, serviceFee: { fixedMinor: 0, percent: 0 }, ...rest });

describe('roundHalfUp', () => {
  it.each([
    [1n, 2n, 1n], // 0.5 → 1
    [3n, 2n, 2n], // 1.5 → 2
    [149n, 100n, 1n], // 1.49 → 1
    [0n, 7n, 0n],
  ])('%p / %p = %p', (n, d, expected) => expect(roundHalfUp(n, d)).toBe(expected));
});

describe('priceOrder (hand-checked figures, minor units)', () => {
  it.each<[string, PricingInput, Record<string, number>]>([
    ['one untaxed line', order([untaxed(1000)]), { subtotalMinor: 1000, discountMinor: 0, taxTotalMinor: 0, grandTotalMinor: 1000 }],
    // 7 % contained in 10.00: 1000 × 7 / 107 = 65.42… → 65; the total stays 10.00.
    ['an inclusive tax', order([{ ...untaxed(1000), tax: incl(7) }]), { inclusiveTaxMinor: 65, exclusiveTaxMinor: 0, taxTotalMinor: 65, grandTotalMinor: 1000 }],
    // 19 % on 10.00 = 1.90, added.
    ['an exclusive tax', order([{ ...untaxed(1000), tax: excl(19) }]), { exclusiveTaxMinor: 190, taxTotalMinor: 190, grandTotalMinor: 1190 }],
    // Pizza 12.00 incl. 7 % (78.50… → 79) and two colas 2.50 excl. 19 % (95): total 17.95.
    ['mixed inclusive and exclusive lines', order([{ ...untaxed(1200), tax: incl(7) }, { ...untaxed(250, 2), tax: excl(19) }]), { subtotalMinor: 1700, inclusiveTaxMinor: 79, exclusiveTaxMinor: 95, taxTotalMinor: 174, grandTotalMinor: 1795 }],
    // 10 % of 10.05 = 100.5 → 101 (half up).
    ['a percentage discount on a half cent', order([untaxed(1005)], { promotion: { kind: 'percentage', percent: 10 } }), { discountMinor: 101, grandTotalMinor: 904 }],
    // A 15.00 voucher on 10.00: the discount is capped, taxes and total are 0.
    ['a fixed discount above the subtotal', order([{ ...untaxed(1000), tax: incl(7) }], { promotion: { kind: 'fixed', amountMinor: 1500 } }), { discountMinor: 1000, taxTotalMinor: 0, grandTotalMinor: 0 }],
    // 10 % off 17.00 = 170; goods 1530. The pizza's share 1200 × 1530/1700 = 1080 carries
    // 1080 × 7/107 = 70.65… → 71 inclusive; the colas' share 450 carries 450 × 0.19 = 85.5 → 86.
    // Service fee 50 + 2 % of 1530 (30.6 → 31) = 81; delivery 250. Total 1530 + 86 + 250 + 81 = 1947.
    [
      'a discount spread over lines with different taxes, and both fees',
      order([{ ...untaxed(1200), tax: incl(7) }, { ...untaxed(250, 2), tax: excl(19) }], { promotion: { kind: 'percentage', percent: 10 }, deliveryFeeMinor: 250, serviceFee: { fixedMinor: 50, percent: 2 } }),
      { subtotalMinor: 1700, discountMinor: 170, inclusiveTaxMinor: 71, exclusiveTaxMinor: 86, taxTotalMinor: 157, deliveryFeeMinor: 250, serviceFeeMinor: 81, grandTotalMinor: 1947 },
    ],
    // 0.05 at 10 % (0.5) and 0.05 at 30 % (1.5): rounding per line would give 1 + 2 = 3; the
    // exact sum 2.0 is rounded once: 2.
    ['one rounding of the summed taxes, not one per line', order([{ ...untaxed(5), tax: excl(10) }, { ...untaxed(5), tax: excl(30) }]), { exclusiveTaxMinor: 2, grandTotalMinor: 12 }],
    // Exactly on the half: 19 % of 0.50 = 9.5 → 10.
    ['a tax exactly on a half cent', order([{ ...untaxed(50), tax: excl(19) }]), { exclusiveTaxMinor: 10, grandTotalMinor: 60 }],
    // 0.99 + 2.5 % of 19.99 (49.975 → 50) = 1.49.
    ['a service fee, fixed plus a percentage', order([untaxed(1999)], { serviceFee: { fixedMinor: 99, percent: 2.5 } }), { serviceFeeMinor: 149, grandTotalMinor: 2148 }],
    ['a zero subtotal with a fixed service fee', order([{ ...untaxed(0), tax: incl(7) }], { serviceFee: { fixedMinor: 50, percent: 10 } }), { subtotalMinor: 0, taxTotalMinor: 0, serviceFeeMinor: 50, grandTotalMinor: 50 }],
    // 8.875 % of 10.00 = 88.75 → 89.
    ['a tax rate with three decimals', order([{ ...untaxed(1000), tax: excl(8.875) }]), { exclusiveTaxMinor: 89, grandTotalMinor: 1089 }],
    // 999 × 999.99 = 998,990.01; 19 % = 189,808.1019 → 189,808.10 (exact in BigInt).
    ['a large order, exactly', order([{ ...untaxed(99_999, 999), tax: excl(19) }]), { subtotalMinor: 99_899_001, exclusiveTaxMinor: 18_980_810, grandTotalMinor: 118_879_811 }],
  ])('%s', (_name, input, expected) => {
    expect(priceOrder(input)).toMatchObject(expected);
  });

  it('prices each line: unit = variant + options, totals × quantity', () => {
    const { lines } = priceOrder(order([untaxed(1200, 3, [150, 100, 0])]));
    expect(lines).toEqual([{ unitPriceMinor: 1450, lineTotalMinor: 4350, modifierTotalsMinor: [450, 300, 0] }]);
  });

  it.each<[string, PricingInput]>([
    ['a quantity of 0', order([untaxed(100, 0)])],
    ['a negative price', order([untaxed(-1)])],
    ['a fractional amount', order([untaxed(1.5)])],
    ['a promotion of 0 %', order([untaxed(100)], { promotion: { kind: 'percentage', percent: 0 } })],
    ['a tax rate with five decimals', order([{ ...untaxed(100), tax: excl(7.12345) }])],
    ['a service fee over 100 %', order([untaxed(100)], { serviceFee: { fixedMinor: 0, percent: 101 } })],
  ])('refuses %s (RangeError: callers validate first)', (_name, input) => {
    expect(() => priceOrder(input)).toThrow(RangeError);
  });

  it('keeps the documented identities on a few hundred generated orders', () => {
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 300; i++) {
      const lines = Array.from({ length: 1 + next(10) }, () => ({
        ...untaxed(next(5000), 1 + next(5), Array.from({ length: next(4) }, () => next(300))),
        tax: next(3) === 0 ? null : { ratePercent: [7, 19, 8.875, 0][next(4)]!, inclusive: next(2) === 0 },
      }));
      const promotion = [null, { kind: 'percentage' as const, percent: 1 + next(100) }, { kind: 'fixed' as const, amountMinor: 1 + next(3000) }][next(3)]!;
      const p = priceOrder(order(lines, { promotion, deliveryFeeMinor: next(500), serviceFee: { fixedMinor: next(100), percent: next(5) } }));
      expect(p.discountMinor).toBeLessThanOrEqual(p.subtotalMinor);
      expect(p.taxTotalMinor).toBe(p.inclusiveTaxMinor + p.exclusiveTaxMinor);
      expect(p.grandTotalMinor).toBe(p.subtotalMinor - p.discountMinor + p.exclusiveTaxMinor + p.deliveryFeeMinor + p.serviceFeeMinor);
      expect(p.subtotalMinor).toBe(p.lines.reduce((s, l) => s + l.lineTotalMinor, 0));
    }
  });
});
