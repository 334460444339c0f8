import { CALLBACK_PATH, callbackTokenHash, isCallbackTokenShaped } from './callback-token';

describe('callbackTokenHash', () => {
  it('is the SHA-256 of the token, base64url without padding', () => {
    // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad.
    expect(callbackTokenHash('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });

  it('differs from token to token and never contains the token', () => {
    const token = 'A'.repeat(43);
    expect(callbackTokenHash(token)).not.toBe(callbackTokenHash(`${'A'.repeat(42)}B`));
    expect(callbackTokenHash(token)).not.toContain(token);
    expect(callbackTokenHash(token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('isCallbackTokenShaped (32 random bytes, base64url: 43 characters)', () => {
  it.each([
    ['43 base64url characters', true, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO-_'],
    ['43 digits', true, '0'.repeat(43)],
    ['42 characters', false, 'a'.repeat(42)],
    ['44 characters', false, 'a'.repeat(44)],
    ['empty', false, ''],
    ['with +', false, `${'a'.repeat(42)}+`],
    ['with /', false, `${'a'.repeat(42)}/`],
    ['with padding', false, `${'a'.repeat(42)}=`],
    ['with a space', false, `${'a'.repeat(42)} `],
    ['with a dot', false, `${'a'.repeat(42)}.`],
  ])('%s: shaped %s', (_, shaped, token) => {
    expect(isCallbackTokenShaped(token)).toBe(shaped);
  });
});

describe('CALLBACK_PATH', () => {
  it('is the public route providers POST to', () => {
    expect(CALLBACK_PATH).toBe('/api/provider-callbacks/v1');
  });
});
