import { randomBytes, randomUUID } from 'node:crypto';
import { PROVIDER_EVENT_TYPES } from '@marketplace/contracts';
import {
  ALL_PLATFORM_CAPABILITIES,
  freePort,
  PLATFORM_SERVICE_AREA,
  platformAccountSettings,
  platformDeliveryRequest,
  providerAdminToken,
  recordErrorBody,
  recordIssuedSecret,
  recordSecretsIn,
  startServiceProcess,
  type ServiceProcess,
} from '@marketplace/testing';

/** provider-delivery as a process, with helpers for its administrator and platform APIs. */

/** Every event type, ours included (an account's opt-in to the types beyond the spec's table). */
export const ALL_EVENT_TYPES: readonly string[] = PROVIDER_EVENT_TYPES;

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

export const adminToken = providerAdminToken;

export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  authorization?: string,
): Promise<Answer> {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      accept: 'application/json',
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  recordSent(body);
  recordSecretsIn(parsed); // minted keys, webhook secrets, courier tokens, tracking URLs
  recordErrorBody(res.status, method, text);
  return { status: res.status, body: parsed, headers: res.headers, text };
}

/**
 * For the secrets audit: what a call sends under a secret's name (a driver's phone), and a
 * delivery's callback URL with the token in its path (a confidential routing key, never logged).
 */
function recordSent(body: unknown): void {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return;
    }
  }
  recordSecretsIn(value);
  const url = (value as { webhook?: { url?: unknown } } | null)?.webhook?.url;
  if (typeof url !== 'string') return;
  recordIssuedSecret('callback URL', url);
  // The last segment, when it is shaped like a token: a test's plain path ('/callbacks/delivered')
  // is no secret, and recording it would flag every log line that says 'delivered'.
  const token = url.split('/').pop();
  if (token && /^[A-Za-z0-9_-]{16,}$/.test(token)) recordIssuedSecret('callback token', token);
}

export const berlin = PLATFORM_SERVICE_AREA;
export const allCapabilities = ALL_PLATFORM_CAPABILITIES;

export interface TestAccount {
  id: string;
  apiKey: string;
  webhookSecret: string;
  /** Calls the platform API with the account's key. */
  call(method: string, path: string, body?: unknown): Promise<Answer>;
}

export interface TestDriver {
  id: string;
  token: string;
  /** Calls the courier API with the driver's token. */
  call(method: string, path: string, body?: unknown): Promise<Answer>;
}

/**
 * The limits of a provider under test, unless a test sets its own: a suite sets up accounts,
 * drivers and deliveries from one address with one administrator, faster than any operator (the
 * limits are tested on their own, with small numbers: surface-limits.int.test.ts). A restart keeps
 * the Redis key prefix, as a deployment does.
 */
const SET_UP_LIMITS = {
  ADMIN_RATE_LIMIT_PER_IP: '1000000',
  ADMIN_RATE_LIMIT_PER_ADMIN: '1000000',
  PLATFORM_RATE_LIMIT_PER_IP: '1000000',
  COURIER_RATE_LIMIT_PER_IP: '1000000',
  COURIER_RATE_LIMIT_PER_DRIVER: '1000000',
  PUBLIC_RATE_LIMIT_PER_IP: '1000000',
  TRACKING_RATE_LIMIT_PER_TOKEN: '1000000',
};

export class ProviderUnderTest {
  readonly token = adminToken();
  private constructor(
    public process: ServiceProcess,
    readonly database: string,
    private readonly env: Record<string, string>,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<ProviderUnderTest> {
    const database = `it_prv_${randomBytes(4).toString('hex')}`;
    const all = { MONGO_DATABASE: database, REDIS_KEY_PREFIX: `${database}:`, ...SET_UP_LIMITS, ...env };
    return new ProviderUnderTest(await startServiceProcess('provider-delivery', await freePort(), all), database, all);
  }

  get url(): string {
    return this.process.url;
  }

  /** Stops the process and starts a new one on the same database (a restart). */
  async restart(): Promise<void> {
    await this.process.stop();
    this.process = await startServiceProcess('provider-delivery', await freePort(), this.env);
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }

  admin(method: string, path: string, body?: unknown): Promise<Answer> {
    return call(this.url, method, `/admin/v1${path}`, body, `Bearer ${this.token}`);
  }

  async account(
    options: {
      webhookUrl?: string | null;
      capabilities?: Partial<typeof allCapabilities>;
      requestsPerMinute?: number;
      /** The courier simulator's settings; a delivery's clock runs `timeScale` times faster while it is on. */
      simulator?: { enabled: boolean; drivers: number; timeScale: number };
      /** The event types its platform receives (the spec's table unless given; `ALL_EVENT_TYPES` opts in to ours). */
      eventTypes?: readonly string[];
    } = {},
  ): Promise<TestAccount> {
    const created = await this.admin('POST', '/platform-accounts', {
      ...platformAccountSettings(`Platform ${randomUUID().slice(0, 8)}`, options),
      ...(options.eventTypes ? { eventTypes: options.eventTypes } : {}),
    });
    if (created.status !== 201) throw new Error(`account: ${created.status} ${created.text}`);
    const id = created.body.account.id as string;
    const key = await this.admin('POST', `/platform-accounts/${id}/api-keys`);
    const apiKey = key.body.apiKey as string;
    return {
      id,
      apiKey,
      webhookSecret: created.body.webhookSecret,
      call: (method, path, body) => call(this.url, method, `/v1${path}`, body, `Bearer ${apiKey}`),
    };
  }

  /** Registers a driver of the account (online near the default pickup unless told) and gives their courier API. */
  async driver(accountId: string, overrides: Record<string, unknown> = {}): Promise<TestDriver> {
    const registered = await this.admin('POST', `/platform-accounts/${accountId}/drivers`, {
      name: 'Dana Driver',
      phone: '+49 170 5550101',
      vehicle: 'bicycle',
      online: true,
      position: { lat: 52.525, lng: 13.4 },
      ...overrides,
    });
    if (registered.status !== 201) throw new Error(`driver: ${registered.status} ${registered.text}`);
    const token = registered.body.courierToken as string;
    return {
      id: registered.body.driver.id,
      token,
      call: (method, path, body) => call(this.url, method, `/courier/v1${path}`, body, `Bearer ${token}`),
    };
  }

  /** Records what happened to a delivery through the operations API. */
  report(accountId: string, deliveryId: string, body: Record<string, unknown>): Promise<Answer> {
    return this.admin('POST', `/platform-accounts/${accountId}/deliveries/${deliveryId}/events`, body);
  }
}

/** A valid create request inside `berlin`; `overrides` replace fields. */
export const createRequest = platformDeliveryRequest;
