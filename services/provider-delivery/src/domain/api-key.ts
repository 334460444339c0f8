import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Platform API keys: `<keyId>.<secret>`, sent as `Authorization: Bearer <keyId>.<secret>`. The key
 * id (`pdk_` and 22 base64url characters) is public: it finds the record and is listed to
 * administrators. The secret (43 base64url characters, 256 bits) is shown once at mint and stored
 * only as HMAC-SHA256 under PROVIDER_KEY_HASH_SECRET, compared in constant time. The `pdk_` prefix
 * lets secret scanners recognise a leaked key.
 */
export const KEY_ID_PATTERN = /^pdk_[A-Za-z0-9_-]{22}$/;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface ApiKeyParts {
  keyId: string;
  secret: string;
}

export function mintApiKey(): ApiKeyParts & { apiKey: string } {
  const keyId = `pdk_${randomBytes(16).toString('base64url')}`;
  const secret = randomBytes(32).toString('base64url');
  return { keyId, secret, apiKey: `${keyId}.${secret}` };
}

/** `Authorization: Bearer <keyId>.<secret>` (scheme case-insensitive); undefined for anything else. */
export function parseBearerApiKey(header: string | undefined): ApiKeyParts | undefined {
  if (!header) return undefined;
  const match = /^Bearer ([^.\s]+)\.(\S+)$/i.exec(header);
  if (!match) return undefined;
  const [, keyId, secret] = match as unknown as [string, string, string];
  return KEY_ID_PATTERN.test(keyId) && SECRET_PATTERN.test(secret) ? { keyId, secret } : undefined;
}

/** The stored form of a secret: HMAC-SHA256(hashKey, secret), base64url. */
export function hashKeySecret(secret: string, hashKey: Buffer): string {
  return createHmac('sha256', hashKey).update(secret).digest('base64url');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function keySecretMatches(secret: string, storedHash: string, hashKey: Buffer): boolean {
  const presented = Buffer.from(hashKeySecret(secret, hashKey));
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** What liveness depends on. */
export interface KeyValidity {
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A key works until it is revoked or its expiry (set by a rotation) has passed. */
export function isLiveKey(key: KeyValidity, now: Date): boolean {
  return key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now.getTime());
}

/** Rotation's overlap: the default and the bounds of `overlapSeconds`. */
export const ROTATION_OVERLAP = { defaultSeconds: 86_400, minSeconds: 0, maxSeconds: 604_800 } as const;

/**
 * When a key still live at a rotation stops working: now + overlap, or its own earlier expiry
 * (a rotation never lengthens a key's life).
 */
export function expiryAfterRotation(key: KeyValidity, now: Date, overlapSeconds: number): Date {
  const end = new Date(now.getTime() + overlapSeconds * 1000);
  return key.expiresAt !== null && key.expiresAt.getTime() < end.getTime() ? key.expiresAt : end;
}
