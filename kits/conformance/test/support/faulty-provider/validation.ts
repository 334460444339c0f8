import { CREATE_LIMITS, isRfc3339 } from '../../../src/spec';

/**
 * The contract's field table ("Create delivery request"; the update request reuses its types and
 * limits). A check answers the problem with a value, or undefined when it is fine.
 */
export type FieldErrors = Record<string, string[]>;
type Check = (value: unknown) => string | undefined;

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
// Characters, not UTF-16 units: a limit of 200 allows 200 accented letters or emoji.
const characters = (value: string): number => [...value].length;

const text =
  (max: number, nonBlank = false): Check =>
  (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (nonBlank && value.trim() === '') return 'must not be blank';
    return characters(value) > max ? `must be at most ${max} characters` : undefined;
  };
const coordinate =
  (bound: number): Check =>
  (value) => {
    if (!isNumber(value)) return 'must be a number';
    return Math.abs(value) > bound ? `must be between -${bound} and ${bound}` : undefined;
  };
const money: Check = (value) => {
  if (!isNumber(value)) return 'must be a number';
  if (value < 0 || value > CREATE_LIMITS.amountMax) return `must be between 0 and ${CREATE_LIMITS.amountMax}`;
  return Number(value.toFixed(2)) === value ? undefined : 'must have at most two decimal places';
};
const currency: Check = (value) =>
  typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? undefined : 'must be 3 uppercase letters';
const minutes: Check = (value) =>
  Number.isInteger(value) && (value as number) >= 0 ? undefined : 'must be an integer, 0 or more';
const dateTime: Check = (value) => (isRfc3339(value) ? undefined : 'must be an RFC 3339 date-time with an offset');

/** Loopback hosts may take plain HTTP: the kit's callback receiver runs on this machine. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** "Per-delivery callback": absolute HTTPS, at most 2,048 characters, no credentials, no fragment, standard port. */
export const checkCallbackUrl: Check = (value) => {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > CREATE_LIMITS.callbackUrl) return `must be at most ${CREATE_LIMITS.callbackUrl} characters`;
  if (value.includes('#')) return 'must not have a fragment';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not embed credentials';
  const loopback = LOOPBACK.has(url.hostname);
  if (url.protocol === 'https:') return loopback || url.port === '' ? undefined : 'must use the standard HTTPS port';
  return url.protocol === 'http:' && loopback ? undefined : 'must be an https URL';
};

const CREATE_FIELDS: Record<string, { check: Check; required: boolean }> = {
  platformReference: { check: text(CREATE_LIMITS.platformReference, true), required: true },
  idempotencyKey: { check: text(CREATE_LIMITS.idempotencyKey, true), required: true },
  pickupAddress: { check: text(CREATE_LIMITS.pickupAddress), required: true },
  pickupLat: { check: coordinate(90), required: true },
  pickupLng: { check: coordinate(180), required: true },
  customerName: { check: text(CREATE_LIMITS.customerName), required: true },
  customerPhone: { check: text(CREATE_LIMITS.customerPhone), required: true },
  dropoffAddress: { check: text(CREATE_LIMITS.dropoffAddress), required: true },
  dropoffLat: { check: coordinate(90), required: true },
  dropoffLng: { check: coordinate(180), required: true },
  paymentMethod: { check: text(CREATE_LIMITS.paymentMethod), required: true },
  amount: { check: money, required: true },
  deliveryFeeAmount: { check: money, required: false },
  currency: { check: currency, required: true },
  notes: { check: text(CREATE_LIMITS.notes), required: false },
  preparationTimeMinutes: { check: minutes, required: true },
  scheduledDeliveryAtUtc: { check: dateTime, required: false },
};

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const addError = (errors: FieldErrors, field: string, message: string): void => {
  (errors[field] ??= []).push(message);
};

/** Every problem of a create request (fields the table does not name are ignored: new optional properties are compatible). */
export function validateCreate(body: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, { check, required }] of Object.entries(CREATE_FIELDS)) {
    const value = body[field];
    if (value === undefined || value === null) {
      if (required) addError(errors, field, 'is required');
      continue;
    }
    const problem = check(value);
    if (problem !== undefined) addError(errors, field, problem);
  }
  const webhook = body.webhook;
  if (webhook !== undefined && webhook !== null) {
    if (!isPlainObject(webhook)) addError(errors, 'webhook', 'must be an object');
    else if (webhook.url !== undefined && webhook.url !== null) {
      const problem = checkCallbackUrl(webhook.url);
      if (problem !== undefined) addError(errors, 'webhook.url', problem);
    }
  }
  return errors;
}

/** PATCH fields with their create-table checks; customerEmail's length is not shown, 320 is the address limit of RFC 5321. */
export const UPDATE_CHECKS: Record<string, Check> = {
  dropoffAddress: text(CREATE_LIMITS.dropoffAddress),
  dropoffLat: coordinate(90),
  dropoffLng: coordinate(180),
  customerPhone: text(CREATE_LIMITS.customerPhone),
  customerName: text(CREATE_LIMITS.customerName),
  customerEmail: text(320),
  notes: text(CREATE_LIMITS.notes),
  amount: money,
  currency,
  paymentMethod: text(CREATE_LIMITS.paymentMethod),
  deliveryFeeAmount: money,
  preparationTimeMinutes: minutes,
  scheduledDeliveryAtUtc: dateTime,
};
export const DROPOFF_FIELDS = ['dropoffAddress', 'dropoffLat', 'dropoffLng'] as const;

/** Problems of a PATCH body's non-null values, and the drop-off trio sent together or not at all. */
export function validateUpdate(body: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, value] of Object.entries(body)) {
    const check = UPDATE_CHECKS[field];
    if (check === undefined || value === null || value === undefined) continue;
    const problem = check(value);
    if (problem !== undefined) addError(errors, field, problem);
  }
  const sent = DROPOFF_FIELDS.filter((field) => body[field] !== undefined && body[field] !== null);
  if (sent.length > 0 && sent.length < DROPOFF_FIELDS.length) {
    for (const field of DROPOFF_FIELDS)
      addError(errors, field, 'dropoffAddress, dropoffLat and dropoffLng are sent together');
  }
  return errors;
}
