import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import {
  connectedApp,
  createTenant,
  freePort,
  partnerCall,
  seedMenu,
  stackEnv,
  startGateway,
  startServiceProcess,
  startServiceProcesses,
  waitForCatalogCopy,
  type ApiClient,
  type ConnectedApp,
  type DemoMenu,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';

// The menu and the order on it are shared with the webhook suites (@marketplace/testing).
export { pickupOrder, selectionId, type DemoMenu } from '@marketplace/testing';

/** Services joining consumer groups on a broker busy with every other test file can take a while. */
const READY_MS = 90_000;
/**
 * gateway-auth, catalog and ordering-pricing as real processes, each with its own database; the
 * gateway forwards to both. Ordering's catalog and delivery copies read only new events (its
 * tenants and orders are all new), under consumer groups of its own.
 */
export interface OrderingCluster {
  gateway: TestGateway;
  catalog: ServiceProcess;
  ordering: ServiceProcess;
  orderingDatabase: string;
  db: Db;
  stop(): Promise<void>;
}

export async function startOrderingCluster(orderingEnv: Record<string, string> = {}): Promise<OrderingCluster> {
  const suffix = randomBytes(4).toString('hex');
  const orderingDatabase = `it_ord_${suffix}`;
  const [catalog, ordering] = await startServiceProcesses([
    startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: `it_cat_${suffix}` }, READY_MS),
    startServiceProcess(
      'ordering-pricing',
      await freePort(),
      {
        MONGO_DATABASE: orderingDatabase,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-ordering-${suffix}`,
        CATALOG_COPY_START: 'latest',
        DELIVERY_COPY_START: 'latest',
        ...orderingEnv,
      },
      READY_MS,
    ),
  ]);
  const gateway = await startGateway({
    CATALOG_URL: catalog!.url,
    ORDERING_URL: ordering!.url,
    RATE_LIMIT_PER_INSTALLATION: '100000',
    RATE_LIMIT_PER_IP: '100000',
  }).catch(async (error) => {
    await Promise.all([catalog!.stop(), ordering!.stop()]);
    throw error;
  });
  const client = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  return {
    gateway,
    catalog: catalog!,
    ordering: ordering!,
    orderingDatabase,
    db: client.db(orderingDatabase),
    stop: async () => {
      await client.close();
      await gateway.stop();
      await Promise.all([catalog!.stop(), ordering!.stop()]);
    },
  };
}

export type Response = { status: number; body: any; headers: Headers };

/** A tenant with a menu, and a connected order-source app. */
export interface Restaurant {
  tenantId: string;
  tenant: ApiClient;
  source: ConnectedApp;
  menu: DemoMenu;
  /** Tenant API, paths under /api/tenant/v1. */
  manage(method: string, path: string, body?: unknown): Promise<Response>;
  /** Partner API as the order source, paths under /api/partner/v1; POSTs get an Idempotency-Key unless one is given. */
  partner(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    app?: ConnectedApp,
  ): Promise<Response & { text: string }>;
}

export async function restaurant(
  cluster: OrderingCluster,
  profile: { currencyCode?: string } = {},
): Promise<Restaurant> {
  const owner = await createTenant(cluster.gateway, { currencyCode: profile.currencyCode ?? 'EUR' });
  const source = await connectedApp(
    cluster.gateway,
    ['Catalog.Read', 'Orders.Create'],
    ['orders.created', 'orders.cancelled'],
    owner,
  );
  const manage = (method: string, path: string, body?: unknown) =>
    owner.tenant.call(method, `/api/tenant/v1${path}`, body);
  const partner = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    app: ConnectedApp = source,
  ) =>
    partnerCall(cluster.gateway, app.apiKey, method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: method === 'GET' ? headers : { 'idempotency-key': randomUUID(), ...headers },
    });
  const menu = await seedMenu(manage);
  await waitForCopy(cluster.db, owner.tenantId, 'product', menu.cola.id);
  return { tenantId: owner.tenantId, tenant: owner.tenant, source, menu, manage, partner };
}

/** A square zone around Mitte (about 2 km across) with a 2.50 fee. */
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
export const OUTSIDE = { latitude: 52.6, longitude: 13.5 };

/** Waits until ordering's catalog copy holds the resource (and, if given, in the wanted state). */
export async function waitForCopy(
  target: OrderingCluster | Db,
  tenantId: string,
  entity: string,
  id: string,
  wanted: (state: any) => boolean = () => true,
): Promise<void> {
  await waitForCatalogCopy('gateway' in target ? target.db : target, tenantId, entity, id, wanted);
}
