import { createHash } from 'node:crypto';

/**
 * What makes two Partner API requests "the same" for an Idempotency-Key: method, path and parsed
 * JSON body. The gateway compares with it, and an owner service that replays a key itself (its
 * answer may have been lost on the way back) must compare the same way: one rule, here.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n`)
    .update(body === undefined ? '' : canonicalJson(body))
    .digest('base64url');
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
