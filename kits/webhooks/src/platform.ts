import { readHeader, type HeaderSource } from './headers';
import { anyMatches, hmacSha256, parseHexSignatures } from './hmac';
import { bytesOf, failure, type RawBody, type VerifyResult } from './result';

/**
 * Delivery-provider callbacks ("Authentication" of the Standard Delivery Provider Contract v1):
 * X-Platform-Signature is lowercase hex HMAC-SHA256 over the exact UTF-8 bytes of the body, keyed
 * with the provider connection's webhook secret, with no `sha256=` prefix and no timestamp. The
 * platform checks the callback URL's token first, then this, then correlation and lifecycle.
 */

export interface PlatformVerifyOptions {
  body: RawBody;
  /** The request's headers, or the X-Platform-Signature value itself. */
  headers: HeaderSource | string;
  /** The connection's webhook secret, or several while one replaces another. */
  secret: string | readonly string[];
}

export function verifyPlatformCallback(options: PlatformVerifyOptions): VerifyResult<object> {
  const secrets = (typeof options.secret === 'string' ? [options.secret] : [...options.secret]).filter(Boolean);
  if (secrets.length === 0) return failure('no_secret', 'No webhook secret was given.');
  const header =
    typeof options.headers === 'string' ? options.headers : readHeader(options.headers, 'x-platform-signature');
  if (header === undefined) return failure('missing_header', 'X-Platform-Signature is required.');
  const candidates = parseHexSignatures(header);
  if (!candidates) return failure('malformed_signature', 'X-Platform-Signature is not lowercase hex of 32 bytes.');
  const body = bytesOf(options.body);
  if (
    !anyMatches(
      candidates,
      secrets.map((secret) => hmacSha256(secret, body)),
    )
  )
    return failure('signature_mismatch', 'The signature does not match the body with the secret given.');
  return { ok: true };
}

/** The header a provider sends with a callback, for test payloads. */
export function signPlatformCallback(options: { body: RawBody; secret: string }): Record<string, string> {
  if (!options.secret) throw new RangeError('a webhook secret is required');
  return { 'X-Platform-Signature': hmacSha256(options.secret, bytesOf(options.body)).toString('hex') };
}
