import { randomBytes } from 'node:crypto';
import { signBearerToken, verifyBearerToken } from './bearer-token';

const key = randomBytes(32);
const now = new Date('2026-11-22T08:00:00Z');
const later = new Date(now.getTime() + 3_600_000);

describe('bearer tokens', () => {
  it('verifies admin and tenant tokens until they expire', () => {
    const admin = signBearerToken(key, { role: 'admin', sub: 'ops' }, later, now);
    expect(verifyBearerToken(key, admin, now)).toEqual({ role: 'admin', sub: 'ops' });
    const tenant = signBearerToken(key, { role: 'tenant', sub: 'tenant:t1', tid: 't1' }, later, now);
    expect(verifyBearerToken(key, tenant, now)).toEqual({ role: 'tenant', sub: 'tenant:t1', tid: 't1' });
    expect(verifyBearerToken(key, tenant, later)).toBeUndefined();
  });

  it('refuses another key, an altered payload, alg none and garbage', () => {
    const token = signBearerToken(key, { role: 'tenant', sub: 's', tid: 't1' }, later, now);
    expect(verifyBearerToken(randomBytes(32), token, now)).toBeUndefined();
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ role: 'admin', sub: 's', exp: later.getTime() / 1000 })).toString(
      'base64url',
    );
    expect(verifyBearerToken(key, `${header}.${forged}.${signature}`, now)).toBeUndefined();
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(verifyBearerToken(key, `${none}.${token.split('.')[1]}.`, now)).toBeUndefined();
    for (const bad of ['', 'a.b', 'a.b.c', token.replace(/.$/, '')])
      expect(verifyBearerToken(key, bad, now)).toBeUndefined();
  });

  it('keeps the token id (jti) when there is one, and leaves it out when there is none', () => {
    const minted = signBearerToken(key, { role: 'tenant', sub: 'tenant:t1', tid: 't1', jti: 'token-1' }, later, now);
    expect(verifyBearerToken(key, minted, now)).toEqual({
      role: 'tenant',
      sub: 'tenant:t1',
      tid: 't1',
      jti: 'token-1',
    });
    const payload = JSON.parse(Buffer.from(minted.split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload).toMatchObject({ jti: 'token-1', iat: now.getTime() / 1000, exp: later.getTime() / 1000 });
    const admin = signBearerToken(key, { role: 'admin', sub: 'ops', jti: 'a-1' }, later, now);
    expect(verifyBearerToken(key, admin, now)).toEqual({ role: 'admin', sub: 'ops', jti: 'a-1' });
    // A token minted before token ids (no jti): the same claims as ever, no `jti` member at all.
    const legacy = verifyBearerToken(
      key,
      signBearerToken(key, { role: 'tenant', sub: 's', tid: 't1' }, later, now),
      now,
    );
    expect(legacy).toEqual({ role: 'tenant', sub: 's', tid: 't1' });
    expect(legacy && 'jti' in legacy).toBe(false);
  });

  it('refuses a token without expiry or with an unknown role', () => {
    const sign = (payload: object) => {
      const { createHmac } = require('node:crypto') as typeof import('node:crypto');
      const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${head}.${body}.${createHmac('sha256', key).update(`${head}.${body}`).digest('base64url')}`;
    };
    expect(verifyBearerToken(key, sign({ role: 'admin', sub: 's' }), now)).toBeUndefined();
    expect(verifyBearerToken(key, sign({ role: 'root', sub: 's', exp: later.getTime() / 1000 }), now)).toBeUndefined();
    expect(
      verifyBearerToken(key, sign({ role: 'tenant', sub: 's', exp: later.getTime() / 1000 }), now),
    ).toBeUndefined();
    // A token id that is not a string cannot be checked against the revocation list: refused.
    for (const jti of [42, null, ['a'], { id: 'a' }])
      expect(
        verifyBearerToken(key, sign({ role: 'tenant', sub: 's', tid: 't', jti, exp: later.getTime() / 1000 }), now),
      ).toBeUndefined();
  });
});
