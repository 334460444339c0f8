import { randomUUID } from 'node:crypto';
import { readHeader, type HeaderSource } from './headers';
import { anyMatches, hmacSha256, parseHexSignatures } from './hmac';
import { bytesOf, failure, WebhookVerificationError, type RawBody, type VerifyResult } from './result';
import { signStandardWebhook } from './standard';

/**
 * Partner API webhooks ("Events" of the Marketplace Partner API v1): X-Marketplace-Signature is
 * lowercase hex HMAC-SHA256, keyed with the webhook signing secret given at connect, over
 * `{X-Marketplace-Timestamp}.{raw body}`: the header's text, a dot, then the exact bytes received.
 */

/**
 * How far the attempt's timestamp may be from the receiver's clock: 5 minutes either way (the
 * window Stripe and Standard Webhooks use). It bounds replays of a captured request; the event id
 * (stable across retries) is what a receiver deduplicates by.
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface MarketplaceVerifyOptions {
  body: RawBody;
  headers: HeaderSource;
  /** The webhook signing secret (`whsec_…`), or several while one replaces another: any may match. */
  secret: string | readonly string[];
  /** Seconds the timestamp may differ from `now`; default 300. 0 or less checks no time (tests replaying a recording). */
  toleranceSeconds?: number;
  /** The receiver's clock (ms since the epoch or a Date); default the current time. */
  now?: number | Date;
}

/** The envelope ("Envelope": id, type, version, occurredAt, data). */
export interface MarketplaceEvent {
  id: string;
  type: string;
  version: number;
  occurredAt: string;
  data: Record<string, unknown>;
}

const TIMESTAMP = /^\d{1,12}$/;

/** Checks the headers against the raw body; `eventId` and `timestamp` on success. Never throws on bad input. */
export function verifyMarketplaceWebhook(
  options: MarketplaceVerifyOptions,
): VerifyResult<{ eventId: string; timestamp: number }> {
  const secrets = (typeof options.secret === 'string' ? [options.secret] : [...options.secret]).filter(Boolean);
  if (secrets.length === 0) return failure('no_secret', 'No webhook signing secret was given.');
  const timestampText = readHeader(options.headers, 'x-marketplace-timestamp');
  const signatureText = readHeader(options.headers, 'x-marketplace-signature');
  const eventId = readHeader(options.headers, 'x-marketplace-event-id') ?? '';
  if (timestampText === undefined || signatureText === undefined)
    return failure('missing_header', 'X-Marketplace-Timestamp and X-Marketplace-Signature are both required.');
  if (!TIMESTAMP.test(timestampText))
    return failure('malformed_timestamp', 'X-Marketplace-Timestamp is not a Unix time in whole seconds.');
  const timestamp = Number(timestampText);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(Number(options.now ?? Date.now()) / 1000);
  if (tolerance > 0 && Math.abs(nowSeconds - timestamp) > tolerance)
    return failure('timestamp_out_of_tolerance', `The timestamp is more than ${tolerance} s from this clock.`);
  const candidates = parseHexSignatures(signatureText);
  if (!candidates) return failure('malformed_signature', 'X-Marketplace-Signature is not lowercase hex of 32 bytes.');
  const signed = [Buffer.from(`${timestampText}.`, 'utf8'), bytesOf(options.body)];
  const expected = secrets.map((secret) => hmacSha256(secret, ...signed));
  if (!anyMatches(candidates, expected))
    return failure('signature_mismatch', 'The signature does not match the body and timestamp with the secret given.');
  return { ok: true, eventId, timestamp };
}

/** Verifies, then parses the envelope; throws WebhookVerificationError when the webhook is not authentic. */
export function constructMarketplaceEvent(options: MarketplaceVerifyOptions): MarketplaceEvent {
  const result = verifyMarketplaceWebhook(options);
  if (!result.ok) throw new WebhookVerificationError(result);
  return JSON.parse(bytesOf(options.body).toString('utf8')) as MarketplaceEvent;
}

export interface SignMarketplaceOptions {
  body: RawBody;
  secret: string;
  /** Unix seconds of the attempt; default now. */
  timestamp?: number;
  /** The event id header; default a new UUID. */
  eventId?: string;
  /** The secret a rotation replaced, while its overlap lasts: a second Standard Webhooks signature. */
  previousSecret?: string;
}

/**
 * The headers the sender puts on an attempt, for test payloads of a receiver under development:
 * the spec's three X-Marketplace-* headers (the current secret only) and the Standard Webhooks
 * three (one signature per secret).
 */
export function signMarketplaceWebhook(options: SignMarketplaceOptions): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError('timestamp must be whole Unix seconds');
  const signature = hmacSha256(options.secret, Buffer.from(`${timestamp}.`, 'utf8'), bytesOf(options.body));
  const eventId = options.eventId ?? randomUUID();
  const secrets = options.previousSecret ? [options.secret, options.previousSecret] : [options.secret];
  return {
    'X-Marketplace-Event-Id': eventId,
    'X-Marketplace-Timestamp': String(timestamp),
    'X-Marketplace-Signature': signature.toString('hex'),
    ...signStandardWebhook({ body: options.body, secret: secrets, id: eventId, timestamp }),
  };
}
