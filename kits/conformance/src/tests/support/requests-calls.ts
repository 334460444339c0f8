import { randomBytes } from 'node:crypto';
import type { Exchange } from '../../model';
import type { CallOptions, TestContext } from '../../test-api';
import { expectOkObject, gotText, snippet } from './checks';

/**
 * Calls and answers shared by the request tests. A 429 is no verdict on the rule a test checks:
 * the kit waits as the platform would (Retry-After, at most 30 s) and tries again, at most three
 * attempts in all; every attempt stays in the evidence (SDP-LIMITS-06 judges the 429s).
 */

const ATTEMPTS = 3;
const RETRY_AFTER_CAP_MS = 30_000;

function retryAfterMs(exchange: Exchange): number {
  const header = Object.entries(exchange.responseHeaders).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  if (header === undefined) return 1_000;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), RETRY_AFTER_CAP_MS) : 1_000;
}

/** One request, tried again after a 429 as the platform would. */
export async function send(
  ctx: TestContext,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Exchange> {
  let exchange = await ctx.provider.call(method, path, options);
  for (let attempt = 1; attempt < ATTEMPTS && exchange.status === 429; attempt++) {
    const wait = retryAfterMs(exchange);
    ctx.note(`${method} ${path} answered 429; tried again after ${Math.round(wait / 1000)} s`);
    await ctx.sleep(wait);
    exchange = await ctx.provider.call(method, path, options);
  }
  return exchange;
}

/** POST /deliveries with a JSON body. */
export const create = (ctx: TestContext, body: unknown): Promise<Exchange> =>
  send(ctx, 'POST', '/deliveries', { body });

/** Runs `fn` over `items`, at most `concurrency` at a time, keeping the order of the results. */
export async function eachLimited<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** Fails naming every problem found (`undefined` entries are cases that held). */
export function failOnProblems(ctx: TestContext, problems: ReadonlyArray<string | undefined>, what: string): void {
  const found = problems.filter((problem): problem is string => problem !== undefined);
  if (found.length === 0) return;
  const shown = found.slice(0, 8).join('; ');
  ctx.fail(`${found.length} of ${problems.length} ${what}: ${shown}${found.length > 8 ? '; …' : ''}`);
}

/** A create answer ("Create delivery response"). */
export interface CreateAnswer {
  accepted: boolean;
  providerDeliveryId: string | undefined;
  providerTrackingId: string | undefined;
  rejectionReason: string | undefined;
}

/** Why a create answer is not 200 with the create response, or undefined (accepted true or false). */
export function createAnswerProblem(ctx: TestContext, exchange: Exchange, what: string): string | undefined {
  if (exchange.status !== 200) return `${what}: expected 200 with the create response, got ${gotText(ctx, exchange)}`;
  const body = exchange.json as Record<string, unknown> | undefined;
  const bad = (text: string): string =>
    `${what}: expected the create response, got 200 whose ${text}: ${snippet(ctx, exchange.responseBody)}`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return bad('body is not a JSON object');
  if (typeof body.accepted !== 'boolean') return bad('`accepted` is not a boolean');
  if (body.accepted && (typeof body.providerDeliveryId !== 'string' || body.providerDeliveryId.trim() === '')) {
    return bad('`providerDeliveryId` is not a non-blank string although `accepted` is true');
  }
  for (const field of ['providerDeliveryId', 'providerTrackingId', 'rejectionReason']) {
    if (body[field] !== undefined && typeof body[field] !== 'string')
      return bad(`\`${field}\` is present but not a string`);
  }
  return undefined;
}

/** Fails unless the answer is 200 with the create response; returns it. */
export function expectCreateAnswer(ctx: TestContext, exchange: Exchange, what: string): CreateAnswer {
  const body = expectOkObject(ctx, exchange, what);
  const problem = createAnswerProblem(ctx, exchange, what);
  ctx.check(problem === undefined, problem ?? '');
  return {
    accepted: body.accepted as boolean,
    providerDeliveryId: body.providerDeliveryId as string | undefined,
    providerTrackingId: body.providerTrackingId as string | undefined,
    rejectionReason: body.rejectionReason as string | undefined,
  };
}

/** Fails unless the answer is 200 with accepted true (the start of a replay test); returns it. */
export function expectAccepted(ctx: TestContext, exchange: Exchange, what: string): CreateAnswer {
  const answer = expectCreateAnswer(ctx, exchange, what);
  ctx.check(
    answer.accepted,
    `${what}: expected accepted true, got accepted false (rejectionReason: ${answer.rejectionReason ?? 'none'})`,
  );
  return answer;
}

/** A fresh string of exactly `length` characters (unique: an identifier at its limit must not replay another). */
export function uniqueOfLength(prefix: string, length: number): string {
  const head = `${prefix}-${randomBytes(8).toString('hex')}-`;
  return (head + 'x'.repeat(Math.max(0, length - head.length))).slice(0, length);
}

/** The platform's identifiers at once: idempotencyKey is currently equal to platformReference ("Create delivery request"). */
export const identifiers = (value: string): Record<string, string> => ({
  platformReference: value,
  idempotencyKey: value,
});
