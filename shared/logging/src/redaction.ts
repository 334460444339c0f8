/**
 * The one list of what never reaches a log line. Matching is by key name at any depth, ignoring
 * case, dashes and underscores, so `apiSecret`, `api_secret` and `X-Api-Secret` are all caught.
 */
const SECRET_KEYS = [
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'password',
  'secret',
  'apikey',
  'apisecret',
  'keysecret',
  'clientsecret',
  'signingsecret',
  'webhooksecret',
  'webhooksigningsecret',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'callbacktoken',
  'callbackurl',
  'couriertoken',
  // A delivery's public tracking page: whoever has the link sees the driver on the map.
  'trackingtoken',
  'trackingurl',
  'codeverifier',
  'encryptionkey',
  'xmarketplacesignature',
  'xplatformsignature',
  'xprocessorsignature',
  'signature',
];

/** Driver personal data (provider contract: name, phone and position are redacted from logs). */
const PERSONAL_KEYS = [
  'drivername',
  'driverphone',
  'driverlat',
  'driverlng',
  'driver',
  'phone',
  'customerphone',
  'customername',
  'customeremail',
];

const REDACTED_KEYS = new Set([...SECRET_KEYS, ...PERSONAL_KEYS]);
export const REDACTED = '[redacted]';

const normalise = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

export function isRedactedKey(key: string): boolean {
  return REDACTED_KEYS.has(normalise(key));
}

/** Returns a copy of `value` with every sensitive member replaced; shares nothing mutable with it. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (Buffer.isBuffer(value) || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isRedactedKey(key) ? REDACTED : redact(member, depth + 1);
  }
  return out;
}
