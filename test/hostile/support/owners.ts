import { randomBytes, randomUUID } from 'node:crypto';
import { SCOPES } from '@marketplace/contracts';
import {
  apiClient,
  pickupOrder,
  platformAccountSettings,
  platformDeliveryRequest,
  publishApp,
  restaurantMenu,
  waitFor,
  type DemoMenu,
} from '@marketplace/testing';
import { send, type Answer, type HostileCluster } from './cluster';

/*
 * Owners of every kind, made through the real APIs, each with real resources: tenants (menu,
 * delivery zone, promotion, installations, an order assigned for delivery and accepted, a webhook
 * delivery; tenant A also a provider connection, dispatch rules naming it and an order dispatched
 * to it) and platform accounts of provider-delivery (API key, drivers, a delivery a driver
 * carries). Every owner carries `markers`: values only its own resources hold (customer and
 * driver names, phones, addresses), which must never appear in an answer to another owner.
 */

/**
 * Every Partner scope that grants something (Delivery.Read and Payments.Read grant nothing): a
 * probe must reach the lookup, not stop at a 403 for a missing scope.
 */
export const ALL_SCOPES: string[] = SCOPES.filter((scope) => scope !== 'Delivery.Read' && scope !== 'Payments.Read');
const EVENTS = ['orders.created', 'delivery.assigned'];

/** Around the test menu's branch Mitte (52.53, 13.4). */
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

const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');
const marker = (label: string) => `${label}-${randomBytes(5).toString('hex')}`;

export interface Installation {
  installationId: string;
  apiKey: string;
  /** A Partner API call; POST and PATCH get a fresh Idempotency-Key. */
  partner(method: string, path: string, body?: unknown): Promise<Answer>;
}

export interface TenantOwner {
  label: string;
  tenantId: string;
  token: string;
  /** A tenant API call, paths under /api/tenant/v1. */
  tenant(method: string, path: string, body?: unknown): Promise<Answer>;
  menu: DemoMenu;
  categoryId: string;
  zoneId: string;
  promotionId: string;
  main: Installation;
  /** A second installation of the same tenant (tenant A only). */
  second?: Installation;
  /** A Delivery order placed by `main`, assigned to `main`, accepted, with a driver. */
  orderId: string;
  /** A Delivery order placed by `main`, not assigned. */
  openOrderId: string;
  /** A webhook delivery (the test event) of `main`. */
  webhookDeliveryId: string;
  /**
   * A provider connection (tenant A only): provider-delivery, as the Standard Delivery Provider,
   * with a platform account of its own (`accountId`) whose key and webhook secret the connection
   * holds; its core enabled by the administrator; the tenant's dispatch rules name its installation.
   */
  connection?: { connectionId: string; installationId: string; name: string; accountId: string };
  /** A Delivery order placed by `main`, dispatched by the rules to `connection` and created with the provider (tenant A only). */
  dispatched?: { orderId: string; providerDeliveryId: string };
  markers: string[];
}

export function partnerClient(cluster: HostileCluster, apiKey: string): Installation['partner'] {
  return (method, path, body) =>
    send(
      `${cluster.gateway.url}/api/partner/v1${path}`,
      method,
      `ApiKey ${apiKey}`,
      body,
      method === 'GET' ? {} : { 'idempotency-key': randomUUID() },
    );
}

function expectStatus(what: string, res: Answer, ...statuses: number[]): Answer {
  if (!statuses.includes(res.status)) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res;
}

export async function installation(
  cluster: HostileCluster,
  tenant: TenantOwner['tenant'],
  label: string,
  scopes = ALL_SCOPES,
): Promise<Installation> {
  const { appId, version } = await publishApp(cluster.gateway, scopes, EVENTS, {
    webhookUrl: `${cluster.receiver.url}/hooks/${label}`,
  });
  const installed = expectStatus(
    `install ${label}`,
    await tenant('POST', '/installations', { appId, contractVersion: version }),
    201,
  );
  const connected = expectStatus(
    `connect ${label}`,
    await tenant('POST', `/installations/${installed.body.id}/connect`),
    200,
  );
  const apiKey: string = connected.body.credentials.apiKey;
  return { installationId: installed.body.id, apiKey, partner: partnerClient(cluster, apiKey) };
}

