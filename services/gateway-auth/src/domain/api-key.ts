import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Partner API keys: `<KEY_ID>.<API_SECRET>`. The key id is public (it finds the record, appears in
 * the tenant's view); the secret is stored only as an HMAC under a key from configuration and
 * compared in constant time. The `mpk_` prefix lets secret scanners recognise a leaked key.
 */
const KEY_ID = /^mpk_[A-Za-z0-9_-]{22}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export interface ApiKeyParts {
  keyId: string;
  secret: string;
}

export function mintApiKey(): ApiKeyParts & { apiKey: string } {
  const keyId = `mpk_${randomBytes(16).toString('base64url')}`;
  const secret = randomBytes(32).toString('base64url');
  return { keyId, secret, apiKey: `${keyId}.${secret}` };
}

/** Parses `Authorization: ApiKey <KEY_ID>.<API_SECRET>`; undefined for anything else. */
export function parseApiKeyHeader(header: string | undefined): ApiKeyParts | undefined {
  if (!header) return undefined;
  // The scheme name is case-insensitive (RFC 9110, 11.1); the credential is not.
  const match = /^ApiKey ([^.\s]+)\.(\S+)$/i.exec(header);
  if (!match) return undefined;
  const [, keyId, secret] = match as unknown as [string, string, string];
  return KEY_ID.test(keyId) && SECRET.test(secret) ? { keyId, secret } : undefined;
}

export function hashApiSecret(secret: string, hashKey: Buffer): string {
  return createHmac('sha256', hashKey).update(secret).digest('base64url');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function apiSecretMatches(secret: string, storedHash: string, hashKey: Buffer): boolean {
  const presented = Buffer.from(hashApiSecret(secret, hashKey));
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/**
 * Webhook signing secrets: shown once, stored encrypted (the sender needs the plain value).
 * `whsec_` and the standard base64 of 32 random bytes (44 characters, `=` padded): the Partner API
 * signature is keyed with the whole string, and the Standard Webhooks libraries (`new
 * Webhook(secret)`) take the same string, decoding what follows `whsec_` as standard base64. Secrets
 * minted before were base64url without padding (43 characters); they still sign both ways (the
 * sender decodes either alphabet), and a rotation hands out one of the current shape.
 */
export function mintSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * How long, after a webhook secret rotation, attempts are also signed with the secret it replaced
 * (one more `v1,` entry in `webhook-signature`), so a partner can switch over without refusing a
 * delivery. X-Marketplace-Signature carries the new secret only (the spec defines one signature).
 */
export const WEBHOOK_SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

/** The validity of a stored key at a moment: `expiresAt` absent or null is "until revoked". */
export interface ApiKeyValidity {
  status: 'active' | 'revoked';
  expiresAt?: Date | null;
}

/** Whether a key authenticates at `now`: active, and before its expiry if it has one. */
export function apiKeyLive(key: ApiKeyValidity, now: Date): boolean {
  return key.status === 'active' && (key.expiresAt == null || key.expiresAt.getTime() > now.getTime());
}

/**
 * When the previous keys of an installation stop at a rotation with `overlapSeconds`: undefined for
 * no overlap (they are revoked at once, as before overlaps existed), else now + overlap. A key that
 * already expires earlier keeps its own expiry (a rotation never lengthens a key's life; the
 * repository's update only ever shortens).
 */
export function previousKeysEnd(now: Date, overlapSeconds: number): Date | undefined {
  return overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : undefined;
}

/**
 * How long a cache may keep a key that authenticated: `maxSeconds`, but never past the key's
 * expiry (whole seconds, rounded up; the expiry itself is checked on every request). 0: do not cache.
 */
export function cacheSecondsFor(expiresAtMs: number | null | undefined, nowMs: number, maxSeconds: number): number {
  if (expiresAtMs == null) return maxSeconds;
  const left = Math.ceil((expiresAtMs - nowMs) / 1000);
  return Math.max(0, Math.min(maxSeconds, left));
}

/** What an installation's webhook signing secret is sealed to (see SecretBox). */
export const webhookSecretContext = (installationId: string) => `installation:${installationId}:webhook-secret`;
