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
  });
});