/** The platform administrator's word that enables a connection's core (no certificate in this cluster). */
const CORE_GRANT = { capability: 'core', enabled: true, reason: "the hostile suite's own provider-delivery" };

/**
 * A provider connection of the tenant to provider-delivery (a platform account of its own, whose
 * API key and webhook secret the connection holds: plain http on loopback, ALLOW_LOOPBACK_HTTP_URLS
 * of the local stack), its core enabled by the administrator, and the tenant's dispatch rules
 * naming its installation.
 */
async function providerConnection(
  cluster: HostileCluster,
  tenant: TenantOwner['tenant'],
  label: string,
): Promise<NonNullable<TenantOwner['connection']>> {
  const admin = providerAdmin(cluster);
  const account = expectStatus(
    `connection account ${label}`,
    await admin('POST', '/platform-accounts', platformAccountSettings(`Hostile connection ${marker(label)}`)),
    201,
  );
  const accountId: string = account.body.account.id;
  const apiKey: string = expectStatus(
    `connection key ${label}`,
    await admin('POST', `/platform-accounts/${accountId}/api-keys`),
    201,
  ).body.apiKey;
  const name = `Fleet ${marker(`${label}-fleet`)}`;
  const registered = expectStatus(
    `connection ${label}`,
    await tenant('POST', '/provider-connections', {
      name,
      baseUrl: `${cluster.provider.url}/v1`,
      apiKey,
      signingSecret: account.body.webhookSecret,
      contract: { version: '1.1.0', revision: '2026-09-19' },
    }),
    201,
  );
  const { connectionId, installationId } = registered.body as { connectionId: string; installationId: string };
  const granted = await cluster.gateway.admin.call(
    'POST',
    `/api/admin/v1/provider-connections/${connectionId}/capabilities`,
    CORE_GRANT,
  );
  if (granted.status !== 200)
    throw new Error(`core of connection ${label}: ${granted.status} ${JSON.stringify(granted.body)}`);
  expectStatus(
    `dispatch rules ${label}`,
    await tenant('PUT', '/dispatch-rules', {
      connections: [installationId],
      rescue: { enabled: false, withinMinutes: 10 },
    }),
    200,
  );
  return { connectionId, installationId, name, accountId };
}

