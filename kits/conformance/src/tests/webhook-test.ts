import type { Exchange } from '../model';
import { PLATFORM_LIMITS, SIGNATURE_HEADER, ref } from '../spec';
import type { CallbackBox, ConformanceTest, TestContext } from '../test-api';
import { gotText, headerOf, isJsonMediaType, signatureProblem, snippet } from './support/checks';
import { failOnProblems, send } from './support/requests-calls';

/** POST /webhooks/test ("Endpoints"): its bodies are not shown in the contract; the declaration says which request body it takes. */

const EVENT_WAIT_MS = 15_000;

/** Sends the webhook test with the declared body (`{url}` of the box, or `{}`). */
async function sendWebhookTest(ctx: TestContext, box: CallbackBox): Promise<{ exchange: Exchange; withUrl: boolean }> {
  const declared = ctx.declaration.webhookTest?.body;
  if (declared === undefined) ctx.note('the declaration names no webhookTest body: `{}` sent');
  const withUrl = declared === 'url';
  const exchange = await send(ctx, 'POST', '/webhooks/test', { body: withUrl ? { url: box.url } : {} });
  return { exchange, withUrl };
}

/** Why the answer is not a 2xx (JSON when it has a body) within 15 s, or undefined. */
function answerProblem(ctx: TestContext, exchange: Exchange): string | undefined {
  const what = 'POST /webhooks/test';
  if (exchange.status === null || exchange.status < 200 || exchange.status > 299)
    return `${what}: expected 2xx, got ${gotText(ctx, exchange)}`;
  if (exchange.durationMs > PLATFORM_LIMITS.timeoutMs)
    return `${what}: expected an answer within 15 s, got it after ${(exchange.durationMs / 1000).toFixed(1)} s`;
  if (exchange.responseBytes === 0) return undefined;
  const type = headerOf(exchange.responseHeaders, 'content-type');
  if (!isJsonMediaType(type)) return `${what}: expected Content-Type application/json, got ${type ?? 'none'}`;
  if (exchange.json === undefined) return `${what}: expected a JSON body, got ${snippet(ctx, exchange.responseBody)}`;
  return undefined;
}

const answers: ConformanceTest = {
  id: 'SDP-WEBHOOKTEST-01',
  capability: 'supportsWebhooks',
  group: 'webhook-test',
  title: 'POST /webhooks/test answers 2xx with JSON within 15 s',
  spec: ref('endpoints'),
  async run(ctx: TestContext) {
    const { exchange } = await sendWebhookTest(ctx, ctx.callbacks.box('webhook-test-01'));
    const problem = answerProblem(ctx, exchange);
    ctx.check(problem === undefined, problem ?? '');
    // The contract shows no response body: an empty 2xx is no breach, but say so.
    if (exchange.responseBytes === 0) ctx.note(`${exchange.status} without a body (the contract shows none)`);
  },
};

/** Polls the box for up to 15 s; the test event may not come at all when no URL was sent. */
async function waitForArrival(ctx: TestContext, box: CallbackBox): Promise<boolean> {
  const until = Date.now() + EVENT_WAIT_MS;
  while (box.received().length === 0 && Date.now() < until) await ctx.sleep(250);
  return box.received().length > 0;
}

const signed: ConformanceTest = {
  id: 'SDP-WEBHOOKTEST-02',
  capability: 'supportsWebhooks',
  group: 'webhook-test',
  title: 'The test event is signed: X-Platform-Signature, lowercase hex HMAC-SHA256 of its exact bytes',
  spec: ref('authentication'),
  async run(ctx: TestContext) {
    const box = ctx.callbacks.box('webhook-test-02');
    const { exchange, withUrl } = await sendWebhookTest(ctx, box);
    ctx.check(
      exchange.status !== null && exchange.status >= 200 && exchange.status < 300,
      `POST /webhooks/test: expected 2xx, got ${gotText(ctx, exchange)}; no test event to check`,
    );
    if (!(await waitForArrival(ctx, box))) {
      if (!withUrl)
        ctx.skip(
          'no test event reached the box within 15 s, and the webhook test was sent `{}` (it goes to the connection’s configured URL)',
        );
      ctx.fail('expected the test event at the URL sent within 15 s, got none');
    }
    const received = box.received();
    ctx.note(`${received.length} request(s) at the box`);
    failOnProblems(
      ctx,
      received.map((callback, i) => {
        const problem = signatureProblem(
          callback.body,
          headerOf(callback.headers, SIGNATURE_HEADER),
          ctx.callbacks.webhookSecret,
        );
        return problem === undefined ? undefined : `test event #${i + 1}: expected a valid signature, got ${problem}`;
      }),
      'test events were not signed right',
    );
  },
};

export const WEBHOOK_TEST_TESTS: readonly ConformanceTest[] = [answers, signed];
