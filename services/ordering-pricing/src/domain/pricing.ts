/**
 * The pricing rule (the platform prices orders itself). Money is integer minor units of the
 * tenant's currency. Every reported figure is computed exactly (fractions in BigInt) and rounded
 * once, half up (amounts are non-negative, so away from zero), to the minor unit:
 *
 * 1. unit price = variant price + every selected option's price (nested selections included);
 *    option total = option price × quantity; line total = unit × quantity; subtotal = Σ line
 *    totals. (Exact integers.)
 * 2. discount: a percentage p (≤ 2 decimals, as P = p × 100 hundredths) is subtotal × P / 10 000,
 *    rounded once; or a fixed amount. Either is capped at the subtotal.
 * 3. taxes, on each line's share of the discounted goods, base = line × (subtotal − discount) /
 *    subtotal (0 when the subtotal is 0). With R = the rate in ten-thousandths of a percent
 *    (≤ 4 decimals, so an integer), an inclusive tax is contained in the base, base × R /
 *    (1 000 000 + R); an exclusive one is added to it, base × R / 1 000 000. The inclusive amounts
 *    of all lines are summed exactly and rounded once; the exclusive ones likewise.
 *    taxTotal = inclusive + exclusive.
 * 4. service fee = fixed + (subtotal − discount) × P / 10 000 rounded once. Fees carry no tax.
 * 5. grand total = subtotal − discount + exclusive tax + delivery fee + service fee (inclusive tax
 *    is already in the prices).
 * 6. Invalid input (negative or non-integer amounts, quantity < 1, a percentage outside its range
 *    or with too many decimals) throws a RangeError: callers validate first, so this guards against
 *    programming errors. So does a figure beyond Number.MAX_SAFE_INTEGER.
 */
export interface TaxRule {
  /** Percent, 0 to 100, e.g. 19 or 7.5; up to 4 decimals. */ ratePercent: number;
  inclusive: boolean;
}
export interface LineToPrice {
  quantity: number; // integer ≥ 1
  variantPriceMinor: number;
  modifierPricesMinor: number[]; // one per selected option, nested selections included
  tax: TaxRule | null; // the product's tax category; null when untaxed
}
/** percent: more than 0, at most 100, up to 2 decimals. amountMinor: more than 0. */
export type PromotionEffect = { kind: 'percentage'; percent: number } | { kind: 'fixed'; amountMinor: number };
/** A fixed amount plus a percent (0 to 100, up to 2 decimals) of the discounted subtotal. */
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
  if (numerator < 0n || denominator <= 0n) throw new RangeError('roundHalfUp needs n >= 0 and d > 0');
  // floor((n + d/2) / d), kept in integers by doubling both.
  return (2n * numerator + denominator) / (2n * denominator);
}

const amount = (value: number, what: string, min = 0) => {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`${what} must be an integer of at least ${min}`);
  return BigInt(value);
};

/**
 * A percentage as an exact integer count of 10^-decimals percent. The number arrives as a binary
 * float (19.99 × 100 = 1998.9999999999998), so it is rounded, and refused if it was not that close
 * to an integer: that is what "more decimals than allowed" looks like.
 */
const scaledPercent = (value: number, decimals: number, what: string): bigint => {
  const scaled = value * 10 ** decimals;
  if (!(value >= 0 && value <= 100) || Math.abs(scaled - Math.round(scaled)) > 1e-6)
    throw new RangeError(`${what} must be 0 to 100 with at most ${decimals} decimals`);
  return BigInt(Math.round(scaled));
};

const toNumber = (value: bigint) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError('a priced figure is beyond Number.MAX_SAFE_INTEGER');
  return n;
};

/** A line after step 1, exact: its unit price, its total and each option's total. */
interface LineTotals {
  unit: bigint;
  total: bigint;
  modifierTotals: bigint[];
  tax: TaxRule | null;
}

/** Step 1: each line's unit price and total, and the subtotal (exact integers). */
function priceLines(input: readonly LineToPrice[]): { lines: LineTotals[]; subtotal: bigint } {
  const lines = input.map((line) => {
    const quantity = amount(line.quantity, 'quantity', 1);
    const modifiers = line.modifierPricesMinor.map((p) => amount(p, 'modifier price'));
    const unit = modifiers.reduce((sum, p) => sum + p, amount(line.variantPriceMinor, 'variant price'));
    return { unit, total: unit * quantity, modifierTotals: modifiers.map((p) => p * quantity), tax: line.tax };
  });
  return { lines, subtotal: lines.reduce((sum, l) => sum + l.total, 0n) };
}

