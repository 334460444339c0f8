import { createHmac } from 'node:crypto';

/** Header name → value, as sent with one attempt. */
export interface SignedHeaders {
  [name: string]: string;
}

/**
 * A way of signing one attempt: given the secret, the event id, the attempt's Unix time and the exact
 * body bytes, the headers to send. A value rather than a hard-coded scheme, because the delivery
 * provider's callbacks reuse the same engine with their own scheme. A scheme uses what it needs:
 * the partner scheme signs the timestamp and sends the event id, the platform scheme signs the body
 * alone and ignores both. `previousSecret`: the secret a rotation replaced, while its overlap lasts
 * (partner webhooks only; a scheme with a single signature ignores it).
 */
export interface Signer {
  headers(secret: string, eventId: string, unixSeconds: number, body: Buffer, previousSecret?: string): SignedHeaders;
}

/**
 * The decimal text of a Unix time. Rejects anything String() would not print as plain digits
 * (fractions, negatives, NaN, 1e21…): the partner verifies over the header text, so it must be exact.
 */
function timestampText(unixSeconds: number): string {
  if (!Number.isSafeInteger(unixSeconds) || unixSeconds < 0) {
    throw new RangeError(`unixSeconds must be a non-negative integer, got ${unixSeconds}`);
  }
  return String(unixSeconds);
}

/**
 * HMAC-SHA256 (lowercase hex) keyed with the secret's UTF-8 text (the whole `whsec_…` string, as
 * handed to the partner), over `{unixSeconds}.` followed by the body bytes. The body is fed as a
 * Buffer, never as a string, so what is signed is exactly what goes on the wire.
 */
export function marketplaceSignature(secret: string, unixSeconds: number, body: Buffer): string {
  return createHmac('sha256', secret)
    .update(`${timestampText(unixSeconds)}.`, 'utf8')
    .update(body)
    .digest('hex');
}

/** What follows `whsec_`: base64 in either alphabet (`+/` or `-_`), padded or not. */
const BASE64_EITHER_ALPHABET = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The Standard Webhooks key of a secret: the text after `whsec_` decoded as base64, as the Standard
 * Webhooks libraries do, so the partner verifies with the very string it was given at connect.
 * Secrets minted now are standard base64 (what those libraries decode); one minted before was
 * base64url without padding, which is read here as base64url (Node's decoder takes both alphabets
 * and missing padding), so it signs with the same bytes a partner gets by converting it (`-`→`+`,
 * `_`→`/`, `=` padding) or, simpler, by rotating. A secret that is not base64 is refused: the
 * gateway never mints one.
 */
export function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = BASE64_EITHER_ALPHABET.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length === 0) throw new RangeError('the webhook secret is not `whsec_` followed by base64');
  return key;
}

/**
 * One Standard Webhooks signature entry: `v1,` and the standard base64 of HMAC-SHA256 keyed with
 * standardWebhookKey(secret) over `{eventId}.{unixSeconds}.` followed by the body bytes (fed as a
 * Buffer, like the Marketplace signature).
 */
export function standardWebhookSignature(secret: string, eventId: string, unixSeconds: number, body: Buffer): string {
  const digest = createHmac('sha256', standardWebhookKey(secret))
    .update(`${eventId}.${timestampText(unixSeconds)}.`, 'utf8')
    .update(body)
    .digest('base64');
  return `v1,${digest}`;
}

/**
 * The partner-webhook scheme, two ways at once over the same attempt: the spec's X-Marketplace-Event-Id,
 * X-Marketplace-Timestamp and X-Marketplace-Signature (the current secret only: the spec defines one
 * signature), and the Standard Webhooks headers `webhook-id` (the same event id), `webhook-timestamp`
 * (the same Unix seconds) and `webhook-signature` (one `v1,…` entry per secret, the current one first,
 * then the previous one during a rotation's overlap, space-separated).
 */
export const marketplaceSigner: Signer = {
  headers(secret, eventId, unixSeconds, body, previousSecret) {
    const secrets = previousSecret === undefined ? [secret] : [secret, previousSecret];
    return {
      'X-Marketplace-Event-Id': eventId,
      'X-Marketplace-Timestamp': timestampText(unixSeconds),
      'X-Marketplace-Signature': marketplaceSignature(secret, unixSeconds, body),
      'webhook-id': eventId,
      'webhook-timestamp': timestampText(unixSeconds),
      'webhook-signature': secrets.map((s) => standardWebhookSignature(s, eventId, unixSeconds, body)).join(' '),
    };
  },
};

/**
 * The delivery-provider contract's callback signature (provider to platform, "Authentication"):
 * HMAC-SHA256, lowercase hex, keyed with the secret's UTF-8 text (the provider connection's webhook
 * secret, whole), over the exact bytes of the request body and nothing else (no timestamp, no
 * prefix). The body is fed as a Buffer, so what is signed is exactly what goes on the wire; any
 * change to it after signing invalidates the signature. An empty secret is refused: it would sign
 * with a key anyone knows.
 */
export function platformSignature(secret: string, body: Buffer): string {
  if (secret.length === 0) throw new RangeError('the webhook secret must not be empty');
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The provider-callback scheme: `X-Platform-Signature` with the hex digest alone (no `sha256=`
 * prefix). The contract defines no event-id or timestamp header (the event's `eventTimeUtc` is in
 * the body and unchanged on every retry), so the same body gets the same signature on every attempt.
 */
export const platformSigner: Signer = {
  headers(secret, _eventId, _unixSeconds, body) {
    return { 'X-Platform-Signature': platformSignature(secret, body) };
  },
};
