import { createHmac } from 'node:crypto';
import { recordIssuedSecret } from './issued-secrets';

/** Claims of the administrator and tenant APIs' bearer tokens (gateway-auth's README). */
export type TestBearerClaims = { role: 'admin'; sub: string } | { role: 'tenant'; sub: string; tid: string };

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A bearer token as the platform's login system would issue it: a compact HS256 JWT (`role`,
 * `sub`, `tid` for a tenant, `iat`, `exp`). Written here, not taken from gateway-auth's code: the
 * gateway accepts what any JWT library signs, and the tests sign independently of what they test.
 */
export function signTestBearerToken(key: Buffer, claims: TestBearerClaims, expiresAt: Date, now = new Date()): string {
  const header = b64url({ alg: 'HS256', typ: 'JWT' });
  const payload = b64url({
    ...claims,
    iat: Math.floor(now.getTime() / 1000),
    exp: Math.floor(expiresAt.getTime() / 1000),
  });
  const signature = createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url');
  const token = `${header}.${payload}.${signature}`;
  recordIssuedSecret('bearer token', token); // for the secrets audit at the end of the run
  return token;
}
