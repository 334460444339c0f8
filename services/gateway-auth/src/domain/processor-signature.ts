import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * How a tenant's payment processor signs its notifications, the same way our own webhooks are
 * signed (Partner API, "Headers"): `X-Processor-Timestamp` is the Unix time of the send in seconds,
 * `X-Processor-Signature` the lowercase hex HMAC-SHA256, with the tenant's processor secret (the
 * whole string, as UTF-8), over `{timestamp}.{raw body}`. A notification signed more than
 * `PROCESSOR_SIGNATURE_TOLERANCE_SECONDS` away from our clock is refused, so a captured request
 * cannot be replayed later; within the window, the processor's event id makes a replay harmless.
 */
export const PROCESSOR_TIMESTAMP_HEADER = 'x-processor-timestamp';
export const PROCESSOR_SIGNATURE_HEADER = 'x-processor-signature';
export const PROCESSOR_SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new processor secret: 32 random bytes, base64url, with a prefix that says what it is. */
export const newProcessorSecret = (): string => `ppsec_${randomBytes(32).toString('base64url')}`;

export function processorSignature(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`)
    .update(Buffer.from(rawBody, 'utf8'))
    .digest('hex');
}

const TIMESTAMP = /^[0-9]{1,12}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;

/** Whether the timestamp header is well formed and within the tolerance of `nowMs`. */
export function timestampAcceptable(timestamp: string | undefined, nowMs: number): boolean {
  if (timestamp === undefined || !TIMESTAMP.test(timestamp)) return false;
  return Math.abs(Number(timestamp) - Math.floor(nowMs / 1000)) <= PROCESSOR_SIGNATURE_TOLERANCE_SECONDS;
}

/**
 * Whether `signature` is the signature of the body at `timestamp` under one of `secrets` (the
 * current one, and the previous one during its overlap after a rotation), compared in constant time.
 */
export function signatureMatches(
  secrets: readonly string[],
  timestamp: string,
  signature: string | undefined,
  rawBody: string,
): boolean {
  if (signature === undefined || !SIGNATURE.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  let matched = false;
  // Every secret is tried, so the time taken does not say which one matched.
  for (const secret of secrets) {
    const expected = Buffer.from(processorSignature(secret, timestamp, rawBody), 'hex');
    if (timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}
