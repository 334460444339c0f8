import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import {
  createTenant,
  freePort,
  partnerCall,
  pickupOrder,
  publishApp,
  restaurantMenu,
  stackEnv,
  startGateway,
  startReceiver,
  startServiceProcess,
  startServiceProcesses,
  waitFor,
  type ApiClient,
  type DemoMenu,
  type Receiver,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';

/** Services joining consumer groups on a broker busy with every other test file can take a while. */
const READY_MS = 90_000;

/**
 * The whole delivery path as processes, each with its own database: gateway-auth, catalog,
 * ordering-pricing, webhook-sender (to a receiver in this process) and delivery-assignment. The
 * copies start at the topics' ends: every tenant of a test is new.
 */
export interface DeliveryCluster {
  gateway: TestGateway;
  processes: ServiceProcess[];
  delivery: ServiceProcess;
  receiver: Receiver;
  deliveryDb: Db;
  orderingDb: Db;
  gatewayDb: Db;
  /** provider-delivery, our own Standard Delivery Provider, when asked for (`withProvider`). */
  provider?: ServiceProcess;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Start provider-delivery too (its own database), for the marketplace to dispatch deliveries to. */
  withProvider?: boolean;
  /** Settings of delivery-assignment beyond the cluster's. */
  deliveryEnv?: Record<string, string>;
}

export async function startDeliveryCluster(options: ClusterOptions = {}): Promise<DeliveryCluster> {
  const suffix = randomBytes(4).toString('hex');
  const receiver = await startReceiver();
  const processes = await startServiceProcesses([
    startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: `it_cat_${suffix}` }, READY_MS),
    startServiceProcess(
      'ordering-pricing',
      await freePort(),
      {
        MONGO_DATABASE: `it_ord_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-ordering-${suffix}`,
        CATALOG_COPY_START: 'latest',
        DELIVERY_COPY_START: 'latest',
      },
      READY_MS,
    ),
    startServiceProcess(
      'webhook-sender',
      await freePort(),
      {
        MONGO_DATABASE: `it_wh_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-webhooks-${suffix}`,
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        INSTALLATIONS_COPY_START: 'latest',
      },
      READY_MS,
    ),
    startServiceProcess(
      'delivery-assignment',
      await freePort(),
      {
        MONGO_DATABASE: `it_da_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-delivery-${suffix}`,
        COPIES_START: 'latest',
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        ...options.deliveryEnv,
      },
      READY_MS,
    ),
    ...(options.withProvider
      ? [
          startServiceProcess(
            'provider-delivery',
            await freePort(),
            { MONGO_DATABASE: `it_prv_${suffix}`, ALLOW_LOOPBACK_HTTP_URLS: 'true' },
            READY_MS,
          ),
        ]
      : []),
  ]);
  const [catalog, ordering, sender, delivery, provider] = processes as [
    ServiceProcess,
    ServiceProcess,
    ServiceProcess,
    ServiceProcess,
    ServiceProcess | undefined,
  ];
  const gateway = await startGateway({
    CATALOG_URL: catalog.url,
    ORDERING_URL: ordering.url,
    WEBHOOKS_URL: sender.url,
    DELIVERY_URL: delivery.url,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
    RATE_LIMIT_PER_INSTALLATION: '100000',
    RATE_LIMIT_PER_IP: '100000',
  }).catch(async (error) => {
    await Promise.all(processes.map((p) => p.stop()));
    throw error;
  });
  const client = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  return {
    gateway,
    processes,
    delivery,
    receiver,
    deliveryDb: client.db(`it_da_${suffix}`),
    orderingDb: client.db(`it_ord_${suffix}`),
    gatewayDb: client.db(gateway.database),
    ...(provider ? { provider } : {}),
    stop: async () => {
      await client.close();
      await gateway.stop();
      await Promise.all(processes.map((p) => p.stop()));
      await receiver.close();
    },
  };
}

