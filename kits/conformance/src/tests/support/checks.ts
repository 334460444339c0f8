import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Exchange } from '../../model';
import type { TestContext } from '../../test-api';

/**
 * Checkers any test may use: the error envelope, the JSON media type, the webhook signature, and
 * a one-line description of an exchange for messages. Messages say what was expected and what
 * came; they never carry the API key or the webhook secret (a body that echoes one is redacted).
 */

/** The contract's error envelope ("Error envelope"). */
export interface ErrorEnvelope {
  code: string;
  message: string;
  retryable: boolean;
  fieldErrors?: Record<string, string[]>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with `value` as an error envelope, or undefined when it is one. */
export function envelopeProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'the body is not a JSON object';
  if (typeof value.code !== 'string') return '`code` is not a string';
  if (typeof value.message !== 'string') return '`message` is not a string';
  if (typeof value.retryable !== 'boolean') return '`retryable` is not a boolean';
  if (value.fieldErrors === undefined) return undefined;
  if (!isRecord(value.fieldErrors)) return '`fieldErrors` is not an object';
  for (const [field, messages] of Object.entries(value.fieldErrors)) {
    if (!Array.isArray(messages) || !messages.every((m) => typeof m === 'string')) {
      return `\`fieldErrors.${field}\` is not an array of strings`;
    }
  }
  return undefined;
}

export const isEnvelope = (value: unknown): value is ErrorEnvelope => envelopeProblem(value) === undefined;

/** A header of an exchange or a callback, whatever the case of its name. */
export function headerOf(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** `application/json`, with a charset (when named) of utf-8 ("Versioning": the media type). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type, ...params] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  for (const param of params) {
    const [name, value] = param.split('=').map((part) => part.trim());
    if (name === 'charset' && value?.replace(/^"|"$/g, '') !== 'utf-8') return false;
  }
  return true;
}

/** The path of an exchange's URL (without the base), for messages. */
function pathOf(exchange: Exchange): string {
  try {
    return new URL(exchange.url).pathname;
  } catch {
    return exchange.url;
  }
}

/** Replaces each secret in `text` (key, webhook secret, callback tokens) by a mark. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** The start of a body for a message, secrets redacted. */
export function snippet(ctx: Pick<TestContext, 'apiKey' | 'callbacks'>, text: string | null, max = 200): string {
  if (text === null || text === '') return 'an empty body';
  const clean = redact(text, [ctx.apiKey, ctx.callbacks.webhookSecret]).replace(/\s+/g, ' ');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** "POST /v1/deliveries → 200" or "POST /v1/deliveries → no answer (timeout)": no headers, no body. */
export function describe(exchange: Exchange): string {
  const answer =
    exchange.status === null ? `no answer (${exchange.error ?? 'unknown error'})` : String(exchange.status);
  return `${exchange.method} ${pathOf(exchange)} → ${answer}`;
}

/** What came, for "expected X, got <this>": the status and the start of the body. */
export function gotText(ctx: Pick<TestContext, 'apiKey' | 'callbacks'>, exchange: Exchange): string {
  if (exchange.status === null) return `no answer (${exchange.error ?? 'unknown error'})`;
  return `${exchange.status} with ${snippet(ctx, exchange.responseBody)}`;
}

const statusList = (statuses: readonly number[]): string =>
  statuses.length === 1
    ? String(statuses[0])
    : `${statuses.slice(0, -1).join(', ')} or ${statuses[statuses.length - 1]}`;

/** Why the answer is not one of `statuses` with the error envelope ("<what>: expected …, got …"), or undefined. */
export function envelopeMismatch(
  ctx: Pick<TestContext, 'apiKey' | 'callbacks'>,
  exchange: Exchange,
  statuses: readonly number[],
  what: string,
): string | undefined {
  const expected = `expected ${statusList(statuses)} with the error envelope`;
  if (exchange.status === null || !statuses.includes(exchange.status))
    return `${what}: ${expected}, got ${gotText(ctx, exchange)}`;
  const problem = envelopeProblem(exchange.json);
  if (problem === undefined) return undefined;
  return `${what}: ${expected}, got ${exchange.status} whose body is not the envelope (${problem}): ${snippet(ctx, exchange.responseBody)}`;
}

/** Fails unless the answer has one of `statuses` and its body is the error envelope; returns it. */
export function expectEnvelope(
  ctx: TestContext,
  exchange: Exchange,
  statuses: readonly number[],
  what: string,
): ErrorEnvelope {
  const mismatch = envelopeMismatch(ctx, exchange, statuses, what);
  ctx.check(mismatch === undefined, mismatch ?? '');
  return exchange.json as ErrorEnvelope;
}

/** Fails unless the answer is JSON (media type and body); returns the parsed body. */
export function expectJson(ctx: TestContext, exchange: Exchange, what: string): unknown {
  const contentType = headerOf(exchange.responseHeaders, 'content-type');
  ctx.check(
    isJsonMediaType(contentType),
    `${what}: expected Content-Type application/json, got ${contentType ?? 'none'}`,
  );
  ctx.check(exchange.json !== undefined, `${what}: expected a JSON body, got ${snippet(ctx, exchange.responseBody)}`);
  return exchange.json;
}

/** Fails unless the answer is 200 with a JSON object; returns the object. */
export function expectOkObject(ctx: TestContext, exchange: Exchange, what: string): Record<string, unknown> {
  ctx.check(exchange.status === 200, `${what}: expected 200, got ${gotText(ctx, exchange)}`);
  const body = expectJson(ctx, exchange, what);
  ctx.check(isRecord(body), `${what}: expected a JSON object, got ${snippet(ctx, exchange.responseBody)}`);
  return body;
}

const SIGNATURE_FORMAT = /^[0-9a-f]{64}$/;

/** What is wrong with a webhook signature header, or undefined when it is the lowercase-hex HMAC-SHA256 of `body` ("Authentication"). */
export function signatureProblem(body: Buffer, header: string | undefined, secret: string): string | undefined {
  if (header === undefined || header === '') return 'no X-Platform-Signature header';
  if (header.toLowerCase().startsWith('sha256=')) return 'the signature has a `sha256=` prefix';
  if (!SIGNATURE_FORMAT.test(header)) return 'the signature is not 64 lowercase hex characters';
  const expected = createHmac('sha256', secret).update(body).digest();
  if (!timingSafeEqual(expected, Buffer.from(header, 'hex')))
    return 'the signature does not match the HMAC-SHA256 of the body with the webhook secret';
  return undefined;
}

export const verifySignature = (body: Buffer, header: string | undefined, secret: string): boolean =>
  signatureProblem(body, header, secret) === undefined;

export { isRecord };
