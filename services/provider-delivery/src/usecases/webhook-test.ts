import { createHmac } from 'node:crypto';
import {
  WEBHOOK_TEST_EVENT_TYPE,
  type ProviderWebhookTestRequest,
  type ProviderWebhookTestResponse,
} from '@marketplace/contracts';
import type { PlatformAccount } from '../domain/platform-account';
import { callbackUrlProblem } from './callback-url';
import type { ProviderContext } from './context';
import { invalidFields } from './create-delivery';
import { webhookSecretOf } from './platform-accounts';

/** What a failed test says, by the outbound client's error class: never the URL or its token. */
const NETWORK_MESSAGES: Record<string, string> = {
  timeout: 'The callback did not answer within 10 seconds.',
  connect: 'The callback host refused or did not accept the connection.',
  dns: 'The callback host did not resolve.',
  refused_address: 'The callback host resolves to a private or internal address.',
  tls: 'The TLS handshake with the callback host failed (certificate or protocol).',
  reset: 'The connection was reset before an answer came.',
  other: 'The callback could not be reached.',
};

/**
 * POST /webhooks/test (ours: the spec shows no bodies). Sends one `webhook.test` event, signed like
 * every event (X-Platform-Signature over the exact body), to the request's `url` or else the
 * account's global webhook URL, and answers what happened: one attempt, no retry, at most the
 * outbound client's timeouts (3 s to connect, 10 s for the answer), well under the platform's 15 s.
 * It changes nothing, so the platform may retry it freely.
 */
export async function sendTestEvent(
  ctx: ProviderContext,
  account: PlatformAccount,
  request: ProviderWebhookTestRequest,
): Promise<ProviderWebhookTestResponse> {
  const testId = ctx.newId();
  const at = ctx.now();
  const eventTimeUtc = at.toISOString();
  const url = request.url ?? account.webhookUrl;
  const base = { testId, eventTimeUtc };
  if (request.url) {
    const problem = await callbackUrlProblem(ctx, request.url);
    if (problem) throw invalidFields({ url: [problem] });
  }
  const secret = await webhookSecretOf(ctx, account.id);
  if (!url || !secret)
    return {
      ...base,
      callbackConfigured: false,
      delivered: false,
      responseStatus: null,
      errorMessage: 'No callback to test: send `url`, or have the account’s global webhook URL configured.',
    };
  const body = Buffer.from(JSON.stringify({ eventType: WEBHOOK_TEST_EVENT_TYPE, testId, eventTimeUtc }), 'utf8');
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  const result = await ctx.http.post(
    url,
    { 'X-Platform-Signature': signature },
    body,
    'application/json; charset=utf-8',
  );
  const delivered = result.kind === 'response' && result.status >= 200 && result.status < 300;
  ctx.logger.info(
    {
      accountId: account.id,
      testId,
      statusCode: result.kind === 'response' ? result.status : null,
      errorClass: result.kind === 'network' ? result.errorClass : null,
    },
    'platform webhook test sent',
  );
  return {
    ...base,
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