export const DELIVERY_SCOPES = [
  'Delivery.Accept',
  'Delivery.Reject',
  'Delivery.Cancel',
  'Delivery.UpdateStatus',
  'Delivery.UpdateDriver',
  'Delivery.UpdateEta',
  'Delivery.UpdateTracking',
  'Orders.Read',
];
export const DELIVERY_EVENTS = ['delivery.assigned', 'delivery.cancelled', 'delivery.superseded'];

/** A connected installation of the restaurant, with its webhooks going to its own receiver path. */
export interface Provider {
  installationId: string;
  apiKey: string;
  webhookSecret: string | null;
  /** The receiver path its webhooks arrive at. */
  hookPath: string;
  /** A Partner API call; POST and PATCH get a fresh Idempotency-Key unless one is given. */
  call(method: string, path: string, body?: unknown, key?: string): ReturnType<typeof partnerCall>;
}

export const MITTE_SQUARE = {
  type: 'Polygon',
  coordinates: [
    [
      [13.38, 52.52],
      [13.42, 52.52],
      [13.42, 52.54],
      [13.38, 52.54],
      [13.38, 52.52],
    ],
  ],
};
export const INSIDE = { latitude: 52.53, longitude: 13.4 };

/** A tenant with the demo menu, a delivery zone, an order source and delivery-provider installations. */
export interface Restaurant {
  tenantId: string;
  tenant: ApiClient;
  menu: DemoMenu;
  zoneId: string;
  source: Provider;
  providerA: Provider;
  providerB: Provider;
  /** Connected, but without Delivery.Accept. */
  noAccept: Provider;
  /** Installed, connected, then disconnected. */
  disconnected: Provider;
  /** A Delivery order placed by the source; its id and number. */
  deliveryOrder(): Promise<{ orderId: string; orderNumber: string }>;
  pickupOrder(): Promise<{ orderId: string; orderNumber: string }>;
  assign(orderId: string, installationId: string): ReturnType<ApiClient['call']>;
  delivery(orderId: string): ReturnType<ApiClient['call']>;
}

async function provider(
  cluster: DeliveryCluster,
  owner: { tenantId: string; tenant: ApiClient },
  scopes: string[],
  events: string[],
  beforeInstall?: (appId: string, version: number) => Promise<void>,
): Promise<Provider> {
  const hookPath = `/hooks/${randomUUID()}`;
  const { appId, version } = await publishApp(cluster.gateway, scopes, events, {
    webhookUrl: events.length > 0 ? `${cluster.receiver.url}${hookPath}` : null,
  });
  await beforeInstall?.(appId, version);
  const installed = await owner.tenant.call('POST', '/api/tenant/v1/installations', {
    appId,
    contractVersion: version,
  });
  if (installed.status !== 201) throw new Error(`install: ${installed.status} ${JSON.stringify(installed.body)}`);
  const connected = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installed.body.id}/connect`);
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${JSON.stringify(connected.body)}`);
  const apiKey: string = connected.body.credentials.apiKey;
  return {
    installationId: installed.body.id,
    apiKey,
    webhookSecret: connected.body.credentials.webhookSigningSecret,
    hookPath,
    call: (method, path, body, key) =>
      partnerCall(cluster.gateway, apiKey, method, path, {
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: method === 'GET' ? {} : { 'idempotency-key': key ?? randomUUID() },
      }),
  };
}

/**
 * A connected delivery provider whose contract version predates the gateway's rule that a version
 * with a Delivery.* scope subscribes to delivery.assigned: published as the gateway wants it now,
 * then given `contract` (its events and webhook URL) in the gateway's database before the tenant
 * installs and connects it.
 */
