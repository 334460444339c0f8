/**
 * The installation's webhook delivery log, as the Partner API shows it (our extension of v1:
 * `GET /api/partner/v1/webhooks/deliveries` and `.../{deliveryId}`), read with Node's fetch.
 */

/** A delivery in the list (the Partner API's `WebhookDelivery`, the fields used here). */
export interface LoggedDelivery {
  id: string;
  installationId: string;
  type: string;
  status: string;
  round: number;
  createdAt: string;
}

/** One delivery read alone: with `body`, the webhook body exactly as sent. */
export interface LoggedDeliveryDetail extends LoggedDelivery {
  body: string;
}

/** The log answered 429 (or 503): wait `retryAfterSeconds` before asking again. */
export class LogBusyError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`the delivery log answered ${status}`);
    this.name = 'LogBusyError';
  }
}

/** The API key was refused (401): nothing will change by waiting. */
export class LogRefusedError extends Error {
  constructor(readonly status: number) {
    super(
      status === 401
        ? 'the API key was refused (401): check --api-key'
        : `the delivery log refused the request (${status})`,
    );
    this.name = 'LogRefusedError';
  }
}

const PREFIX = '/api/partner/v1/webhooks/deliveries';
const TIMEOUT_MS = 10_000;

/** `Retry-After` in whole seconds (a date is read too); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export class DeliveryLog {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** The newest deliveries, newest first. */
  async list(limit: number): Promise<LoggedDelivery[]> {
    return (await this.read(`${PREFIX}?limit=${limit}`)) as LoggedDelivery[];
  }

  /** One delivery with its body; undefined when it is gone (404). */
  async get(deliveryId: string): Promise<LoggedDeliveryDetail | undefined> {
    return (await this.read(`${PREFIX}/${encodeURIComponent(deliveryId)}`, true)) as LoggedDeliveryDetail | undefined;
  }

  private async read(path: string, missingIsUndefined = false): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      headers: { authorization: `ApiKey ${this.apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.ok) return response.json();
    await response.body?.cancel();
    if (response.status === 404 && missingIsUndefined) return undefined;
    if (response.status === 429 || response.status >= 500)
      throw new LogBusyError(response.status, retryAfterSeconds(response.headers.get('retry-after')));
    throw new LogRefusedError(response.status);
  }
}
