import { PLATFORM_LIMITS, ref } from '../spec';
import type { ConformanceTest, TestContext } from '../test-api';
import { describe, envelopeMismatch, headerOf, isJsonMediaType } from './support/checks';
import { failOnProblems, send } from './support/requests-calls';
import { hugeCreateBody, isRetryAfter, isTimeout } from './support/requests-limits';

/** "Limits" and the media type: what every answer of the run must respect, and a body too big to accept. */

const MIB = 1024 * 1024;

const noRedirects: ConformanceTest = {
  id: 'SDP-LIMITS-01',
  capability: 'core',
  group: 'limits',
  title: 'No answer of the run is a redirect (the platform does not follow them)',
  spec: ref('service'),
  phase: 'after',
  async run(ctx: TestContext) {
    failOnProblems(
      ctx,
      ctx
        .allExchanges()
        .map((exchange) =>
          exchange.status !== null && exchange.status >= 300 && exchange.status < 400
            ? `${describe(exchange)}: expected no redirect, got ${exchange.status} to ${headerOf(exchange.responseHeaders, 'location') ?? 'no Location'}`
            : undefined,
        ),
      'answers were redirects',
    );
  },
};

const withinTimeout: ConformanceTest = {
  id: 'SDP-LIMITS-02',
  capability: 'core',
  group: 'limits',
  title: 'Every answer of the run came within the platform’s 15 s',
  spec: ref('limits'),
  phase: 'after',
  async run(ctx: TestContext) {
    const limit = PLATFORM_LIMITS.timeoutMs;
    failOnProblems(
      ctx,
      ctx.allExchanges().map((exchange) => {
        if (exchange.status === null)
          return isTimeout(exchange) ? `${describe(exchange)}: expected an answer within 15 s, got none` : undefined;
        return exchange.durationMs > limit
          ? `${describe(exchange)}: expected an answer within 15 s, got it after ${(exchange.durationMs / 1000).toFixed(1)} s`
          : undefined;
      }),
      'requests were not answered within 15 s',
    );
  },
};

const bodySize: ConformanceTest = {
  id: 'SDP-LIMITS-03',
  capability: 'core',
  group: 'limits',
  title: 'Every response body of the run is at most 5 MiB',
  spec: ref('limits'),
  phase: 'after',
  async run(ctx: TestContext) {
    const max = PLATFORM_LIMITS.maxResponseBytes;
    failOnProblems(
      ctx,
      ctx
        .allExchanges()
        .map((exchange) =>
          exchange.responseBytes > max
            ? `${describe(exchange)}: expected a body of at most 5 MiB, got ${(exchange.responseBytes / MIB).toFixed(2)} MiB`
            : undefined,
        ),
      'response bodies were over 5 MiB',
    );
  },
};

const jsonMediaType: ConformanceTest = {
  id: 'SDP-LIMITS-04',
  capability: 'core',
  group: 'limits',
  title: 'Every answer with a body is application/json (charset utf-8 when named)',
  spec: ref('versioning'),
  phase: 'after',
  async run(ctx: TestContext) {
    failOnProblems(
      ctx,
      ctx.allExchanges().map((exchange) => {
        if (exchange.status === null || exchange.responseBytes === 0) return undefined;
        const type = headerOf(exchange.responseHeaders, 'content-type');
        return isJsonMediaType(type)
          ? undefined
          : `${describe(exchange)}: expected Content-Type application/json; charset=utf-8, got ${type ?? 'none'}`;
      }),
      'answers with a body were not application/json',
    );
  },
};

const hugeBody: ConformanceTest = {
  id: 'SDP-LIMITS-05',
  capability: 'core',
  group: 'limits',
  title: 'A create body of 6 MiB is refused with 400, 413 or 422 and the error envelope, within 15 s',
  spec: ref('limits'),
  async run(ctx: TestContext) {
    const rawBody = hugeCreateBody(ctx.deliveryRequest({}, null), 6 * MIB);
    ctx.note(`sent a valid create request whose notes make it ${rawBody.length} bytes`);
    const exchange = await send(ctx, 'POST', '/deliveries', { rawBody });
    // The platform needs an answer: a connection closed before any status is no refusal it can read.
    ctx.check(
      exchange.status !== null,
      `a create body of 6 MiB: expected 400, 413 or 422 with the error envelope, got no answer (${exchange.error ?? 'unknown error'}); the platform needs an answer, not a closed connection`,
    );
    ctx.check(
      exchange.durationMs <= PLATFORM_LIMITS.timeoutMs,
      `a create body of 6 MiB: expected an answer within 15 s, got it after ${(exchange.durationMs / 1000).toFixed(1)} s`,
    );
    const mismatch = envelopeMismatch(ctx, exchange, [400, 413, 422], 'a create body of 6 MiB');
    ctx.check(mismatch === undefined, mismatch ?? '');
  },
};

const retryAfterOn429: ConformanceTest = {
  id: 'SDP-LIMITS-06',
  capability: 'core',
  group: 'limits',
  title: 'Every 429 of the run carries Retry-After as seconds or an HTTP date',
  spec: ref('errors'),
  phase: 'after',
  async run(ctx: TestContext) {
    const limited = ctx.allExchanges().filter((exchange) => exchange.status === 429);
    if (limited.length === 0) ctx.note('no 429 in the run: nothing to check');
    failOnProblems(
      ctx,
      limited.map((exchange) => {
        const value = headerOf(exchange.responseHeaders, 'retry-after');
        return isRetryAfter(value)
          ? undefined
          : `${describe(exchange)}: expected Retry-After as seconds or an HTTP date, got ${value === undefined ? 'none' : JSON.stringify(value)}`;
      }),
      '429 answers had no valid Retry-After',
    );
  },
};

export const LIMITS_TESTS: readonly ConformanceTest[] = [
  noRedirects,
  withinTimeout,
  bodySize,
  jsonMediaType,
  hugeBody,
  retryAfterOn429,
];
