import { randomBytes } from 'node:crypto';
import {
  apiKeyLive,
  apiSecretMatches,
  cacheSecondsFor,
  hashApiSecret,
  mintApiKey,
  mintSigningSecret,
  parseApiKeyHeader,
  previousKeysEnd,
} from './api-key';

const hashKey = randomBytes(32);

describe('API keys', () => {
  it('mints KEY_ID.SECRET that parses back from the Authorization header', () => {
    const key = mintApiKey();
    expect(key.apiKey).toMatch(/^mpk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(parseApiKeyHeader(`ApiKey ${key.apiKey}`)).toEqual({ keyId: key.keyId, secret: key.secret });
    expect(mintApiKey().apiKey).not.toBe(key.apiKey);
    expect(parseApiKeyHeader(`apikey ${key.apiKey}`)).toEqual({ keyId: key.keyId, secret: key.secret }); // scheme is case-insensitive
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['another scheme', 'Bearer abc'],
    ['no dot', `ApiKey mpk_${'a'.repeat(22)}${'b'.repeat(43)}`],
    ['two dots', `ApiKey mpk_${'a'.repeat(22)}.${'b'.repeat(20)}.${'c'.repeat(22)}`],
    ['short secret', `ApiKey mpk_${'a'.repeat(22)}.${'b'.repeat(42)}`],
    ['foreign key id', `ApiKey key_${'a'.repeat(22)}.${'b'.repeat(43)}`],
    ['trailing text', `ApiKey ${mintApiKey().apiKey} extra`],
  ])('refuses a %s header', (_what, header) => {
    expect(parseApiKeyHeader(header)).toBeUndefined();
  });

  it('compares a secret with its keyed hash, which depends on the hash key', () => {
    const { secret } = mintApiKey();
    const stored = hashApiSecret(secret, hashKey);
    expect(stored).not.toContain(secret);
    expect(apiSecretMatches(secret, stored, hashKey)).toBe(true);
    expect(apiSecretMatches(`${secret.slice(0, -1)}x`, stored, hashKey)).toBe(false);
    expect(apiSecretMatches(secret, stored, randomBytes(32))).toBe(false);
    expect(apiSecretMatches(secret, 'short', hashKey)).toBe(false);
  });

  it('mints webhook signing secrets with a recognisable prefix and 32 random bytes in standard base64', () => {
    const secret = mintSigningSecret();
    // Standard base64, padded: what the Standard Webhooks libraries decode after `whsec_`.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(mintSigningSecret()).not.toBe(secret);
  });
});

describe('API key life cycle', () => {
  const now = new Date('2026-11-22T08:00:00Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  it('a key is live while active and before its expiry; without one, until revoked', () => {
    expect(apiKeyLive({ status: 'active' }, now)).toBe(true); // stored before keys could expire
    expect(apiKeyLive({ status: 'active', expiresAt: null }, now)).toBe(true);
    expect(apiKeyLive({ status: 'active', expiresAt: at(1) }, now)).toBe(true);
    expect(apiKeyLive({ status: 'active', expiresAt: now }, now)).toBe(false);
    expect(apiKeyLive({ status: 'active', expiresAt: at(-1) }, now)).toBe(false);
    expect(apiKeyLive({ status: 'revoked', expiresAt: at(60) }, now)).toBe(false);
  });

  it('a rotation without overlap revokes the previous keys; with one, they end after it', () => {
    expect(previousKeysEnd(now, 0)).toBeUndefined();
    expect(previousKeysEnd(now, 2)).toEqual(at(2));
    expect(previousKeysEnd(now, 604_800)).toEqual(at(604_800));
  });

  it('a cached key never outlives its expiry', () => {
    const ms = now.getTime();
    expect(cacheSecondsFor(null, ms, 300)).toBe(300);
    expect(cacheSecondsFor(undefined, ms, 300)).toBe(300);
    expect(cacheSecondsFor(ms + 3_600_000, ms, 300)).toBe(300);
    expect(cacheSecondsFor(ms + 2_000, ms, 300)).toBe(2);
    expect(cacheSecondsFor(ms + 1_500, ms, 300)).toBe(2); // rounded up; the expiry is checked on every request
    expect(cacheSecondsFor(ms + 1, ms, 300)).toBe(1);
    expect(cacheSecondsFor(ms, ms, 300)).toBe(0);
    expect(cacheSecondsFor(ms - 5_000, ms, 300)).toBe(0);
  });
});
