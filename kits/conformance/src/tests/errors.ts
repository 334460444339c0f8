import { ref } from '../spec';
import type { ConformanceTest, TestContext } from '../test-api';
import { describe, envelopeMismatch, envelopeProblem, snippet } from './support/checks';
import { failOnProblems, send } from './support/requests-calls';
import { callbackTokens, leaksIn } from './support/requests-leaks';

/** "Errors" and "Error envelope": every failure is the envelope, and no error body exposes internals or secrets. */

const notJson: ConformanceTest = {
  id: 'SDP-ERRORS-01',
  capability: 'core',
  group: 'errors',
  title: 'A create body that is not JSON is 400 with the error envelope',
  spec: ref('errors'),
  async run(ctx: TestContext) {
    const exchange = await send(ctx, 'POST', '/deliveries', { rawBody: '{"platformReference":' });
    const mismatch = envelopeMismatch(ctx, exchange, [400], 'a create body of `{"platformReference":` (not JSON)');
    ctx.check(mismatch === undefined, mismatch ?? '');
  },
};

const wrongKind: ConformanceTest = {
  id: 'SDP-ERRORS-02',
  capability: 'core',
  group: 'errors',
  title: 'A create body of JSON that is not an object ([], null, "x") is 400 or 422 with the error envelope',
  spec: ref('errors'),
  async run(ctx: TestContext) {
    const problems = [];
    for (const rawBody of ['[]', 'null', '"x"']) {
      const exchange = await send(ctx, 'POST', '/deliveries', { rawBody });
      problems.push(envelopeMismatch(ctx, exchange, [400, 422], `a create body of \`${rawBody}\``));
    }
    failOnProblems(ctx, problems, 'JSON bodies of the wrong kind were not refused with 400 or 422 and the envelope');
  },
};

const everyErrorEnveloped: ConformanceTest = {
  id: 'SDP-ERRORS-03',
  capability: 'core',
  group: 'errors',
  title: 'Every 4xx and 5xx answer of the run is the error envelope',
  spec: ref('errorEnvelope'),
  phase: 'after',
  async run(ctx: TestContext) {
    const errors = ctx.allExchanges().filter((exchange) => exchange.status !== null && exchange.status >= 400);
    ctx.note(`${errors.length} answers of 4xx or 5xx in the run`);
    failOnProblems(
      ctx,
      errors.map((exchange) => {
        const problem = envelopeProblem(exchange.json);
        return problem === undefined
          ? undefined
          : `${describe(exchange)}: expected the error envelope, got ${problem}: ${snippet(ctx, exchange.responseBody)}`;
      }),
      'error answers were not the envelope',
    );
  },
};

/** The kit's receiver, where callback URLs with tokens point (learned from a box of its own). */
const receiverOrigin = (ctx: TestContext): string => new URL(ctx.callbacks.box('errors-04-origin').url).origin;

const noLeaks: ConformanceTest = {
  id: 'SDP-ERRORS-04',
  capability: 'core',
  group: 'errors',
  title:
    'No error body exposes a stack trace, SQL, an exception type, the API key, the webhook secret or a callback token',
  spec: ref('errors'),
  phase: 'after',
  async run(ctx: TestContext) {
    const exchanges = ctx.allExchanges();
    const secrets: Array<[string, string]> = [
      ['the API key', ctx.apiKey],
      ['the webhook secret', ctx.callbacks.webhookSecret],
      ...callbackTokens(exchanges, ctx.allCallbacks(), receiverOrigin(ctx)).map((token): [string, string] => [
        'a callback token',
        token,
      ]),
    ];
    const errors = exchanges.filter(
      (exchange) => exchange.status !== null && exchange.status >= 400 && exchange.responseBody !== null,
    );
    ctx.note(`${errors.length} error bodies checked against ${secrets.length} secrets and the leak patterns`);
    failOnProblems(
      ctx,
      errors.map((exchange) => {
        const leaks = leaksIn(exchange.responseBody ?? '', secrets);
        // The body is not quoted: it may hold the very secret found.
        return leaks.length === 0
          ? undefined
          : `${describe(exchange)}: expected an error body without internals or secrets, got one with ${leaks.join(', ')}`;
      }),
      'error bodies exposed internals or secrets',
    );
  },
};

export const ERRORS_TESTS: readonly ConformanceTest[] = [notJson, wrongKind, everyErrorEnveloped, noLeaks];