export function legacyProvider(
  cluster: DeliveryCluster,
  owner: { tenantId: string; tenant: ApiClient },
  contract: { subscribedEvents: string[]; webhookUrl: string | null },
): Promise<Provider> {
  return provider(cluster, owner, DELIVERY_SCOPES, DELIVERY_EVENTS, async (appId, version) => {
    const changed = await cluster.gatewayDb
      .collection<{ _id: string }>('contract_versions')
      .updateOne({ _id: `${appId}:${version}` }, { $set: contract });
    if (changed.modifiedCount !== 1) throw new Error(`contract version ${appId}:${version} not changed`);
  });
}

export async function restaurant(cluster: DeliveryCluster): Promise<Restaurant> {
  const owner = await createTenant(cluster.gateway);
  const menu = await restaurantMenu(owner.tenant, owner.tenantId, cluster.orderingDb);
  const zone = await owner.tenant.call('POST', '/api/tenant/v1/delivery-zones', {
    branchId: menu.branchId,
    name: 'Mitte',
    geometry: MITTE_SQUARE,
    fee: 2.5,
  });
  if (zone.status !== 201) throw new Error(`zone: ${zone.status} ${JSON.stringify(zone.body)}`);
  const [source, providerA, providerB, noAccept, disconnected] = await Promise.all([
    provider(cluster, owner, ['Orders.Create'], []),
    provider(cluster, owner, DELIVERY_SCOPES, DELIVERY_EVENTS),
    provider(cluster, owner, DELIVERY_SCOPES, DELIVERY_EVENTS),
    provider(
      cluster,
      owner,
      DELIVERY_SCOPES.filter((s) => s !== 'Delivery.Accept'),
      DELIVERY_EVENTS,
    ),
    provider(cluster, owner, DELIVERY_SCOPES, DELIVERY_EVENTS),
  ]);
  const off = await owner.tenant.call('POST', `/api/tenant/v1/installations/${disconnected.installationId}/disconnect`);
  if (off.status !== 200) throw new Error(`disconnect: ${off.status} ${JSON.stringify(off.body)}`);
  const place = async (body: Record<string, unknown>) => {
    const res = await source.call('POST', '/orders', pickupOrder(menu, body));
    if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
    return { orderId: res.body.orderId as string, orderNumber: res.body.orderNumber as string };
  };
  return {
    ...owner,
    menu,
    zoneId: zone.body.id,
    source,
    providerA,
    providerB,
    noAccept,
    disconnected,
    deliveryOrder: () =>
      place({
        orderMode: 1,
        deliveryZoneId: zone.body.id,
        deliveryAddress: { label: 'Home', addressLine: 'Torstrasse 5', ...INSIDE },
      }),
    pickupOrder: () => place({}),
    assign: (orderId, installationId) =>
      owner.tenant.call('POST', `/api/tenant/v1/deliveries/${orderId}/assign`, { installationId }),
    delivery: (orderId) => owner.tenant.call('GET', `/api/tenant/v1/deliveries/${orderId}`),
  };
}

/** The webhooks of `type` about `orderId` that reached `provider`, parsed, once `count` arrived. */
export async function webhooksFor(
  cluster: DeliveryCluster,
  provider: Provider,
  type: string,
  orderId: string,
  count = 1,
): Promise<Array<{ envelope: any; request: ReturnType<Receiver['at']>[number] }>> {
  let found: Array<{ envelope: any; request: ReturnType<Receiver['at']>[number] }> = [];
  // Generous: a new webhook-sender's attempt consumer group starts at the beginning of the attempt
  // topics, which on a long-lived local stack hold every earlier test's attempts; the first
  // webhook waits until it has read past them (tens of seconds), the later ones do not.
  await waitFor(
    `${count} ${type} webhook(s) for order ${orderId} at ${provider.hookPath}`,
    async () => {
      found = cluster.receiver
        .at(provider.hookPath)
        .map((request) => ({ envelope: JSON.parse(request.body.toString('utf8')), request }))
        .filter(({ envelope }) => envelope.type === type && envelope.data.orderId === orderId);
      return found.length >= count;
    },
    90_000,
  );
  return found;
}
