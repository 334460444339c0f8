import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { freePort, stackEnv, startServiceProcess, startServiceProcesses, waitFor, type ServiceProcess } from '@marketplace/testing';
import { connectedApp, createTenant, partnerCall, startGateway, type ApiClient, type ConnectedApp, type TestGateway } from '../../../gateway-auth/test/support/gateway';


/** Services joining consumer groups on a broker busy with every other test file can take a while. */
const READY_MS = 90_000;
/**
 * gateway-auth, catalog and ordering-pricing as real processes, each with its own database; the
 * gateway forwards to both. Ordering's catalog copy reads only new catalog events (its tenants are
 * all new), under consumer groups of its own.
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
    startServiceProcess('ordering-pricing', await freePort(), {
      MONGO_DATABASE: orderingDatabase,
      KAFKA_CONSUMER_GROUP_PREFIX: `it-ordering-${suffix}`,
      CATALOG_COPY_START: 'latest',
      ...orderingEnv,
    }, READY_MS),
  ]);
  const gateway = await startGateway({ CATALOG_URL: catalog!.url, ORDERING_URL: ordering!.url, RATE_LIMIT_PER_INSTALLATION: '100000', RATE_LIMIT_PER_IP: '100000' }).catch(async (error) => {
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
  partner(method: string, path: string, body?: unknown, headers?: Record<string, string>, app?: ConnectedApp): Promise<Response & { text: string }>;
}

export interface DemoMenu {
  branchId: string;
  otherBranchId: string;
  inactiveBranchId: string;
  food7: string;
  drinks19: string;
  pizza: { id: string; large: string; small: string };
  cola: { id: string; variant: string };
  crust: { id: string; thin: string; thick: string };
  toppings: { id: string; cheese: string; olives: string; ham: string };
  cheeseType: { id: string; mozzarella: string; cheddar: string };
}

export async function restaurant(cluster: OrderingCluster, profile: { currencyCode?: string } = {}): Promise<Restaurant> {
  const owner = await createTenant(cluster.gateway, { currencyCode: profile.currencyCode ?? 'EUR' });
  const source = await connectedApp(cluster.gateway, ['Catalog.Read', 'Orders.Create'], ['orders.created', 'orders.cancelled'], owner);
  const manage = (method: string, path: string, body?: unknown) => owner.tenant.call(method, `/api/tenant/v1${path}`, body);
  const partner = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, app: ConnectedApp = source) =>
    partnerCall(cluster.gateway, app.apiKey, method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: method === 'GET' ? headers : { 'idempotency-key': randomUUID(), ...headers },
    });
  const menu = await seedMenu(manage);
  await waitForCopy(cluster.db, owner.tenantId, 'product', menu.cola.id);
  return { tenantId: owner.tenantId, tenant: owner.tenant, source, menu, manage, partner };
}

async function createdBody(manage: Restaurant['manage'], path: string, body: unknown) {
  const res = await manage('POST', path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Two tax categories (7 % inclusive, 19 % exclusive), three branches (Mitte with coordinates,
 * Hafen, and an inactive one), a pizza in two sizes with a required crust and up to two toppings
 * whose Cheese opens a required "Cheese type", and a cola. Prices in EUR.
 */
/** The demo menu for a tenant of another suite's cluster, once that cluster's ordering copy has it. */
export async function restaurantMenu(tenant: ApiClient, tenantId: string, orderingDb: Db): Promise<DemoMenu> {
  const menu = await seedMenu((method, path, body) => tenant.call(method, `/api/tenant/v1${path}`, body));
  await waitForCopy(orderingDb, tenantId, 'product', menu.cola.id);
  return menu;
}

