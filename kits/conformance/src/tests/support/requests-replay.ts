import type { TestContext } from '../../test-api';
import type { CreateAnswer } from './requests-calls';

/** Replays of a create ("Create delivery", rules 2 and 3). */

/** Why a replay's answer is not the original's (accepted, providerDeliveryId, providerTrackingId), or undefined. */
export function sameResultProblem(original: CreateAnswer, replay: CreateAnswer, what: string): string | undefined {
  for (const field of ['accepted', 'providerDeliveryId', 'providerTrackingId'] as const) {
    if (replay[field] !== original[field]) {
      return `${what}: expected the original result (${field} ${JSON.stringify(original[field])}), got ${field} ${JSON.stringify(replay[field])}`;
    }
  }
  return undefined;
}

export function expectSameResult(ctx: TestContext, original: CreateAnswer, replay: CreateAnswer, what: string): void {
  const problem = sameResultProblem(original, replay, what);
  ctx.check(problem === undefined, problem ?? '');
}

/**
 * The same request as JSON text of another form: its fields in reverse order and the amount
 * written with a trailing zero (`23.50` for `23.5`). The request's amount must be 23.5.
 */
export function compatibleText(request: Record<string, unknown>): string {
  const reversed = Object.fromEntries(Object.entries(request).reverse());
  const text = JSON.stringify(reversed);
  const rewritten = text.replace(/"amount":23\.5(?=[,}])/, '"amount":23.50');
  if (rewritten === text) throw new Error('compatibleText needs a request whose amount is 23.5');
  return rewritten;
}
