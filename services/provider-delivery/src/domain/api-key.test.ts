import { randomBytes } from 'node:crypto';
import {
  expiryAfterRotation,
  hashKeySecret,
  isLiveKey,
  keySecretMatches,
  mintApiKey,
  parseBearerApiKey,
} from './api-key';
import { checkCapabilities, mintWebhookSecret } from './platform-account';

const hashKey = randomBytes(32);
const now = new Date('2026-11-22T08:00:00Z');
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('platform API keys', () => {
  it('are pdk_<22>.<43> and parse back from the Authorization header', () => {
    const { keyId, secret, apiKey } = mintApiKey();
    expect(apiKey).toMatch(/^pdk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(parseBearerApiKey(`Bearer ${apiKey}`)).toEqual({ keyId, secret });
    expect(parseBearerApiKey(`bearer ${apiKey}`)).toEqual({ keyId, secret });
    expect(mintApiKey().keyId).not.toBe(keyId);
  });

  it.each([undefined, '', 'Bearer', 'ApiKey pdk_x.y', 'Bearer pdk_short.secret', 'Basic dXNlcjpwdw=='])(
    'refuses the header %p',
    (header) => {
      expect(parseBearerApiKey(header)).toBeUndefined();
    },
  );

  it('refuses a key with another prefix, a short secret or extra text', () => {
    const { apiKey } = mintApiKey();
    expect(parseBearerApiKey(`Bearer ${apiKey.replace('pdk_', 'mpk_')}`)).toBeUndefined();
    expect(parseBearerApiKey(`Bearer ${apiKey.slice(0, -1)}`)).toBeUndefined();
    expect(parseBearerApiKey(`Bearer ${apiKey} x`)).toBeUndefined();
  });

  it('store a keyed hash that only the same secret and hash key match', () => {
    const { secret } = mintApiKey();
    const stored = hashKeySecret(secret, hashKey);
    expect(stored).not.toContain(secret);
    expect(stored).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keySecretMatches(secret, stored, hashKey)).toBe(true);
    expect(keySecretMatches(mintApiKey().secret, stored, hashKey)).toBe(false);
    expect(keySecretMatches(secret, stored, randomBytes(32))).toBe(false);
    expect(keySecretMatches(secret, 'short', hashKey)).toBe(false);
  });

  it('live until revoked or expired', () => {
    expect(isLiveKey({ expiresAt: null, revokedAt: null }, now)).toBe(true);
    expect(isLiveKey({ expiresAt: later(1), revokedAt: null }, now)).toBe(true);
    expect(isLiveKey({ expiresAt: now, revokedAt: null }, now)).toBe(false);
    expect(isLiveKey({ expiresAt: null, revokedAt: now }, now)).toBe(false);
  });

  it('rotation ends other keys after the overlap, never later than their own expiry', () => {
    expect(expiryAfterRotation({ expiresAt: null, revokedAt: null }, now, 60)).toEqual(later(60));
    expect(expiryAfterRotation({ expiresAt: later(10), revokedAt: null }, now, 60)).toEqual(later(10));
    expect(expiryAfterRotation({ expiresAt: later(100), revokedAt: null }, now, 60)).toEqual(later(60));
    expect(expiryAfterRotation({ expiresAt: null, revokedAt: null }, now, 0)).toEqual(now);
  });
});

describe('capabilities', () => {
  const base = {
    supportsPolling: true,
    supportsReturnToOrigin: false,
    supportsScheduledDelivery: false,
    supportsUpdates: true,
    supportsCancellation: true,
  };

  it('keep proof of delivery false', () => {
    expect(checkCapabilities({ ...base, supportsProofOfDelivery: false })).toEqual({
      capabilities: { ...base, supportsProofOfDelivery: false },
    });
  });

  it('refuse proof of delivery (outside this contract revision)', () => {
    expect(checkCapabilities({ ...base, supportsProofOfDelivery: true })).toEqual({
      errors: { 'capabilities.supportsProofOfDelivery': [expect.stringContaining('must be false')] },
    });
  });
});

describe('webhook secrets', () => {
  it('are pwhsec_ and 256 random bits', () => {
    const secret = mintWebhookSecret();
    expect(secret).toMatch(/^pwhsec_[A-Za-z0-9_-]{43}$/);
    expect(mintWebhookSecret()).not.toBe(secret);
  });
});