async function seedMenu(manage: Restaurant['manage']): Promise<DemoMenu> {
  const c = (path: string, body: unknown) => createdBody(manage, `/catalog${path}`, body);
  const food7 = await c('/tax-categories', { name: 'Food 7%', rate: 7, isInclusive: true });
  const drinks19 = await c('/tax-categories', { name: 'Drinks 19%', rate: 19, isInclusive: false });
  const mitte = await c('/branches', {
    name: 'Mitte',
    isActive: true,
    externalLocationId: 'loc-mitte',
    address: { line1: 'Torstrasse 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
    coordinates: { latitude: 52.53, longitude: 13.4 },
  });
  const hafen = await c('/branches', { name: 'Hafen', isActive: true });
  const closed = await c('/branches', { name: 'Closed', isActive: false });
  const category = await c('/categories', { name: 'Mains' });
  const cheeseType = await c('/modifier-groups', { name: 'Cheese type', minSelections: 1, maxSelections: 1, isRequired: true, options: [{ name: 'Mozzarella', price: 0 }, { name: 'Cheddar', price: 0.5 }] });
  const toppings = await c('/modifier-groups', {
    name: 'Toppings',
    minSelections: 0,
    maxSelections: 2,
    isRequired: false,
    options: [{ name: 'Cheese', price: 1, childGroupIds: [cheeseType.id] }, { name: 'Olives', price: 0.8 }, { name: 'Ham', price: 1.2 }],
  });
  const crust = await c('/modifier-groups', { name: 'Crust', minSelections: 1, maxSelections: 1, isRequired: true, options: [{ name: 'Thin', price: 0 }, { name: 'Thick', price: 1.5 }] });
  const pizza = await c('/products', {
    categoryId: category.id,
    name: 'Pizza',
    taxCategoryId: food7.id,
    variants: [
      { name: 'Large', price: 12, isDefault: true, modifierGroupIds: [crust.id, toppings.id] },
      { name: 'Small', price: 9, isDefault: false, modifierGroupIds: [crust.id] },
    ],
  });
  const cola = await c('/products', { categoryId: category.id, name: 'Cola', taxCategoryId: drinks19.id, variants: [{ name: '0.33 l', price: 2.5, isDefault: true }] });
  const option = (group: any, name: string) => group.options.find((o: any) => o.name === name).id;
  return {
    branchId: mitte.id,
    otherBranchId: hafen.id,
    inactiveBranchId: closed.id,
    food7: food7.id,
    drinks19: drinks19.id,
    pizza: { id: pizza.id, large: pizza.variants[0].id, small: pizza.variants[1].id },
    cola: { id: cola.id, variant: cola.variants[0].id },
    crust: { id: crust.id, thin: option(crust, 'Thin'), thick: option(crust, 'Thick') },
    toppings: { id: toppings.id, cheese: option(toppings, 'Cheese'), olives: option(toppings, 'Olives'), ham: option(toppings, 'Ham') },
    cheeseType: { id: cheeseType.id, mozzarella: option(cheeseType, 'Mozzarella'), cheddar: option(cheeseType, 'Cheddar') },
  };
}

/** Waits until ordering's catalog copy holds the resource (and, if given, in the wanted state). */
export async function waitForCopy(target: OrderingCluster | Db, tenantId: string, entity: string, id: string, wanted: (state: any) => boolean = () => true): Promise<void> {
  const db = 'gateway' in target ? target.db : target;
  await waitFor(`ordering's copy of ${entity} ${id}`, async () => {
    const doc = await db.collection('catalog_copy').findOne({ _id: `${tenantId}:${entity}:${id}` as never });
    return doc !== null && wanted(doc.state);
  });
}

/** A square zone around Mitte (about 2 km across) with a 2.50 fee. */
export const MITTE_SQUARE = {
  type: 'Polygon',
  coordinates: [[[13.38, 52.52], [13.42, 52.52], [13.42, 52.54], [13.38, 52.54], [13.38, 52.52]]],
};
export const INSIDE = { latitude: 52.53, longitude: 13.4 };
export const OUTSIDE = { latitude: 52.6, longitude: 13.5 };

let selections = 0;
const selectionId = () => `00000000-0000-4000-a000-${String(++selections).padStart(12, '0')}`;

/** A large pizza (thin crust) and two colas, for pickup, paid cash. */
export function pickupOrder(menu: DemoMenu, overrides: Record<string, unknown> = {}) {
  return {
    branchId: menu.branchId,
    orderMode: 2,
    customerName: 'Ada Lovelace',
    customerPhone: '+49 30 1234567',
    paymentMethod: 1,
    externalOrderId: `ext-${randomUUID()}`,
    lines: [
      { productId: menu.pizza.id, variantId: menu.pizza.large, quantity: 1, modifierSelections: [{ selectionId: selectionId(), modifierGroupId: menu.crust.id, modifierOptionId: menu.crust.thin }] },
      { productId: menu.cola.id, variantId: menu.cola.variant, quantity: 2, modifierSelections: [] },
    ],
    ...overrides,
  };
}

export { selectionId };
