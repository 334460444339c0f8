import { randomUUID } from 'node:crypto';
import { pickupOrder, platformAccountSettings } from '@marketplace/testing';
import { send, startHostileCluster, type Answer, type HostileCluster } from './support/cluster';
import { apiDefinitions, loadOperations, type ApiDefinition, type ApiName, type Operation } from './support/operations';
import { installation, platformOwner, providerAdmin, tenantOwner, type Installation } from './support/owners';
import { runProbe } from './support/probe';
import { bodyProbes, forbiddenProbes, NOT_OWNER_SCOPED, pathProbes, type Owners } from './support/probes';

// Cross-tenant, cross-installation and cross-account: every operation of every served OpenAPI
// document that names an owned resource in its path is called by another owner with the first
// owner's identifier and with a random one; both must be the documented 404 (or the documented
// other answer), in the API's error shape, the same but for per-request fields, and without
// anything of the first owner's resources. Owners: tenants A (installations A1, A2, a provider
// connection with an order dispatched to it) and B (B1), platform accounts A and B of
// provider-delivery (support/owners.ts).

let cluster: HostileCluster;
let owners: Owners;
let apis: Record<ApiName, ApiDefinition>;
let operations: Operation[];
let markers: string[];
/** Tenant B's installation with Catalog.Read only, and the key of a platform account without capabilities. */
let narrow: Installation;
let incapable: string;

async function incapableAccount(): Promise<string> {
  const admin = providerAdmin(cluster);
  const created = await admin(
    'POST',
    '/platform-accounts',
    platformAccountSettings(`Hostile incapable ${randomUUID().slice(0, 8)}`, {
      capabilities: { supportsUpdates: false, supportsCancellation: false, supportsReturnToOrigin: false },
    }),
  );
  if (created.status !== 201) throw new Error(`incapable account: ${created.status} ${created.text}`);
  return (await admin('POST', `/platform-accounts/${created.body.account.id}/api-keys`)).body.apiKey;
}

