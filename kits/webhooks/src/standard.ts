import { createHmac, timingSafeEqual } from 'node:crypto';
import { readHeader, type HeaderSource } from './headers';
import { bytesOf, failure, type RawBody, type VerifyResult } from './result';

/**
 * Standard Webhooks (standardwebhooks.com), which partner webhooks carry beside the spec's
 * X-Marketplace-* headers: `webhook-signature` holds one `v1,<base64 HMAC-SHA256>` per secret
 * (two during a rotation's overlap), over `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with
 * the bytes of the secret after `whsec_` decoded as base64. Any Standard Webhooks library verifies
 * them with the secret string given at connect; this is the same check without a dependency.
 */

/** The HMAC key of a `whsec_` secret: the rest decoded as base64 (either alphabet: older secrets are base64url). */
export function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length === 0) throw new RangeError('the secret is not `whsec_` followed by base64');
  return key;
}

const mac = (secret: string, id: string, timestamp: string, body: Buffer): Buffer =>
  createHmac('sha256', standardWebhookKey(secret)).update(`${id}.${timestamp}.`, 'utf8').update(body).digest();

/** The three Standard Webhooks headers for a test payload (one signature per secret given). */
export function signStandardWebhook(options: {
  body: RawBody;
  secret: string | readonly string[];
  id: string;
  timestamp: number;
}): Record<string, string> {
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  const timestamp = String(options.timestamp);
  const body = bytesOf(options.body);
  return {
    'webhook-id': options.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((s) => `v1,${mac(s, options.id, timestamp, body).toString('base64')}`).join(' '),
  };
}

/** Checks `webhook-signature` against the raw body: any `v1` entry made with any secret given; the timestamp within `toleranceSeconds`. */
export function verifyStandardWebhook(options: {
  body: RawBody;
  headers: HeaderSource;
  secret: string | readonly string[];
  toleranceSeconds?: number;
  now?: number | Date;
}): VerifyResult<{ id: string; timestamp: number }> {
  const secrets = (typeof options.secret === 'string' ? [options.secret] : [...options.secret]).filter(Boolean);
  if (secrets.length === 0) return failure('no_secret', 'No webhook signing secret was given.');
  const id = readHeader(options.headers, 'webhook-id');
  const timestamp = readHeader(options.headers, 'webhook-timestamp');
  const signatures = readHeader(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    return failure('missing_header', 'webhook-id, webhook-timestamp and webhook-signature are all required.');
  if (!/^\d{1,12}$/.test(timestamp))
    return failure('malformed_timestamp', 'webhook-timestamp is not whole Unix seconds.');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor(Number(options.now ?? Date.now()) / 1000);
  if (tolerance > 0 && Math.abs(nowSeconds - Number(timestamp)) > tolerance)
    return failure('timestamp_out_of_tolerance', `The timestamp is more than ${tolerance} s from this clock.`);
  const body = bytesOf(options.body);
  const expected = secrets.map((s) => mac(s, id, timestamp, body));
  const given = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'))
    .filter((b) => b.length === 32);
  let matched = false;
  for (const g of given) for (const e of expected) matched = timingSafeEqual(g, e) || matched;
  if (!matched) return failure('signature_mismatch', 'No v1 signature matches the body with the secrets given.');
  return { ok: true, id, timestamp: Number(timestamp) };
}