export async function tenantOwner(
  cluster: HostileCluster,
  label: string,
  options: { secondInstallation?: boolean; providerConnection?: boolean } = {},
): Promise<TenantOwner> {
  const gw = cluster.gateway;
  const created = await gw.admin.call('POST', '/api/admin/v1/tenants', {
    slug: `hostile-${label.toLowerCase()}-${randomBytes(4).toString('hex')}`,
    name: `Hostile ${label}`,
    currencyCode: 'EUR',
    defaultLanguage: 'en',
  });
  if (created.status !== 201) throw new Error(`tenant ${label}: ${created.status} ${JSON.stringify(created.body)}`);
  const tenantId: string = created.body.id;
  const token: string = (await gw.admin.call('POST', `/api/admin/v1/tenants/${tenantId}/tokens`, {})).body.token;
  const tenant: TenantOwner['tenant'] = (method, path, body) =>
    send(`${gw.url}/api/tenant/v1${path}`, method, `Bearer ${token}`, body);

  const menu = await restaurantMenu(apiClient(gw.url, token), tenantId, cluster.orderingDb);
  const categoryId: string = (await tenant('GET', `/catalog/products/${menu.pizza.id}`)).body.categoryId;
  const zone = expectStatus(
    `zone ${label}`,
    await tenant('POST', '/delivery-zones', {
      branchId: menu.branchId,
      name: `Zone ${marker(label)}`,
      geometry: MITTE_SQUARE,
      fee: 2.5,
    }),
    201,
  );
  const promotion = expectStatus(
    `promotion ${label}`,
    await tenant('POST', '/promotions', {
      code: `HX${randomBytes(4).toString('hex').toUpperCase()}`,
      type: 'percentage',
      percent: 10,
      branchIds: [menu.branchId],
    }),
    201,
  );
  const [main, second, connection] = await Promise.all([
    installation(cluster, tenant, `${label}1`),
    options.secondInstallation ? installation(cluster, tenant, `${label}2`) : Promise.resolve(undefined),
    options.providerConnection ? providerConnection(cluster, tenant, label) : Promise.resolve(undefined),
  ]);

  const customerName = marker(`${label}-customer`);
  const customerPhone = `+49 30 ${digits(8)}`;
  const addressLine = `${marker(`${label}-street`)} 5`;
  const driverName = marker(`${label}-driver`);
  const placeDeliveryOrder = async () =>
    expectStatus(
      `order ${label}`,
      await main.partner(
        'POST',
        '/orders',
        pickupOrder(menu, {
          orderMode: 1,
          customerName,
          customerPhone,
          deliveryZoneId: zone.body.id,
          deliveryAddress: { label: 'Home', addressLine, ...INSIDE },
        }),
      ),
      201,
    ).body.orderId as string;
  const [orderId, openOrderId, toDispatch] = await Promise.all([
    placeDeliveryOrder(),
    placeDeliveryOrder(),
    connection ? placeDeliveryOrder() : Promise.resolve(undefined),
  ]);

  // delivery-assignment decides on its copies of the order, installation and branch: until they
  // arrived it answers 503 delivery.copies_behind.
  await waitFor(
    `delivery-assignment's copies of ${label}'s order ${orderId} (assign answering other than 503)`,
    async () =>
      expectStatus(
        `assign ${label}`,
        await tenant('POST', `/deliveries/${orderId}/assign`, { installationId: main.installationId }),
        201,
        200,
        503,
      ).status !== 503,
    30_000,
    200,
  );
  expectStatus(`accept ${label}`, await main.partner('POST', `/deliveries/${orderId}/accept`), 200);
  expectStatus(
    `driver ${label}`,
    await main.partner('PATCH', `/deliveries/${orderId}/driver`, { driverName, driverPhone: `+49 170 ${digits(7)}` }),
    200,
  );

  const dispatched = connection && toDispatch ? await dispatchToConnection(tenant, label, toDispatch) : undefined;

  // webhook-sender sends the test event once its copy of the installation arrived (404 until then).
  const test = await waitFor(
    `webhook-sender's copy of installation ${main.installationId} (its test event answering 202)`,
    async () => {
      const res = await tenant('POST', `/webhooks/installations/${main.installationId}/test`);
      return expectStatus(`webhook test ${label}`, res, 202, 404).status === 202 ? res : undefined;
    },
    30_000,
    200,
  );

  return {
    label,
    tenantId,
    token,
    tenant,
    menu,
    categoryId,
    zoneId: zone.body.id,
    promotionId: promotion.body.id,
    main,
    second,
    orderId,
    openOrderId,
    webhookDeliveryId: test.body.id,
    ...(connection && dispatched ? { connection, dispatched } : {}),
    markers: [
      tenantId,
      main.installationId,
      customerName,
      customerPhone,
      addressLine,
      driverName,
      ...(connection && dispatched
        ? [connection.name, connection.connectionId, connection.installationId, dispatched.providerDeliveryId]
        : []),
    ],
  };
}

/**
 * Dispatches the order by the tenant's rules (their one connection; 503 until
 * delivery-assignment's copies hold the order), then waits for the delivery's create with the
 * provider: the dispatch holds the provider's delivery id and its acceptance.
 */
async function dispatchToConnection(
  tenant: TenantOwner['tenant'],
  label: string,
  orderId: string,
): Promise<NonNullable<TenantOwner['dispatched']>> {
  await waitFor(
    `${label}'s order ${orderId} dispatched by its rules (answering other than 503)`,
    async () =>
      expectStatus(`dispatch ${label}`, await tenant('POST', `/deliveries/${orderId}/dispatch`), 201, 200, 503)
        .status !== 503,
    30_000,
    200,
  );
  const providerDeliveryId = await waitFor(
    `${label}'s order ${orderId} created with the provider (its dispatch provider_accepted)`,
    async () => {
      const [dispatch] = expectStatus(
        `dispatch of ${label}`,
        await tenant('GET', `/deliveries/${orderId}/dispatch`),
        200,
      ).body.dispatches as Array<{ providerDeliveryId: string | null; providerStatus: string | null }>;
      return dispatch?.providerStatus === 'provider_accepted' ? (dispatch.providerDeliveryId ?? undefined) : undefined;
    },
    60_000,
    200,
  );
  return { orderId, providerDeliveryId };
}

