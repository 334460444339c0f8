import { randomBytes } from 'node:crypto';
import { signTestBearerToken } from '@marketplace/testing';
import { verifyBearerToken } from '@marketplace/identity';

// The suites sign their admin and tenant tokens with @marketplace/testing's own HS256 JWT signer,
// not with the gateway's code: the gateway must accept what it writes.
describe("the test suites' bearer tokens", () => {
  const key = randomBytes(32);
  const now = new Date('2030-01-01T00:00:00Z');
  const later = new Date('2030-01-01T01:00:00Z');

  it('are accepted by the gateway, admin and tenant alike', () => {
    expect(
      verifyBearerToken(key, signTestBearerToken(key, { role: 'admin', sub: 'test-admin' }, later, now), now),
    ).toEqual({ role: 'admin', sub: 'test-admin' });
    expect(
      verifyBearerToken(
        key,
        signTestBearerToken(key, { role: 'tenant', sub: 'tenant:t1', tid: 't1' }, later, now),
        now,
      ),
    ).toEqual({ role: 'tenant', sub: 'tenant:t1', tid: 't1' });
  });

  it("expire and are bound to the key like the gateway's own", () => {
    const token = signTestBearerToken(key, { role: 'admin', sub: 'a' }, later, now);
    expect(verifyBearerToken(key, token, later)).toBeUndefined();
    expect(verifyBearerToken(randomBytes(32), token, now)).toBeUndefined();
  });
});
