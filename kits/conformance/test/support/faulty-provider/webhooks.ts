import { createHmac } from 'node:crypto';

/** "Authentication": lowercase hex HMAC-SHA256 over the exact body bytes, keyed with the secret's UTF-8 bytes. */
export const sign = (body: Buffer, secret: string): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');

/** "Events" rule 5: at least six attempts (eight here), retried after 408, 429, 5xx or no answer. */
const MAX_ATTEMPTS = 8;
const ATTEMPT_TIMEOUT_MS = 5_000;
const RETRY_AFTER_CAP_MS = 30_000;
const isRetryable = (status: number | null): boolean =>
  status === null || status === 408 || status === 429 || status >= 500;

interface Attempt {
  status: number | null;
  retryAfterMs: number | null;
}

const retryAfterMs = (header: string | null): number | null => {
  if (header === null) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), RETRY_AFTER_CAP_MS) : null;
};

/**
 * Sends callbacks. One queue per delivery keeps its events in order: the next waits until the one
 * before is delivered or given up. A retry sends the same bytes with the same signature.
 */
export class WebhookSender {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly inFlight = new Set<AbortController>();
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;

  constructor(private readonly retryBaseMs: number) {}

  /** Queues one event for `queue` (a delivery id); returns at once. */
  enqueue(queue: string, url: string, body: Buffer, signature: string): void {
    const previous = this.queues.get(queue) ?? Promise.resolve();
    const next = previous.then(() => this.deliver(url, body, signature)).catch(() => undefined);
    this.queues.set(queue, next);
  }

  /** One attempt, no retry (the webhook test answers with what happened). */
  async sendOnce(url: string, body: Buffer, signature: string): Promise<number | null> {
    return (await this.attempt(url, body, signature)).status;
  }

  close(): void {
    this.closed = true;
    for (const controller of this.inFlight) controller.abort();
    for (const wait of this.waits) {
      clearTimeout(wait.timer);
      wait.resolve();
    }
  }

  private async deliver(url: string, body: Buffer, signature: string): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !this.closed; attempt++) {
      const result = await this.attempt(url, body, signature);
      if (!isRetryable(result.status)) return;
      // Exponential backoff with up to 20 % jitter; a Retry-After longer than that is honoured.
      const backoff = this.retryBaseMs * 2 ** (attempt - 1) * (1 + Math.random() * 0.2);
      await this.wait(Math.max(backoff, result.retryAfterMs ?? 0));
    }
  }

  private async attempt(url: string, body: Buffer, signature: string): Promise<Attempt> {
    if (this.closed) return { status: null, retryAfterMs: null };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    this.inFlight.add(controller);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-platform-signature': signature },
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
    } catch {
      return { status: null, retryAfterMs: null };
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wait = { timer: setTimeout(() => (this.waits.delete(wait), resolve()), ms), resolve };
      this.waits.add(wait);
    });
  }
}
