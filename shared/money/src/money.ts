/**
 * Money: the API shows amounts in the currency's major unit as a number (`9.5` is EUR 9.50); the
 * service stores and publishes integer minor units, so no amount ever drifts by a rounding step.
 */

/**
 * ISO 4217 minor units that are not 2. (The runtime's Intl data gives display digits instead, which
 * differ for some currencies: IQD 0 instead of 3, HUF and IDR 0 instead of 2.)
 */
const ISO_MINOR_UNITS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Decimals of an ISO 4217 currency: its minor unit (2 for EUR, 0 for JPY, 3 for KWD). */
export function currencyDecimals(currencyCode: string): number {
  return ISO_MINOR_UNITS[currencyCode] ?? 2;
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
