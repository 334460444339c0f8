import { CREATE_LIMITS } from '../../spec';
import { identifiers, uniqueOfLength } from './requests-calls';

/**
 * The create requests of SDP-CREATE-03/04/05: one case per broken (or exact) limit of the
 * "Create delivery request" table, each a set of overrides of a valid request.
 */

export interface RequestCase {
  what: string;
  overrides: Record<string, unknown>;
}

/** String fields with their maximum length (the identifiers are handled together, see `identifiers`). */
const STRING_LIMITS: ReadonlyArray<[string, number]> = [
  ['pickupAddress', CREATE_LIMITS.pickupAddress],
  ['customerName', CREATE_LIMITS.customerName],
  ['customerPhone', CREATE_LIMITS.customerPhone],
  ['dropoffAddress', CREATE_LIMITS.dropoffAddress],
  ['paymentMethod', CREATE_LIMITS.paymentMethod],
  ['notes', CREATE_LIMITS.notes],
];

/** A phone number of exactly `length` characters (groups of digits, so only its length can be wrong). */
const phoneOfLength = (length: number): string => `+49 ${'30 1234 5678 '.repeat(5)}`.slice(0, length - 1) + '9';

function ofLength(field: string, length: number): unknown {
  if (field === 'customerPhone') return phoneOfLength(length);
  // An address or a name of letters and spaces, as a person would write it, at the length wanted.
  return 'Long text '.repeat(Math.ceil(length / 10)).slice(0, length);
}

const tooLong = (): RequestCase[] => [
  {
    what: `platformReference of ${CREATE_LIMITS.platformReference + 1} characters`,
    overrides: identifiers(uniqueOfLength('ref', CREATE_LIMITS.platformReference + 1)),
  },
  {
    what: `idempotencyKey of ${CREATE_LIMITS.idempotencyKey + 1} characters`,
    overrides: { idempotencyKey: uniqueOfLength('key', CREATE_LIMITS.idempotencyKey + 1) },
  },
  ...STRING_LIMITS.map(([field, max]) => ({
    what: `${field} of ${max + 1} characters`,
    overrides: { [field]: ofLength(field, max + 1) },
  })),
];

const outOfRange = (): RequestCase[] => [
  ...['pickupLat', 'dropoffLat'].flatMap((field) =>
    [90.000001, -90.000001].map((value) => ({ what: `${field} ${value}`, overrides: { [field]: value } })),
  ),
  ...['pickupLng', 'dropoffLng'].flatMap((field) =>
    [180.000001, -180.000001].map((value) => ({ what: `${field} ${value}`, overrides: { [field]: value } })),
  ),
  ...['amount', 'deliveryFeeAmount'].flatMap((field) =>
    [
      [10.005, 'with 3 decimals'],
      [-1, 'negative'],
      [10_000_000_000, 'above 9,999,999,999.99'],
    ].map(([value, why]) => ({ what: `${field} ${value} (${why})`, overrides: { [field]: value } })),
  ),
  { what: "currency 'eur'", overrides: { currency: 'eur' } },
  { what: "currency 'EURO'", overrides: { currency: 'EURO' } },
  { what: 'preparationTimeMinutes -1', overrides: { preparationTimeMinutes: -1 } },
  { what: 'preparationTimeMinutes 1.5', overrides: { preparationTimeMinutes: 1.5 } },
  { what: "amount as a string ('23.50')", overrides: { amount: '23.50' } },
  { what: 'customerName as a number (12345)', overrides: { customerName: 12345 } },
];

/** SDP-CREATE-03: every limit broken, one request each. */
export const brokenLimitCases = (): RequestCase[] => [...tooLong(), ...outOfRange()];

/** SDP-CREATE-04: values exactly at the limits, one request each. */
export const atLimitCases = (): RequestCase[] => [
  {
    what: `platformReference and idempotencyKey of ${CREATE_LIMITS.platformReference} characters`,
    overrides: identifiers(uniqueOfLength('ref', CREATE_LIMITS.platformReference)),
  },
  // paymentMethod is left out: beyond cash, card, online and wallet it is "an agreed raw value",
  // which a provider may refuse (422) whatever its length.
  ...STRING_LIMITS.filter(([field]) => field !== 'paymentMethod').map(([field, max]) => ({
    what: `${field} of ${max} characters`,
    overrides: { [field]: ofLength(field, max) },
  })),
  { what: 'amount 0', overrides: { amount: 0 } },
  { what: `amount ${CREATE_LIMITS.amountMax}`, overrides: { amount: CREATE_LIMITS.amountMax } },
  { what: 'deliveryFeeAmount 0', overrides: { deliveryFeeAmount: 0 } },
  { what: `deliveryFeeAmount ${CREATE_LIMITS.amountMax}`, overrides: { deliveryFeeAmount: CREATE_LIMITS.amountMax } },
  { what: 'preparationTimeMinutes 0', overrides: { preparationTimeMinutes: 0 } },
  {
    what: 'null optional fields (deliveryFeeAmount, notes, scheduledDeliveryAtUtc, webhook.url)',
    overrides: { deliveryFeeAmount: null, notes: null, scheduledDeliveryAtUtc: null, webhook: { url: null } },
  },
];

/** SDP-CREATE-05: callback URLs the contract refuses ("Per-delivery callback"). */
export function badCallbackCases(): RequestCase[] {
  const long = 'https://example.com/cb/';
  const url2049 = long + 'a'.repeat(CREATE_LIMITS.callbackUrl + 1 - long.length);
  return [
    { what: 'callback http://example.com/cb (not https)', url: 'http://example.com/cb' },
    { what: 'callback https://user:pw@example.com/cb (embedded credentials)', url: 'https://user:pw@example.com/cb' },
    { what: 'callback https://example.com/cb#frag (a fragment)', url: 'https://example.com/cb#frag' },
    { what: 'callback /cb (relative)', url: '/cb' },
    { what: `an https callback of ${url2049.length} characters`, url: url2049 },
  ].map(({ what, url }) => ({ what, overrides: { webhook: { url } } }));
}
