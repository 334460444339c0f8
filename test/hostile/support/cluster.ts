import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import {
  adminToken,
  apiClient,
  freePort,
  providerAdminToken,
  stackEnv,
  startReceiver,
  startServiceProcess,
  startServiceProcesses,
  type Receiver,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';

/** Services joining consumer groups on a broker busy with every other test file can take a while. */
const READY_MS = 90_000;

/**
 * The six services as processes, each with its own database, behind one gateway with its rate
 * limits raised (the suite makes a few hundred calls with one key each), and a webhook receiver.
 * Every copy starts at its topics' ends: every owner the suite makes is new.
 */
export interface HostileCluster {
  gateway: TestGateway;
  provider: ServiceProcess;
  sender: ServiceProcess;
  receiver: Receiver;
  /** ordering-pricing's database: its catalog copy tells when a menu can be ordered from. */
  orderingDb: Db;
  /** provider-delivery's administrator token (webhook-sender's provider-callback API takes it too). */
  providerAdminToken: string;
  /** Every service process by its name (`catalog`, ...): the route suite calls each one directly. */
  services: Record<string, ServiceProcess>;
  stop(): Promise<void>;
}

export async function startHostileCluster(): Promise<HostileCluster> {
  const suffix = randomBytes(4).toString('hex');
  const receiver = await startReceiver();
  // Ports chosen first, so that the gateway starts beside the services it forwards to rather than
  // after them: on a machine of two cores, starting processes is most of the suite's time.
  const ports = new Set<number>();
  while (ports.size < 6) ports.add(await freePort());
  const [catalogPort, orderingPort, senderPort, deliveryPort, providerPort, gatewayPort] = [...ports];
  const url = (port: number) => `http://127.0.0.1:${port}`;
  // Each service its own database, and consumer groups of this run alone.
  const start = (service: string, port: number, database: string, env: Record<string, string> = {}) =>
    startServiceProcess(service, port, { MONGO_DATABASE: `it_hx_${database}_${suffix}`, ...env }, READY_MS);
  const groups = (name: string) => ({ KAFKA_CONSUMER_GROUP_PREFIX: `it-hx-${name}-${suffix}` });
  const processes = await startServiceProcesses([
    start('catalog', catalogPort!, 'cat'),
    start('ordering-pricing', orderingPort!, 'ord', {
      ...groups('ordering'),
      CATALOG_COPY_START: 'latest',
      DELIVERY_COPY_START: 'latest',
    }),
    start('webhook-sender', senderPort!, 'wh', {
      ...groups('webhooks'),
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
      INSTALLATIONS_COPY_START: 'latest',
    }),
    start('delivery-assignment', deliveryPort!, 'da', { ...groups('delivery'), COPIES_START: 'latest' }),
    start('provider-delivery', providerPort!, 'prv', groups('provider')),
    // As startGateway does, but with the longer readiness budget of the others.
    start('gateway-auth', gatewayPort!, 'gw', {
      REDIS_KEY_PREFIX: `it_hx_gw_${suffix}:`,
      PUBLIC_BASE_URL: url(gatewayPort!),
      CATALOG_URL: url(catalogPort!),
      ORDERING_URL: url(orderingPort!),
      WEBHOOKS_URL: url(senderPort!),
      DELIVERY_URL: url(deliveryPort!),
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
      RATE_LIMIT_PER_INSTALLATION: '100000',
      RATE_LIMIT_PER_IP: '100000',
    }),
  ]).catch(async (error) => {
    await receiver.close();
    throw error;
  });
  const [, , sender, , provider, gatewayProcess] = processes;
  const client = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  return {
    gateway: {
      url: gatewayProcess!.url,
      process: gatewayProcess!,
      admin: apiClient(gatewayProcess!.url, adminToken()),
      database: `it_hx_gw_${suffix}`,
      stop: async () => void (await gatewayProcess!.stop()),
    },
    provider: provider!,
    sender: sender!,
    receiver,
    orderingDb: client.db(`it_hx_ord_${suffix}`),
    providerAdminToken: providerAdminToken(),
    services: Object.fromEntries(processes.map((p) => [p.name, p])),
    stop: async () => {
      await client.close();
      await Promise.all(processes.map((p) => p.stop()));
      await receiver.close();
    },
  };
}

/** One HTTP answer, the body parsed when it is JSON. */
export interface Answer {
  status: number;
  contentType: string;
  body: any;
  text: string;
}

/** A call with an Authorization header (or none); JSON bodies; POST and PATCH may carry extra headers. */
export async function send(
  url: string,
  method: string,
  authorization: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: parsed, text };
}
