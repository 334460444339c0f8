/**
 * Money: the API shows amounts in the currency's major unit as a number (`9.5` is EUR 9.50); the
 * service stores and publishes integer minor units, so no amount ever drifts by a rounding step.
 */

const decimalsCache = new Map<string, number>();

/** Decimals of an ISO 4217 currency (2 for EUR, 0 for JPY, 3 for KWD), from the runtime's ICU data. */
export function currencyDecimals(currencyCode: string): number {
  let decimals = decimalsCache.get(currencyCode);
  if (decimals === undefined) {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions().maximumFractionDigits ?? 2;
    decimalsCache.set(currencyCode, decimals);
  }
  return decimals;
}

/** Largest amount accepted, in major units. */
export const MAX_AMOUNT = 1_000_000;

/**
 * The amount in minor units, or undefined when it is negative, too large, not finite or has more
 * decimals than the currency allows (`9.999` in EUR). Exact: `9.99` is 999, never 998.
 */
export function toMinorUnits(amount: number, decimals: number): number | undefined {
  if (!Number.isFinite(amount) || amount < 0 || amount > MAX_AMOUNT) return undefined;
  if (Number(amount.toFixed(decimals)) !== amount) return undefined;
  return Math.round(amount * 10 ** decimals);
}

/** Minor units back to the major-unit number the API shows (999 → 9.99). */
export function fromMinorUnits(minor: number, decimals: number): number {
  return Number((minor / 10 ** decimals).toFixed(decimals));
}

/** A tax rate in percent: 0 to 100 with at most 4 decimals. */
export function validTaxRate(rate: number): boolean {
  return Number.isFinite(rate) && rate >= 0 && rate <= 100 && Number(rate.toFixed(4)) === rate;
}
