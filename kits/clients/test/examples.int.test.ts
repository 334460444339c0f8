import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import {
  connectedApp,
  freePort,
  pickupOrder,
  platformAccountSettings,
  platformDeliveryRequest,
  providerAdminToken,
  recordIssuedSecret,
  restaurantMenu,
  stackEnv,
  startGateway,
  startServiceProcess,
  startServiceProcesses,
  type ConnectedApp,
  type DemoMenu,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';
import type { PartnerComponents, ProviderContractComponents } from 'marketplace-api-clients';
import { goOnline } from '../examples/courier';
import { orderFromBranch } from '../examples/partner-order';
import { requestDelivery } from '../examples/provider-delivery';
import { acceptOrder } from '../examples/tenant-order';

// Every example of the README (examples/*.ts, readme.test.ts checks they are the README's), run
// through the client against the real services as processes: the gateway with the catalog and
// ordering-pricing behind it (the Partner and tenant APIs), and provider-delivery (the Standard
// Delivery Provider Contract, and the courier API).

type DeliveryRequest = ProviderContractComponents['schemas']['ProviderCreateDeliveryRequest'];

const READY_MS = 90_000;
const suffix = randomBytes(4).toString('hex');
const orderingDatabase = `it_cl_ord_${suffix}`;
let services: ServiceProcess[] = [];
let gateway: TestGateway;
let mongo: MongoClient;

beforeAll(async () => {
  services = await startServiceProcesses([
    startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: `it_cl_cat_${suffix}` }, READY_MS),
    startServiceProcess(
      'ordering-pricing',
      await freePort(),
      {
        MONGO_DATABASE: orderingDatabase,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-cl-ordering-${suffix}`,
        CATALOG_COPY_START: 'latest',
        DELIVERY_COPY_START: 'latest',
      },
      READY_MS,
    ),
    startServiceProcess(
      'provider-delivery',
      await freePort(),
      { MONGO_DATABASE: `it_cl_prv_${suffix}`, REDIS_KEY_PREFIX: `it_cl_prv_${suffix}:` },
      READY_MS,
    ),
  ]);
  const [catalog, ordering] = services;
  gateway = await startGateway({ CATALOG_URL: catalog!.url, ORDERING_URL: ordering!.url });
  mongo = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
}, 240_000);

afterAll(async () => {
  await mongo?.close();
  await gateway?.stop();
  await Promise.all(services.map((s) => s.stop()));
});

describe('the Partner API and tenant examples', () => {
  let partner: ConnectedApp;
  let menu: DemoMenu;
  let tenantToken: string;

  beforeAll(async () => {
    partner = await connectedApp(gateway, ['Catalog.Read', 'Orders.Create']);
    menu = await restaurantMenu(partner.tenant, partner.tenantId, mongo.db(orderingDatabase));
    const token = await gateway.admin.call('POST', `/api/admin/v1/tenants/${partner.tenantId}/tokens`, {});
    tenantToken = token.body.token;
  }, 120_000);

  let orderId: string;
  it('examples/partner-order.ts: lists a branch catalog and places an order', async () => {
    const order = pickupOrder(menu) as PartnerComponents['schemas']['CreateOrderRequest'];
    const placed = await orderFromBranch(gateway.url, partner.apiKey, order);
    expect(placed.products).toEqual(expect.arrayContaining(['Pizza', 'Cola']));
    expect(placed.orderNumber).toEqual(expect.any(String));
    expect(placed.total).toMatch(/^[0-9.]+ EUR$/);
    orderId = placed.orderId;
  }, 30_000);

  it('examples/tenant-order.ts: the restaurant reads the order and accepts it', async () => {
    const accepted = await acceptOrder(gateway.url, tenantToken, orderId);
    expect(accepted).toEqual({
      orderNumber: expect.any(String),
      placedBy: partner.installationId,
      status: 'Accepted',
    });
  }, 30_000);
});

describe('the provider contract and courier examples', () => {
  let provider: ServiceProcess;
  let account: { id: string; apiKey: string };

  /** A POST to provider-delivery's administrator API, as an operator onboards a platform. */
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${provider.url}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${providerAdminToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as any;
  };

  beforeAll(async () => {
    provider = services[2]!;
    const created = await admin('/platform-accounts', platformAccountSettings(`Clients ${suffix}`));
    const { apiKey } = await admin(`/platform-accounts/${created.account.id}/api-keys`, {});
    recordIssuedSecret('provider API key', apiKey);
    account = { id: created.account.id, apiKey };
  }, 60_000);

  it('examples/provider-delivery.ts: creates a delivery and reads its status', async () => {
    const request = (overrides = {}) => platformDeliveryRequest(overrides) as unknown as DeliveryRequest;
    const delivery = await requestDelivery(`${provider.url}/v1`, account.apiKey, request());
    expect(delivery).toEqual({
      accepted: true,
      providerDeliveryId: expect.any(String),
      status: 'provider_accepted',
      since: expect.any(String),
    });

    const munich = request({ dropoffLat: 48.14, dropoffLng: 11.58 }); // outside the account's service area
    const outside = await requestDelivery(`${provider.url}/v1`, account.apiKey, munich);
    expect(outside).toEqual({ accepted: false, reason: 'outside_service_area' });
  }, 60_000);

  it('examples/courier.ts: a driver goes online', async () => {
    const registered = await admin(`/platform-accounts/${account.id}/drivers`, {
      name: 'Dana Driver',
      phone: '+49 170 5550101',
      vehicle: 'bicycle',
      online: false,
      position: { lat: 52.525, lng: 13.4 },
    });
    recordIssuedSecret('courier token', registered.courierToken);
    const state = await goOnline(provider.url, registered.courierToken);
    // The dispatcher may offer the delivery above at once: the offer is not asserted.
    expect(state).toMatchObject({ name: 'Dana Driver', online: true, carrying: false });
  }, 30_000);
});
