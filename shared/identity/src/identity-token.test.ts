import { generateKeyPairSync } from 'node:crypto';
import { privateKeyFrom, publicKeyFrom, signIdentity, verifyIdentity, type CallerIdentity } from './identity-token';

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKeyFrom(privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')),
    publicKey: publicKeyFrom(publicKey.export({ format: 'der', type: 'spki' }).toString('base64')),
  };
}

const identity: CallerIdentity = {
  kind: 'partner',
  tenantId: 't-1',
  tenant: { currencyCode: 'EUR', defaultLanguage: 'en' },
  installationId: 'i-1',
  appId: 'a-1',
  scopes: ['Orders.Create'],
};
const binding = { method: 'POST', path: '/api/partner/v1/orders', service: 'ordering-pricing' };
const now = Date.UTC(2026, 10, 22, 8, 0, 0);

describe('signed caller identity', () => {
  const keys = keyPair();

  it('round-trips the identity for the request it was issued for', () => {
    const token = signIdentity(keys.privateKey, identity, binding, now);
    expect(verifyIdentity(keys.publicKey, token, binding, now + 1000)).toEqual(identity);
  });

  it('is refused for another method, path or service, after expiry, or when issued in the future', () => {
    const token = signIdentity(keys.privateKey, identity, binding, now);
    expect(verifyIdentity(keys.publicKey, token, { ...binding, method: 'GET' }, now)).toBeUndefined();
    expect(
      verifyIdentity(keys.publicKey, token, { ...binding, path: '/api/partner/v1/orders/x/cancel' }, now),
    ).toBeUndefined();
    expect(verifyIdentity(keys.publicKey, token, { ...binding, path: '/API/partner/v1/orders' }, now)).toBeUndefined();
    expect(verifyIdentity(keys.publicKey, token, { ...binding, service: 'catalog' }, now)).toBeUndefined();
    expect(verifyIdentity(keys.publicKey, token, binding, now + 31_000)).toBeUndefined();
    expect(verifyIdentity(keys.publicKey, token, binding, now - 10_000)).toBeUndefined();
  });

  it('is refused when signed by another key or altered', () => {
    const other = keyPair();
    const forged = signIdentity(other.privateKey, identity, binding, now);
    expect(verifyIdentity(keys.publicKey, forged, binding, now)).toBeUndefined();
    const token = signIdentity(keys.privateKey, identity, binding, now);
    const [prefix, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    claims.id.installationId = 'i-2';
    const altered = `${prefix}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    expect(verifyIdentity(keys.publicKey, altered, binding, now)).toBeUndefined();
  });

  it('is refused when missing or malformed', () => {
    for (const bad of [undefined, '', 'v1', 'v1.a.b', 'v2.a.b', 'x.y.z.w']) {
      expect(verifyIdentity(keys.publicKey, bad, binding, now)).toBeUndefined();
    }
  });

  it('rejects keys of another type', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => privateKeyFrom(privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'))).toThrow(
      /Ed25519/,
    );
  });
});
