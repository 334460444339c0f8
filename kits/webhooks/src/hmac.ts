import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 keyed with the secret's UTF-8 text (the whole string as handed out, prefix included, not decoded). */
export const hmacSha256 = (secret: string, ...parts: Buffer[]): Buffer => {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  for (const part of parts) mac.update(part);
  return mac.digest();
};

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * The signatures a header carries: lowercase hex of 32 bytes each, separated by commas or spaces
 * (one today; several let a sender sign with an old and a new secret during a rotation). Null when
 * any part is not such a signature: a `sha256=` prefix or uppercase hex is not what the specs send.
 */
export function parseHexSignatures(header: string): Buffer[] | null {
  const parts = header.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0 || parts.some((p) => !HEX_SIGNATURE.test(p))) return null;
  return parts.map((p) => Buffer.from(p, 'hex'));
}

/** Whether any candidate equals any expected MAC, each comparison in constant time (all are 32 bytes). */
export function anyMatches(candidates: readonly Buffer[], expected: readonly Buffer[]): boolean {
  let matched = false;
  // No early exit: the time taken does not tell which secret or signature matched.
  for (const candidate of candidates) for (const mac of expected) matched = timingSafeEqual(candidate, mac) || matched;
  return matched;
}
