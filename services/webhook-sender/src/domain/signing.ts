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
 * alone and ignores both.
 */
export interface Signer {
  headers(secret: string, eventId: string, unixSeconds: number, body: Buffer): SignedHeaders;
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

/** The partner-webhook scheme: X-Marketplace-Event-Id, X-Marketplace-Timestamp, X-Marketplace-Signature. */
export const marketplaceSigner: Signer = {
  headers(secret, eventId, unixSeconds, body) {
    return {
      'X-Marketplace-Event-Id': eventId,
      'X-Marketplace-Timestamp': timestampText(unixSeconds),
      'X-Marketplace-Signature': marketplaceSignature(secret, unixSeconds, body),
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
