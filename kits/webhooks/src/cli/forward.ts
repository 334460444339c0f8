import { signMarketplaceWebhook } from '../marketplace';

/** What the local endpoint answered: its status, or why no answer came. */
export type ForwardOutcome = { status: number; ms: number } | { error: string; ms: number };

const TIMEOUT_MS = 30_000;

type Cause = { code?: string; message?: string; errors?: Cause[] };

/** Why fetch failed, shortly: `timeout`, a system error code (`ECONNREFUSED`), or the message. */
function reasonOf(error: unknown): string {
  if ((error as Error).name === 'TimeoutError') return 'timeout';
  const cause = (error as { cause?: Cause }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message;
}

/**
 * POSTs the webhook body byte for byte to the local URL, with the headers the sender would put on
 * an attempt now: X-Marketplace-Event-Id (the delivery id), -Timestamp and -Signature, and the
 * Standard Webhooks three, signed with the partner's own signing secret. Never throws.
 */
export async function forwardWebhook(
  url: string,
  delivery: { id: string; body: string },
  secret: string,
  now: () => number = Date.now,
): Promise<ForwardOutcome> {
  const body = Buffer.from(delivery.body, 'utf8');
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'marketplace-webhooks-listen',
    ...signMarketplaceWebhook({ body, secret, eventId: delivery.id, timestamp: Math.floor(now() / 1000) }),
  };
  const started = Date.now();
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
    await response.body?.cancel();
    return { status: response.status, ms: Date.now() - started };
  } catch (error) {
    return { error: reasonOf(error), ms: Date.now() - started };
  }
}
