import { createHmac } from 'node:crypto';
import {
  WEBHOOK_TEST_EVENT_TYPE,
  type ProviderWebhookTestRequest,
  type ProviderWebhookTestResponse,
} from '@marketplace/contracts';
import type { RememberedTest } from '../../adapters/webhook-test-memory';
import type { PlatformAccount } from '../../domain/platform-account';
import {
  msLeft,
  WEBHOOK_TEST_DEADLINE_MS,
  WEBHOOK_TEST_DEDUPE_SECONDS,
  WEBHOOK_TEST_POLL_MS,
  WEBHOOK_TEST_REPEAT_WAIT_MS,
  webhookTestKey,
} from '../../domain/webhook-test';
import { RESOLVE_TIMEOUT_MS } from '../../domain/callback-url';
import { invalidFields } from '../../domain/errors';
import { openWebhookSecret } from '../accounts/open-webhook-secret';
import type { ProviderContext } from '../context';
import { checkCallbackUrl } from '../deliveries/check-callback-url';

/** What a failed test says, by the outbound client's error class: never the URL or its token. */
const NETWORK_MESSAGES: Record<string, string> = {
  timeout: `The callback did not answer within the test’s ${WEBHOOK_TEST_DEADLINE_MS / 1_000} seconds.`,
  connect: 'The callback host refused or did not accept the connection.',
  dns: 'The callback host did not resolve.',
  refused_address: 'The callback host resolves to a private or internal address.',
  tls: 'The TLS handshake with the callback host failed (certificate or protocol).',
  reset: 'The connection was reset before an answer came.',
  other: 'The callback could not be reached.',
};

const STILL_RUNNING =
  'A test of this callback started moments ago and has not finished; its outcome answers a repeat for ' +
  `${WEBHOOK_TEST_DEDUPE_SECONDS} seconds.`;

/**
 * POST /webhooks/test (ours: the spec shows no bodies). Sends one `webhook.test` event, signed like
 * every event (X-Platform-Signature over the exact body), to the request's `url` or else the
 * account's global webhook URL, and answers what happened: one attempt, no retry.
 *
 * One deadline (10 s) covers the whole call: the check of a given URL's host (its resolution, at
 * most 2 s of it), then the outbound client's own resolution, connection and answer get what is
 * left, so the answer leaves well inside the platform's 15 s. The platform retries this endpoint
 * automatically, so a repeat of the same test (same account, same URL) within 60 s sends nothing:
 * it answers the first test's outcome, or waits for the one running (at most 11 s from its own
 * start: the first, begun earlier, is done by then).
 */
export async function sendTestEvent(
  ctx: ProviderContext,
  account: PlatformAccount,
  request: ProviderWebhookTestRequest,
): Promise<ProviderWebhookTestResponse> {
  const startedAt = performance.now();
  const deadlineAt = startedAt + WEBHOOK_TEST_DEADLINE_MS;
  const waitUntil = startedAt + WEBHOOK_TEST_REPEAT_WAIT_MS;
  const testId = ctx.newId();
  const eventTimeUtc = ctx.now().toISOString();
  const url = request.url ?? account.webhookUrl;
  const secret = url ? await openWebhookSecret(ctx, account.id) : undefined;
  if (!url || !secret)
    return {
      testId,
      eventTimeUtc,
      callbackConfigured: false,
      delivered: false,
      responseStatus: null,
      errorMessage: 'No callback to test: send `url`, or have the account’s global webhook URL configured.',
    };
  const key = webhookTestKey(account.id, url);
  // A repeat: the URL passed its check when the first test ran, so nothing is resolved again.
  const remembered = await ctx.webhookTests.find(key);
  if (remembered) return answerOf(ctx, key, remembered, waitUntil);
  if (request.url) {
    const resolveMs = Math.min(RESOLVE_TIMEOUT_MS, msLeft(deadlineAt, performance.now()));
    const problem = await checkCallbackUrl(ctx, request.url, resolveMs);
    if (problem) throw invalidFields({ url: [problem] });
  }
  if (!(await ctx.webhookTests.claim(key, { testId, eventTimeUtc }, WEBHOOK_TEST_DEDUPE_SECONDS))) {
    const running = await ctx.webhookTests.find(key);
    if (running) return answerOf(ctx, key, running, waitUntil);
  }
  const outcome = await send(ctx, account, url, secret, { testId, eventTimeUtc }, deadlineAt);
  await ctx.webhookTests.record(key, outcome, WEBHOOK_TEST_DEDUPE_SECONDS);
  return outcome;
}

/** The one attempt, within what is left of the deadline. */
async function send(
  ctx: ProviderContext,
  account: PlatformAccount,
  url: string,
  secret: string,
  test: { testId: string; eventTimeUtc: string },
  deadlineAt: number,
): Promise<ProviderWebhookTestResponse> {
  const body = Buffer.from(JSON.stringify({ eventType: WEBHOOK_TEST_EVENT_TYPE, ...test }), 'utf8');
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  const result = await ctx.http.request(url, {
    method: 'POST',
    headers: { 'X-Platform-Signature': signature },
    body: { bytes: body, contentType: 'application/json; charset=utf-8' },
    // A spent budget is still a call bounded at once (a timeout), never an unbounded one.
    timeoutMs: Math.max(1, msLeft(deadlineAt, performance.now())),
  });
  const delivered = result.kind === 'response' && result.status >= 200 && result.status < 300;
  ctx.logger.info(
    {
      accountId: account.id,
      testId: test.testId,
      statusCode: result.kind === 'response' ? result.status : null,
      errorClass: result.kind === 'network' ? result.errorClass : null,
    },
    'platform webhook test sent',
  );
  return {
    ...test,
    callbackConfigured: true,
    delivered,
    responseStatus: result.kind === 'response' ? result.status : null,
    errorMessage: delivered
      ? null
      : result.kind === 'response'
        ? `The callback answered ${result.status}.`
        : (NETWORK_MESSAGES[result.errorClass] ?? NETWORK_MESSAGES.other!),
  };
}

/**
 * The answer to a repeat: the first test's outcome, once it has one (waited for until `waitUntil`,
 * by which the first, begun earlier, has met its own deadline); a first test that outlives that
 * wait (its process stopped mid-test) is reported as not delivered, and nothing is sent.
 */
async function answerOf(
  ctx: ProviderContext,
  key: string,
  remembered: RememberedTest,
  waitUntil: number,
): Promise<ProviderWebhookTestResponse> {
  let seen = remembered;
  while (seen.state === 'running' && msLeft(waitUntil, performance.now()) > WEBHOOK_TEST_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, WEBHOOK_TEST_POLL_MS));
    seen = (await ctx.webhookTests.find(key)) ?? seen;
  }
  ctx.logger.info(
    { testId: seen.state === 'done' ? seen.outcome.testId : seen.testId },
    'platform webhook test repeated',
  );
  if (seen.state === 'done') return seen.outcome;
  return {
    testId: seen.testId,
    eventTimeUtc: seen.eventTimeUtc,
    callbackConfigured: true,
    delivered: false,
    responseStatus: null,
    errorMessage: STILL_RUNNING,
  };
}
