/**
 * The body exactly as it arrived: a Buffer (or Uint8Array) of the raw bytes, or a string only when
 * it is the exact text received (decoded as UTF-8, never re-serialized from a parsed object: a
 * re-serialized body differs in spacing, key order or number form, and its signature fails).
 */
export type RawBody = Buffer | Uint8Array | string;

/** Why a webhook was refused: a stable code to branch on and a message to log (never a secret). */
export interface VerifyFailure {
  ok: false;
  reason:
    | 'missing_header'
    | 'malformed_timestamp'
    | 'timestamp_out_of_tolerance'
    | 'malformed_signature'
    | 'signature_mismatch'
    | 'no_secret';
  message: string;
}

export type VerifyResult<T> = ({ ok: true } & T) | VerifyFailure;

/** Thrown by the `construct…` helpers, which verify and parse in one step (as Stripe's constructEvent does). */
export class WebhookVerificationError extends Error {
  constructor(readonly failure: VerifyFailure) {
    super(failure.message);
    this.name = 'WebhookVerificationError';
  }
}

export const failure = (reason: VerifyFailure['reason'], message: string): VerifyFailure => ({
  ok: false,
  reason,
  message,
});

export const bytesOf = (body: RawBody): Buffer =>
  typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