beforeAll(async () => {
  cluster = await startHostileCluster();
  const [a, b, pa, pb] = await Promise.all([
    tenantOwner(cluster, 'A', { secondInstallation: true, providerConnection: true }),
    tenantOwner(cluster, 'B'),
    platformOwner(cluster, 'PA', true),
    platformOwner(cluster, 'PB', false),
  ]);
  owners = { a, b, pa, pb };
  [narrow, incapable] = await Promise.all([
    installation(cluster, b.tenant, 'B-narrow', ['Catalog.Read']),
    incapableAccount(),
  ]);
  markers = [...a.markers, ...pa.markers];
  apis = apiDefinitions(cluster, b.token);
  operations = await loadOperations(apis);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

it('covers every documented operation that names an owned resource in its path', () => {
  const probed = new Set(pathProbes(cluster, owners).map((p) => `${p.api} ${p.op}`));
  const withIds = operations.filter((o) => o.pathParams.length > 0).map((o) => `${o.api} ${o.key}`);
  const uncovered = withIds.filter((key) => !probed.has(key) && !(key in NOT_OWNER_SCOPED));
  expect({ uncovered }).toEqual({ uncovered: [] });
  // An exclusion or probe of an operation no document has any more is stale.
  const stale = [...probed, ...Object.keys(NOT_OWNER_SCOPED)].filter((key) => !withIds.includes(key));
  expect({ stale }).toEqual({ stale: [] });
});

it("answers another owner's path identifiers as it answers unknown ones", async () => {
  const failures: string[] = [];
  for (const probe of pathProbes(cluster, owners)) failures.push(...(await runProbe(probe, apis, operations, markers)));
  expect(failures).toEqual([]);
});

it("answers another owner's identifiers in bodies and queries as it answers unknown ones", async () => {
  const failures: string[] = [];
  for (const probe of bodyProbes(owners)) failures.push(...(await runProbe(probe, apis, operations, markers)));
  expect(failures).toEqual([]);
});

it('answers a caller without the scope or capability alike for known and unknown identifiers (403; the contract: 404 first)', async () => {
  const failures: string[] = [];
  for (const probe of forbiddenProbes(owners, narrow, incapable))
    failures.push(...(await runProbe(probe, apis, operations, markers)));
  expect(failures).toEqual([]);
});

it('scopes idempotency keys and external order ids per installation, and platform idempotency per account', async () => {
  const { a, b, pa, pb } = owners;
  const key = `hx-${randomUUID()}`;
  const externalOrderId = `ext-${randomUUID()}`;
  const place = (apiKey: string, menu: typeof a.menu) =>
    send(
      `${cluster.gateway.url}/api/partner/v1/orders`,
      'POST',
      `ApiKey ${apiKey}`,
      pickupOrder(menu, { externalOrderId }),
      {
        'idempotency-key': key,
      },
    );
  const first = await place(a.main.apiKey, a.menu);
  expect(first.status).toBe(201);
  // The same key and external id from another installation of A, and from B's: their own orders,
  // never a replay of A1's answer nor a conflict that tells A1 used them.
  for (const [apiKey, menu] of [
    [a.second!.apiKey, a.menu],
    [b.main.apiKey, b.menu],
  ] as const) {
    const other = await place(apiKey, menu);
    expect(other.status).toBe(201);
    expect(other.body.orderId).not.toBe(first.body.orderId);
  }

  // Account B sending account A's idempotency key and reference (another payload): its own delivery.
  const replay = await pb.platform('POST', '/deliveries', { ...pa.request, customerName: 'Someone else' });
  expect(replay.status).toBe(200);
  expect(replay.body).toMatchObject({ accepted: true });
  expect(replay.body.providerDeliveryId).not.toBe(pa.deliveryId);
});

it("lists none of another tenant's provider connections, and its rules name none", async () => {
  const { a, b } = owners;
  const failures: string[] = [];
  for (const path of ['/provider-connections', '/dispatch-rules']) {
    const res = await b.tenant('GET', path);
    const leaked = markers.filter((m) => res.text.includes(m));
    if (res.status !== 200 || leaked.length > 0)
      failures.push(`GET ${path}: ${res.status}${leaked.length > 0 ? `, holds A's ${leaked.join(', ')}` : ''}`);
  }
  // Not added to B by the install probe.
  const listed = (await b.tenant('GET', '/provider-connections')).body as Array<{ connectionId: string }>;
  if (listed.some((c) => c.connectionId === a.connection!.connectionId)) failures.push("B lists A's connection");
  expect(failures).toEqual([]);
});

/**
 * The provider's signed callback of a driver for A's dispatched delivery, and the delivery read
 * until the assignment shows it: the connection still holds A's signing secret (a leaked
 * credentials change would fail the signature, and nothing would be taken).
 */
async function signedCallbackTaken(driverName: string): Promise<Answer> {
  const { a } = owners;
  const { accountId } = a.connection!;
  const { orderId, providerDeliveryId } = a.dispatched!;
  const event = await providerAdmin(cluster)(
    'POST',
    `/platform-accounts/${accountId}/deliveries/${providerDeliveryId}/events`,
    { eventType: 'driver.assigned', driverName, driverPhone: '+49 170 5550199' },
  );
  if (event.status !== 200) return event;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await a.tenant('GET', `/deliveries/${orderId}`);
    if (res.body?.live?.driverName === driverName || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// Run last. It also proves the probes meaningful: every identifier they sent is real, and answers
// its owner; a probe with a wrong identifier would have met a 404 anyway.
it("answers the first owners' identifiers to their owners, and left their resources as they were", async () => {
  const { a, pa } = owners;
  const conn = a.connection!;
  const admin = providerAdmin(cluster);
  const checks: Array<[string, Promise<Answer>, (body: any) => boolean]> = [
    // Not rotated, disconnected or deleted: A1's key still works, the installation is connected.
    ['A1 reads its order', a.main.partner('GET', `/orders/${a.orderId}`), (b) => b.orderId === a.orderId],
    [
      'A1 reads a product',
      a.main.partner('GET', `/catalog/branches/${a.menu.branchId}/products/${a.menu.pizza.id}`),
      (b) => JSON.stringify(b).includes(a.menu.crust.thin),
    ],
    ['installation A1', a.tenant('GET', `/installations/${a.main.installationId}`), (b) => b.status === 'Connected'],
    // The open order was neither cancelled, accepted, rejected nor paid by the probes.
    ['open order', a.tenant('GET', `/orders/${a.openOrderId}`), (b) => b.statusName === 'Pending'],
    ['order', a.tenant('GET', `/orders/${a.orderId}`), (b) => b.statusName === 'Pending'],
    [
      'delivery',
      a.tenant('GET', `/deliveries/${a.orderId}`),
      (b) => b.live?.appInstallationId === a.main.installationId && b.live?.statusName === 'Accepted',
    ],
    ['pizza', a.tenant('GET', `/catalog/products/${a.menu.pizza.id}`), (b) => b.categoryId === a.categoryId],
    [
      'cola',
      a.tenant('GET', `/catalog/products/${a.menu.cola.id}`),
      (b) => b.name === 'Cola' && b.variants[0].id === a.menu.cola.variant,
    ],
    ['category', a.tenant('GET', `/catalog/categories/${a.categoryId}`), (b) => b.id === a.categoryId],
    ['branch', a.tenant('GET', `/catalog/branches/${a.menu.branchId}`), (b) => b.name === 'Mitte'],
    ['availability', a.tenant('GET', `/catalog/branches/${a.menu.branchId}/availability`), (b) => !!b],
    ['tax category', a.tenant('GET', `/catalog/tax-categories/${a.menu.food7}`), (b) => b.rate === 7],
    ['crust', a.tenant('GET', `/catalog/modifier-groups/${a.menu.crust.id}`), (b) => b.name === 'Crust'],
    ['toppings', a.tenant('GET', `/catalog/modifier-groups/${a.menu.toppings.id}`), (b) => b.name === 'Toppings'],
    ['cheese type', a.tenant('GET', `/catalog/modifier-groups/${a.menu.cheeseType.id}`), (b) => !!b.id],
    ['zone', a.tenant('GET', `/delivery-zones/${a.zoneId}`), (b) => b.branchId === a.menu.branchId],
    ['promotion', a.tenant('GET', `/promotions/${a.promotionId}`), (b) => b.percent === 10],
    ['webhook delivery', a.tenant('GET', `/webhooks/deliveries/${a.webhookDeliveryId}`), (b) => !!b.id],
    // Read by its installation through the Partner API extension, never redelivered by the probes.
    [
      "A1's webhook delivery",
      a.main.partner('GET', `/webhooks/deliveries/${a.webhookDeliveryId}`),
      (b) => b.id === a.webhookDeliveryId && b.round === 1,
    ],
    [
      "A1's webhook deliveries",
      a.tenant('GET', `/webhooks/installations/${a.main.installationId}/deliveries`),
      (b) => b.some((d: { id: string }) => d.id === a.webhookDeliveryId),
    ],
    // Account A's key and its driver's token still work; its delivery is still carried by its driver.
    [
      "account A's delivery",
      pa.platform('GET', `/deliveries/${pa.deliveryId}/status`),
      (b) => b.status === 'driver_assigned',
    ],
    ["A's driver's delivery", pa.driver.courier('GET', `/deliveries/${pa.deliveryId}`), (b) => !!b],
    [
      "A's delivery under A",
      admin('GET', `/platform-accounts/${pa.accountId}/deliveries/${pa.deliveryId}`),
      (b) => JSON.stringify(b).includes(pa.driver.id),
    ],
    [
      "A's driver under A",
      admin('GET', `/platform-accounts/${pa.accountId}/drivers/${pa.driver.id}`),
      (b) => JSON.stringify(b).includes(pa.deliveryId),
    ],
    [
      "A's key",
      admin('GET', `/platform-accounts/${pa.accountId}/api-keys`),
      (b) => b.some((k: { keyId: string; live: boolean }) => k.keyId === pa.keyId && k.live),
    ],
    // A's provider connection: not renamed, still dispatchable, its installation A's; the order
    // dispatched to it still there with its plan; the rules still name it; its credentials unchanged.
    [
      'provider connection',
      a.tenant('GET', `/provider-connections/${conn.connectionId}`),
      (b) => b.name === conn.name && b.dispatchable === true && b.installationId === conn.installationId,
    ],
    ['scorecard', a.tenant('GET', `/provider-connections/${conn.connectionId}/scorecard`), (b) => b.dispatched === 1],
    [
      'dispatch',
      a.tenant('GET', `/deliveries/${a.dispatched!.orderId}/dispatch`),
      (b) =>
        b.plan?.candidates?.[0] === conn.installationId &&
        b.dispatches.length === 1 &&
        b.dispatches[0].providerDeliveryId === a.dispatched!.providerDeliveryId,
    ],
    [
      'dispatch rules',
      a.tenant('GET', '/dispatch-rules'),
      (b) => b.connections.length === 1 && b.connections[0] === conn.installationId,
    ],
    ["the provider's signed callback", signedCallbackTaken('Kim Hostile'), (b) => b.live?.driverName === 'Kim Hostile'],
  ];
  const failed: string[] = [];
  for (const [what, answer, holds] of checks) {
    const res = await answer;
    if (res.status !== 200 || !holds(res.body)) failed.push(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  expect(failed).toEqual([]);
});