/**
 * The subtotal of the lines (step 1), before any discount or fee: what a promotion's minimum and a
 * delivery zone's minimum order are compared with.
 */
export function subtotalOf(lines: readonly LineToPrice[]): number {
  return toNumber(priceLines(lines).subtotal);
}

/** Step 2: the discount, capped at the subtotal. */
function discountOf(promotion: PromotionEffect | null, subtotal: bigint): bigint {
  let discount = 0n;
  if (promotion?.kind === 'percentage') {
    if (!(promotion.percent > 0)) throw new RangeError('promotion percent must be more than 0');
    discount = roundHalfUp(subtotal * scaledPercent(promotion.percent, 2, 'promotion percent'), 10_000n);
  } else if (promotion?.kind === 'fixed') discount = amount(promotion.amountMinor, 'promotion amount', 1);
  return discount > subtotal ? subtotal : discount;
}

/** Step 3: the inclusive and the exclusive tax of the discounted goods, each rounded once. */
function taxesOf(
  lines: readonly LineTotals[],
  subtotal: bigint,
  goods: bigint,
): { inclusive: bigint; exclusive: bigint } {
  // Every base carries the same factor goods / subtotal, so it is applied once to each exact sum.
  // Exclusive amounts then share the denominator 1 000 000 and sum as integers; inclusive ones are
  // added as fractions, lines of one rate grouped first so that the denominator grows with the
  // number of distinct rates, not of lines.
  let exclusive = 0n; // Σ line × R, over 1 000 000
  const inclusiveByRate = new Map<bigint, bigint>(); // R → Σ line totals
  for (const line of lines) {
    if (!line.tax) continue;
    const r = scaledPercent(line.tax.ratePercent, 4, 'tax rate');
    if (line.tax.inclusive) inclusiveByRate.set(r, (inclusiveByRate.get(r) ?? 0n) + line.total);
    else exclusive += line.total * r;
  }
  let [inclusiveN, inclusiveD] = [0n, 1n];
  for (const [r, total] of inclusiveByRate)
    [inclusiveN, inclusiveD] = [inclusiveN * (1_000_000n + r) + total * r * inclusiveD, inclusiveD * (1_000_000n + r)];
  return {
    inclusive: subtotal === 0n ? 0n : roundHalfUp(inclusiveN * goods, inclusiveD * subtotal),
    exclusive: subtotal === 0n ? 0n : roundHalfUp(exclusive * goods, 1_000_000n * subtotal),
  };
}

export function priceOrder(input: PricingInput): PriceBreakdown {
  const { lines, subtotal } = priceLines(input.lines);
  const discount = discountOf(input.promotion, subtotal);
  const goods = subtotal - discount;
  const taxes = taxesOf(lines, subtotal, goods);
  // Step 4.
  const serviceFee =
    amount(input.serviceFee.fixedMinor, 'service fee') +
    roundHalfUp(goods * scaledPercent(input.serviceFee.percent, 2, 'service fee percent'), 10_000n);
  const deliveryFee = amount(input.deliveryFeeMinor, 'delivery fee');
  return {
    lines: lines.map((l) => ({
      unitPriceMinor: toNumber(l.unit),
      lineTotalMinor: toNumber(l.total),
      modifierTotalsMinor: l.modifierTotals.map(toNumber),
    })),
    subtotalMinor: toNumber(subtotal),
    discountMinor: toNumber(discount),
    inclusiveTaxMinor: toNumber(taxes.inclusive),
    exclusiveTaxMinor: toNumber(taxes.exclusive),
    taxTotalMinor: toNumber(taxes.inclusive + taxes.exclusive),
    deliveryFeeMinor: toNumber(deliveryFee),
    serviceFeeMinor: toNumber(serviceFee),
    // Step 5.
    grandTotalMinor: toNumber(goods + taxes.exclusive + deliveryFee + serviceFee),
  };
}

/** No service fee until the tenant sets one. */
export const NO_SERVICE_FEE: ServiceFeeRule = { fixedMinor: 0, percent: 0 };
