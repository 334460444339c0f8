import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY } from '@marketplace/contracts';

/** The Idempotency-Key header rule, as the Partner API document declares it (the contract's). */
export type KeyProblem = 'missing' | 'invalid';

const KEY_PATTERN = new RegExp(IDEMPOTENCY_KEY.pattern, 'u');

export function checkIdempotencyKey(value: string | undefined): KeyProblem | undefined {
  if (value === undefined || value === '') return 'missing';
  if (value.length > IDEMPOTENCY_KEY.maxLength || !KEY_PATTERN.test(value)) return 'invalid';
  return undefined;
}

/** JSON with object keys sorted, so that `{"a":1,"b":2}` and `{ "b": 2, "a": 1 }` are one payload. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same": method, path and parsed JSON body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n`)
    .update(body === undefined ? '' : canonicalJson(body))
    .digest('base64url');
}
