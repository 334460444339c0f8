/**
 * The pricing rule. Money is integer minor units of the tenant's currency. Every reported figure
 * is computed exactly (fractions in BigInt) and rounded once, half up, to the minor unit:
 *
 * 1. unit price = variant price + every selected option's price; line total = unit × quantity;
 *    subtotal = Σ line totals. (Exact integers.)
 * 2. discount: a percentage of the subtotal, rounded once; or a fixed amount. Never more than the
 *    subtotal.
 * 3. taxes, on each line's share of the discounted goods, base = line × (subtotal − discount) /
 *    subtotal: an inclusive rate r is contained in it, base × r / (100 + r); an exclusive rate is
 *    added to it, base × r / 100. The inclusive taxes of all lines are summed exactly and rounded
 *    once; the exclusive ones likewise; taxTotal = inclusive + exclusive.
 * 4. service fee = fixed + the percentage of (subtotal − discount), rounded once. Fees carry no tax.
 * 5. grand total = subtotal − discount + exclusive tax + delivery fee + service fee (inclusive tax
 *    is already in the prices).
 */
export interface TaxRule {
  /** Percent, e.g. 19 or 7.5; up to 4 decimals. */
  ratePercent: number;
  inclusive: boolean;
}

export interface LineToPrice {
  quantity: number;
  variantPriceMinor: number;
  /** One per selected option, nested selections included. */
  modifierPricesMinor: number[];
  /** The product's tax category; null when untaxed. */
  tax: TaxRule | null;
}

export type PromotionEffect = { kind: 'percentage'; percent: number } | { kind: 'fixed'; amountMinor: number };

/** Percent of the discounted subtotal, up to 2 decimals, plus a fixed amount. */
export interface ServiceFeeRule {
  fixedMinor: number;
  percent: number;
}

export interface PricingInput {
  lines: LineToPrice[];
  promotion: PromotionEffect | null;
  deliveryFeeMinor: number;
  serviceFee: ServiceFeeRule;
}

export interface PricedLine {
  unitPriceMinor: number;
  lineTotalMinor: number;
  modifierTotalsMinor: number[];
}

export interface PriceBreakdown {
  lines: PricedLine[];
  subtotalMinor: number;
  discountMinor: number;
  inclusiveTaxMinor: number;
  exclusiveTaxMinor: number;
  taxTotalMinor: number;
  deliveryFeeMinor: number;
  serviceFeeMinor: number;
  grandTotalMinor: number;
}

/** n / d rounded half up (n ≥ 0, d > 0). */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

const amount = (value: number, what: string) => {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a non-negative integer of minor units`);
  return BigInt(value);
};

/** A percentage with at most `decimals` decimals as an exact integer count of 10^-decimals percent. */
const scaledPercent = (value: number, decimals: number, what: string): bigint => {
  const scaled = Math.round(value * 10 ** decimals);
  if (!Number.isFinite(value) || value < 0 || value > 100 || Math.abs(scaled - value * 10 ** decimals) > 1e-6) throw new RangeError(`${what} must be 0 to 100 with at most ${decimals} decimals`);
  return BigInt(scaled);
};

const toNumber = (value: bigint) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError('amount out of range');
  return n;
};

export function priceOrder(input: PricingInput): PriceBreakdown {
  const lines = input.lines.map((line) => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new RangeError('quantity must be an integer of at least 1');
    const quantity = BigInt(line.quantity);
    const modifiers = line.modifierPricesMinor.map((p) => amount(p, 'modifier price'));
    const unit = modifiers.reduce((sum, p) => sum + p, amount(line.variantPriceMinor, 'variant price'));
    return { unit, total: unit * quantity, modifierTotals: modifiers.map((p) => p * quantity), tax: line.tax };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.total, 0n);

  let discount = 0n;
  if (input.promotion?.kind === 'percentage') {
    if (!(input.promotion.percent > 0)) throw new RangeError('promotion percent must be more than 0');
    discount = roundHalfUp(subtotal * scaledPercent(input.promotion.percent, 2, 'promotion percent'), 10_000n);
  } else if (input.promotion?.kind === 'fixed') {
    discount = amount(input.promotion.amountMinor, 'promotion amount');
  }
  if (discount > subtotal) discount = subtotal;
  const goods = subtotal - discount;

  // Lines of one rate share a denominator, so their totals are summed first; then each kind's
  // exact sum is one fraction n / d (BigInt has no size limit), rounded once at the end.
  const byRate = new Map<string, { r: bigint; inclusive: boolean; total: bigint }>();
  for (const line of lines) {
    if (!line.tax) continue;
    const r = scaledPercent(line.tax.ratePercent, 4, 'tax rate'); // ten-thousandths of a percent
    const key = `${r}:${line.tax.inclusive}`;
    const entry = byRate.get(key) ?? byRate.set(key, { r, inclusive: line.tax.inclusive, total: 0n }).get(key)!;
    entry.total += line.total;
  }
  const sum = { inclusive: [0n, 1n] as [bigint, bigint], exclusive: [0n, 1n] as [bigint, bigint] };
  if (subtotal > 0n) {
    for (const { r, inclusive, total } of byRate.values()) {
      const numerator = total * goods * r;
      const denominator = subtotal * (inclusive ? 1_000_000n + r : 1_000_000n);
      const acc = inclusive ? sum.inclusive : sum.exclusive;
      [acc[0], acc[1]] = [acc[0] * denominator + numerator * acc[1], acc[1] * denominator];
    }
  }
  const inclusiveTax = roundHalfUp(...sum.inclusive);
  const exclusiveTax = roundHalfUp(...sum.exclusive);

  const serviceFee = amount(input.serviceFee.fixedMinor, 'service fee') + roundHalfUp(goods * scaledPercent(input.serviceFee.percent, 2, 'service fee percent'), 10_000n);
  const deliveryFee = amount(input.deliveryFeeMinor, 'delivery fee');
  return {
    lines: lines.map((l) => ({ unitPriceMinor: toNumber(l.unit), lineTotalMinor: toNumber(l.total), modifierTotalsMinor: l.modifierTotals.map(toNumber) })),
    subtotalMinor: toNumber(subtotal),
    discountMinor: toNumber(discount),
    inclusiveTaxMinor: toNumber(inclusiveTax),
    exclusiveTaxMinor: toNumber(exclusiveTax),
    taxTotalMinor: toNumber(inclusiveTax + exclusiveTax),
    deliveryFeeMinor: toNumber(deliveryFee),
    serviceFeeMinor: toNumber(serviceFee),
    grandTotalMinor: toNumber(goods + exclusiveTax + deliveryFee + serviceFee),
  };
}