export interface Driver {
  id: string;
  token: string;
  /** A courier API call, paths under /courier/v1. */
  courier(method: string, path: string, body?: unknown): Promise<Answer>;
}

export interface PlatformOwner {
  label: string;
  accountId: string;
  apiKey: string;
  keyId: string;
  /** A platform API call with the account's key, paths under /v1. */
  platform(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Carries `deliveryId` (took its offer). */
  driver: Driver;
  /** Another driver of the same account, offline. */
  otherDriver: Driver;
  deliveryId: string;
  /** The create request of `deliveryId`. */
  request: Record<string, unknown>;
  markers: string[];
}

export function providerAdmin(cluster: HostileCluster) {
  return (method: string, path: string, body?: unknown) =>
    send(`${cluster.provider.url}/admin/v1${path}`, method, `Bearer ${cluster.providerAdminToken}`, body);
}

/**
 * A platform account with a key, two drivers and a delivery. With `carried`, one driver is online
 * and takes the delivery: wanted at once (no preparation time), it is offered to them right away,
 * and the offer runs its real 45 seconds (a faster clock would shorten it to less than a busy
 * machine may need between reading the offer and taking it).
 */
export async function platformOwner(cluster: HostileCluster, label: string, carried: boolean): Promise<PlatformOwner> {
  const admin = providerAdmin(cluster);
  const account = expectStatus(
    `account ${label}`,
    await admin('POST', '/platform-accounts', platformAccountSettings(`Hostile platform ${marker(label)}`)),
    201,
  );
  const accountId: string = account.body.account.id;
  const apiKey: string = expectStatus(
    `key ${label}`,
    await admin('POST', `/platform-accounts/${accountId}/api-keys`),
    201,
  ).body.apiKey;
  const platform: PlatformOwner['platform'] = (method, path, body) =>
    send(`${cluster.provider.url}/v1${path}`, method, `Bearer ${apiKey}`, body);
  const driverName = marker(`${label}-driver`);
  const driverPhone = `+49 170 ${digits(7)}`;
  const register = async (name: string, online: boolean): Promise<Driver> => {
    const res = expectStatus(
      `driver ${label}`,
      await admin('POST', `/platform-accounts/${accountId}/drivers`, {
        name,
        phone: driverPhone,
        vehicle: 'bicycle',
        online,
        position: { lat: 52.528, lng: 13.4 },
      }),
      201,
    );
    const token: string = res.body.courierToken;
    return {
      id: res.body.driver.id,
      token,
      courier: (method, path, body) =>
        send(`${cluster.provider.url}/courier/v1${path}`, method, `Bearer ${token}`, body),
    };
  };
  const driver = await register(driverName, carried);
  const otherDriver = await register(marker(`${label}-other-driver`), false);
  const customerName = marker(`${label}-customer`);
  const customerPhone = `+49 30 ${digits(8)}`;
  const dropoffAddress = `${marker(`${label}-dropoff`)} 10, Berlin`;
  // Near the drivers registered above; wanted at once.
  const request = platformDeliveryRequest({
    customerName,
    customerPhone,
    dropoffAddress,
    notes: marker(`${label}-notes`),
    preparationTimeMinutes: 0,
  });
  const created = expectStatus(`delivery ${label}`, await platform('POST', '/deliveries', request), 200);
  if (created.body.accepted !== true) throw new Error(`delivery ${label} not accepted: ${created.text}`);
  const deliveryId: string = created.body.providerDeliveryId;
  if (carried) {
    await waitFor(
      `dispatch to offer ${label}'s delivery ${deliveryId} to its online driver`,
      async () => (await driver.courier('GET', '/me')).body?.offer?.providerDeliveryId === deliveryId,
      20_000,
      50,
    );
    expectStatus(`offer accepted ${label}`, await driver.courier('POST', `/offers/${deliveryId}/accept`), 200);
  }
  return {
    label,
    accountId,
    apiKey,
    keyId: apiKey.split('.')[0]!,
    platform,
    driver,
    otherDriver,
    deliveryId,
    request,
    markers: [
      accountId,
      driverName,
      driverPhone,
      customerName,
      customerPhone,
      dropoffAddress,
      String(request.platformReference),
      String(request.notes),
    ],
  };
}
