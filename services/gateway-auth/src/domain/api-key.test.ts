import { randomBytes } from 'node:crypto';
import { apiSecretMatches, hashApiSecret, mintApiKey, mintSigningSecret, parseApiKeyHeader } from './api-key';

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

  it('mints webhook signing secrets with a recognisable prefix', () => {
    expect(mintSigningSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});
