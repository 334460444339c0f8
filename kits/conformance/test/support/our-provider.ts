import { randomBytes, randomUUID } from 'node:crypto';
import { PROVIDER_EVENT_TYPES } from '@marketplace/contracts';
import {
  freePort,
  platformAccountSettings,
  providerAdminToken,
  recordIssuedSecret,
  startReceiver,
  startServiceProcesses,
  startServiceProcess,
  waitFor,
  type Receiver,
  type ServiceProcess,
} from '@marketplace/testing';

/**
 * Our provider-delivery as a provider under certification: the service and a webhook sender of its
 * own as processes on the local stack, and a platform account set up as a platform's onboarding
 * would: every capability of our declaration, the courier simulator moving its deliveries (so the
 * kit sees whole lifecycles), our own event types opted in (the declaration names them as
 * extensions), and a service area holding the declaration's pickup and drop-off but not its
 * `outside` point.
 */

export interface OurProvider {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  stop(): Promise<void>;
}

/** The simulator: enough drivers for every delivery the kit rides at once (a delivery no driver takes within the dispatch window fails: a real decision, which the kit rides around), on a clock 60 times faster, so a delivery ends within seconds. */
const SIMULATOR = { enabled: true, drivers: 24, timeScale: 60 };
/** A square of ±0.02° around the declaration's pickup (52.529, 13.401): its drop-off is inside, its `outside` point is not. */
const AREA = {
  type: 'Polygon',
  coordinates: [
    [
      [13.381, 52.509],
      [13.421, 52.509],
      [13.421, 52.549],
      [13.381, 52.549],
      [13.381, 52.509],
    ],
  ],
};
/** Limits of a provider under test: the kit sends from one address faster than any platform. */
const NO_LIMITS = {
  PLATFORM_RATE_LIMIT_PER_IP: '1000000',
  ADMIN_RATE_LIMIT_PER_IP: '1000000',
  ADMIN_RATE_LIMIT_PER_ADMIN: '1000000',
  COURIER_RATE_LIMIT_PER_IP: '1000000',
  COURIER_RATE_LIMIT_PER_DRIVER: '1000000',
};

async function admin(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${providerAdminToken()}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const parsed: any = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function startProcesses(): Promise<ServiceProcess[]> {
  const suffix = randomBytes(4).toString('hex');
  // Every webhook sender on the stack reads provider-events: a transport key of our own means only
  // this sender opens this provider's callbacks.
  const transport = { WEBHOOK_SECRET_TRANSPORT_KEY: randomBytes(32).toString('base64') };
  const database = `it_sdp_${suffix}`;
  return startServiceProcesses([
    (async () =>
      startServiceProcess('provider-delivery', await freePort(), {
        MONGO_DATABASE: database,
        REDIS_KEY_PREFIX: `${database}:`,
        SIMULATOR_ENABLED: 'true',
        ...NO_LIMITS,
        ...transport,
      }))(),
    (async () =>
      startServiceProcess(
        'webhook-sender',
        await freePort(),
        {
          MONGO_DATABASE: `it_sdpw_${suffix}`,
          KAFKA_CONSUMER_GROUP_PREFIX: `it-conformance-${suffix}`,
          ALLOW_LOOPBACK_HTTP_URLS: 'true',
          INSTALLATIONS_COPY_START: 'latest',
          // The first retry of a callback after 300 ms instead of 30 s: the kit's retry check waits for it.
          WEBHOOK_RETRY_TIME_SCALE: '100',
          WEBHOOK_RESPONSE_TIMEOUT_MS: '3000',
          ...transport,
        },
        90_000,
      ))(),
  ]);
}

/**
 * A new webhook sender reads the attempt topics from their beginning, past every earlier sender's
 * attempts, before its first own one: one delivery's first callback says it has caught up. The
 * receiver stays open until the provider stops: the warm-up delivery rides on, and callbacks
 * refused at connect would trip the sender's circuit of the account (5 in a row), parking every
 * callback of the account for 30 s, the kit's included.
 */
async function warmUp(baseUrl: string, apiKey: string, request: Record<string, unknown>): Promise<Receiver> {
  const receiver = await startReceiver();
  const reference = `warm-up-${randomUUID()}`;
  const res = await fetch(`${baseUrl}/deliveries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      ...request,
      platformReference: reference,
      idempotencyKey: reference,
      webhook: { url: `${receiver.url}/warm-up` },
    }),
  });
  if (res.status !== 200) {
    await receiver.close();
    throw new Error(`warm-up create: ${res.status} ${await res.text()}`);
  }
  await waitFor('the first callback of a new webhook sender', () => receiver.at('/warm-up').length > 0, 200_000, 250);
  return receiver;
}

export async function startOurProvider(warmUpRequest: Record<string, unknown>): Promise<OurProvider> {
  const [provider, sender] = await startProcesses();
  let receiver: Receiver | undefined;
  const stop = async () => {
    await Promise.all([provider!.stop(), sender!.stop()]);
    await receiver?.close();
  };
  try {
    const created = await admin(provider!.url, 'POST', '/platform-accounts', {
      ...platformAccountSettings(`Conformance ${randomUUID().slice(0, 8)}`, { simulator: SIMULATOR }),
      serviceArea: AREA,
      eventTypes: PROVIDER_EVENT_TYPES, // ours opted in: the declaration names them as extensions
    });
    const { apiKey } = await admin(provider!.url, 'POST', `/platform-accounts/${created.account.id}/api-keys`);
    recordIssuedSecret('provider API key', apiKey);
    recordIssuedSecret('provider webhook secret', created.webhookSecret);
    const baseUrl = `${provider!.url}/v1`;
    receiver = await warmUp(baseUrl, apiKey, warmUpRequest);
    return { baseUrl, apiKey, webhookSecret: created.webhookSecret, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
