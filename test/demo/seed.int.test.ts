import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apiClient,
  findSecrets,
  freePort,
  localEnv,
  partnerCall,
  recordSecretsIn,
  repoRoot,
  signTestBearerToken,
  startGateway,
  startReceiver,
  startServiceProcess,
  verifySignature,
  waitFor,
  type Receiver,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';
import { placeDemoOrder } from './support/demo-order';

// `npm run demo:seed` (scripts/demo/seed.mjs) as a developer runs it, against a gateway process of
// this test with its own database: the fixture it writes, its idempotency (same tenant and apps,
// fresh credentials, old ones revoked), moving to a new contract version when the webhook URL
// changes, the demo menu in a real catalog process, that an order placed with the seeded key
// reaches the seeded webhook URL (a real receiver, through a webhook-sender process), the platform
// account on a provider-delivery process (found again by name, fresh key and webhook secret), and
// its errors.

/** The receiver's URLs, set once it listens. */
let WEBHOOK_URL = '';
let OTHER_WEBHOOK_URL = '';
const SEED = join(repoRoot, 'scripts', 'demo', 'seed.mjs');
const RUN_TIMEOUT_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_KEY = /^mpk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;
// Standard base64 of 32 bytes (what Standard Webhooks libraries decode); base64url from a gateway built before.
const WEBHOOK_SECRET = /^whsec_([A-Za-z0-9+/]{43}=|[A-Za-z0-9_-]{43})$/;
const PLATFORM_API_KEY = /^pdk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;
const PLATFORM_WEBHOOK_SECRET = /^pwhsec_[A-Za-z0-9_-]{43}$/;
/** The fixture's installations, every one seeded the same way. */
const INSTALLATIONS = ['orderSource', 'deliveryProvider', 'deliveryProviderB'] as const;
const DELIVERY_SCOPES = [
  'Delivery.Accept',
  'Delivery.Cancel',
  'Delivery.Reject',
  'Delivery.UpdateDriver',
  'Delivery.UpdateEta',
  'Delivery.UpdateStatus',
  'Delivery.UpdateTracking',
  'Orders.Read',
];

interface InstallationFixture {
  installationId: string;
  appId: string;
  apiKey: string;
  webhookSecret: string;
  contractVersion: number;
}
interface Fixture {
  partnerBaseUrl: string;
  tenantId: string;
  tenantApi: { baseUrl: string; token: string };
  adminApi: { baseUrl: string };
  installations: {
    orderSource: InstallationFixture;
    deliveryProvider: InstallationFixture;
    deliveryProviderB: InstallationFixture;
  };
  branches: { id: string; name: string }[];
  deliveryZones: {
    id: string;
    branchId: string;
    inside: { latitude: number; longitude: number };
    outside: { latitude: number; longitude: number };
  }[];
  promotionCode: string;
  provider: { baseUrl: string; apiKey: string; webhookSecret: string; accountId: string };
  paymentProcessor: { notificationUrl: string; secret: string };
}
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The seed must mint its admin token from .stack/local.env, as the gateway of this test uses.
const childEnv: NodeJS.ProcessEnv = { ...process.env };
delete childEnv.MARKETPLACE_ADMIN_TOKEN;
delete childEnv.MARKETPLACE_TOKEN_SECRET;

function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: repoRoot, env: childEnv, timeout: RUN_TIMEOUT_MS, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr: error?.killed ? `${stderr}\n(killed after ${RUN_TIMEOUT_MS} ms)` : stderr });
      },
    );
  });
}

/** The seed script itself, or through `npm run demo:seed` (the root package.json wiring). */
const seed = (args: string[], viaNpm = false) =>
  viaNpm ? run('npm', ['run', '--silent', 'demo:seed', '--', ...args]) : run(process.execPath, [SEED, ...args]);

function expectSuccess(result: Run): void {
  if (result.code !== 0) throw new Error(`seed exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
}

/** No secret of the fixture (or shaped like one) in what the script printed. */
function expectNoSecretsPrinted(result: Run, fixture: Fixture): void {
  const printed = result.stdout + result.stderr;
  for (const secret of [
    fixture.tenantApi.token,
    ...INSTALLATIONS.flatMap((name) => [fixture.installations[name].apiKey, fixture.installations[name].webhookSecret]),
    fixture.provider.apiKey,
    fixture.provider.webhookSecret,
    fixture.paymentProcessor.secret,
  ]) {
    expect(printed).not.toContain(secret);
    expect(printed).not.toContain(secret.split('.').at(-1));
  }
  expect(findSecrets(printed)).toEqual([]);
}

const readFixture = (file: string) => {
  const fixture = JSON.parse(readFileSync(file, 'utf8')) as Fixture;
  recordSecretsIn(fixture); // the seeded keys and tokens, for the secrets audit of the run
  return fixture;
};

let catalog: ServiceProcess;
let catalogDatabase: string;
let ordering: ServiceProcess;
let orderingDatabase: string;
let sender: ServiceProcess;
let provider: ServiceProcess;
let delivery: ServiceProcess;
let receiver: Receiver;
let gw: TestGateway;
let dir: string;
const fileOf = (name: string) => join(dir, 'nested', 'folder', name);
const runs: { result: Run; fixture: Fixture }[] = [];
/** Status of the first run's order-source key on the catalog route before the second run. */
let firstKeyBeforeSecondRun: number;

/** The options naming this test's processes. */
const services = () => ['--gateway', gw.url, '--provider-url', provider.url];

async function seedRun(file: string, webhookUrl = WEBHOOK_URL, viaNpm = false) {
  const result = await seed([...services(), '--webhook-url', webhookUrl, '--out', file], viaNpm);
  expectSuccess(result);
  const entry = { result, fixture: readFixture(file) };
  runs.push(entry);
  return entry;
}

const branches = (apiKey: string) => partnerCall(gw, apiKey, 'GET', '/catalog/branches');

/** A call to provider-delivery: its platform API with a platform key, or its administrator API with `admin`. */
async function providerCall(method: string, path: string, authorization: string, body?: unknown) {
  const res = await fetch(provider.url + path, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const providerAdmin = () =>
  `Bearer ${signTestBearerToken(
    Buffer.from(localEnv().PROVIDER_ADMIN_TOKEN_SECRET!, 'base64'),
    { role: 'admin', sub: 'seed-test' },
    new Date(Date.now() + 600_000),
  )}`;
/** A create request of the provider contract from Demo Bistro Mitte to `dropoff`. */
function providerDelivery(fixture: Fixture, dropoff: { latitude: number; longitude: number }) {
  const pickup = fixture.deliveryZones[0]!.inside;
  const reference = `seed-test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return {
    platformReference: reference,
    idempotencyKey: reference,
    pickupAddress: 'Torstraße 1, 10119 Berlin',
    pickupLat: pickup.latitude,
    pickupLng: pickup.longitude,
    customerName: 'Seed Test',
    customerPhone: '+49 30 555 0100',
    dropoffAddress: 'Somewhere',
    dropoffLat: dropoff.latitude,
    dropoffLng: dropoff.longitude,
    paymentMethod: 'card',
    amount: 10,
    currency: 'EUR',
    preparationTimeMinutes: 10,
  };
}

beforeAll(async () => {
  catalogDatabase = `it_demo_cat_${Date.now().toString(36)}`;
  orderingDatabase = `it_demo_ord_${Date.now().toString(36)}`;
  const senderDatabase = `it_demo_wh_${Date.now().toString(36)}`;
  receiver = await startReceiver();
  WEBHOOK_URL = `${receiver.url}/hooks`;
  OTHER_WEBHOOK_URL = `${receiver.url}/other-hooks`;
  [catalog, ordering, sender, provider, delivery] = await Promise.all([
    startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: catalogDatabase }),
    startServiceProcess('ordering-pricing', await freePort(), {
      MONGO_DATABASE: orderingDatabase,
      KAFKA_CONSUMER_GROUP_PREFIX: orderingDatabase,
      CATALOG_COPY_START: 'latest',
      DELIVERY_COPY_START: 'latest',
    }),
    // Its installation copy starts at new messages: on this busy shared topic every installation
    // of the test is new (test/demo/fresh-cluster.disruptive.test.ts runs the default settings).
    startServiceProcess('webhook-sender', await freePort(), {
      MONGO_DATABASE: senderDatabase,
      KAFKA_CONSUMER_GROUP_PREFIX: senderDatabase,
      INSTALLATIONS_COPY_START: 'latest',
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
    }),
    startServiceProcess('provider-delivery', await freePort(), {
      MONGO_DATABASE: `it_demo_prv_${Date.now().toString(36)}`,
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
    }),
    // The marketplace's side of the provider contract: the seed connects provider-delivery as "Demo Fleet".
    startServiceProcess('delivery-assignment', await freePort(), {
      MONGO_DATABASE: `it_demo_da_${Date.now().toString(36)}`,
      KAFKA_CONSUMER_GROUP_PREFIX: `it_demo_da_${Date.now().toString(36)}`,
      COPIES_START: 'latest',
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
    }),
  ]);
  gw = await startGateway({
    CATALOG_URL: catalog.url,
    ORDERING_URL: ordering.url,
    WEBHOOKS_URL: sender.url,
    DELIVERY_URL: delivery.url,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_INSTALLATION: '100000',
  });
  dir = mkdtempSync(join(tmpdir(), 'demo-seed-'));
  const first = await seedRun(fileOf('run1.json'), WEBHOOK_URL, true);
  firstKeyBeforeSecondRun = (await branches(first.fixture.installations.orderSource.apiKey)).status;
  await seedRun(fileOf('run2.json'));
}, 180_000);

afterAll(async () => {
  await gw?.stop();
  await catalog?.stop();
  await ordering?.stop();
  await sender?.stop();
  await provider?.stop();
  await delivery?.stop();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  // The databases stay (like every test's): dropping one while FerretDB may still run a stopped
  // service's last query in it can crash FerretDB 1.24 (SIGBUS in the SQLite WAL).
}, 60_000);

describe('npm run demo:seed', () => {
  it('writes the fixture: base URLs, the tenant and its token, the three installations with their credentials (mode 0600)', () => {
    for (const { fixture } of runs.slice(0, 2)) {
      expect(fixture.partnerBaseUrl).toBe(`${gw.url}/api/partner/v1`);
      expect(fixture.tenantApi.baseUrl).toBe(`${gw.url}/api/tenant/v1`);
      expect(fixture.adminApi).toEqual({ baseUrl: `${gw.url}/api/admin/v1` });
      expect(fixture.tenantId).toMatch(UUID);
      expect(typeof fixture.tenantApi.token).toBe('string');
      expect(Object.keys(fixture.installations).sort()).toEqual([...INSTALLATIONS].sort());
      for (const installation of INSTALLATIONS.map((name) => fixture.installations[name])) {
        expect(installation).toEqual(
          expect.objectContaining({
            installationId: expect.stringMatching(UUID),
            appId: expect.stringMatching(UUID),
            apiKey: expect.stringMatching(API_KEY),
            webhookSecret: expect.stringMatching(WEBHOOK_SECRET),
          }),
        );
      }
    }
    expect(statSync(fileOf('run1.json')).mode & 0o777).toBe(0o600);
    expect(statSync(fileOf('run2.json')).mode & 0o777).toBe(0o600);
  });

  it('prints ids and key ids only, never a secret', () => {
    runs.slice(0, 2).forEach(({ result, fixture }, index) => {
      expectNoSecretsPrinted(result, fixture);
      expect(result.stdout).toContain(fixture.tenantId);
      for (const name of INSTALLATIONS) expect(result.stdout).toContain(fixture.installations[name].installationId);
      expect(result.stdout).toContain(fixture.installations.orderSource.apiKey.split('.')[0]);
      expect(result.stdout).toContain(fileOf(`run${index + 1}.json`));
    });
  });

  it('finds the same tenant, apps and installations on a second run, with fresh credentials', () => {
    const [a, b] = [runs[0]!.fixture, runs[1]!.fixture];
    expect(b.tenantId).toBe(a.tenantId);
    for (const name of INSTALLATIONS) {
      expect(b.installations[name].appId).toBe(a.installations[name].appId);
      expect(b.installations[name].installationId).toBe(a.installations[name].installationId);
      expect(b.installations[name].contractVersion).toBe(a.installations[name].contractVersion);
      expect(b.installations[name].apiKey).not.toBe(a.installations[name].apiKey);
      expect(b.installations[name].webhookSecret).not.toBe(a.installations[name].webhookSecret);
    }
    expect(new Set(INSTALLATIONS.map((name) => b.installations[name].appId)).size).toBe(3);
    expect(new Set(INSTALLATIONS.map((name) => b.installations[name].installationId)).size).toBe(3);
  });

  it("revokes the first run's API key; the second run's authenticates and is forwarded to the catalog", async () => {
    const [a, b] = [runs[0]!.fixture, runs[1]!.fixture];
    expect(firstKeyBeforeSecondRun).toBe(200);
    const revoked = await branches(a.installations.orderSource.apiKey);
    expect(revoked.status).toBe(401);
    expect((await branches(a.installations.deliveryProvider.apiKey)).status).toBe(401);
    expect((await branches(a.installations.deliveryProviderB.apiKey)).status).toBe(401);
    const fresh = await branches(b.installations.orderSource.apiKey);
    expect(fresh.status).toBe(200);
    expect(fresh.body.map((branch: any) => branch.id).sort()).toEqual(b.branches.map((branch) => branch.id).sort());
  });

  it('seeds a menu partners can read: two active branches, nested modifiers, two languages, sold-out items; the same ids on every run', async () => {
    const [a, b] = [runs[0]!.fixture, runs[1]!.fixture];
    expect(b.branches.map((branch) => branch.name).sort()).toEqual(['Demo Bistro Hafen', 'Demo Bistro Mitte']);
    expect(b.branches).toEqual(a.branches);
    const mitte = b.branches.find((branch) => branch.name === 'Demo Bistro Mitte')!;
    const key = b.installations.orderSource.apiKey;
    const menu = (await partnerCall(gw, key, 'GET', `/catalog/branches/${mitte.id}/products?language=de`)).body;
    expect(menu.resolvedLanguage).toBe('de');
    expect(menu.categories.map((c: any) => c.name)).toEqual(['Pizza', 'Pasta', 'Salate', 'Getränke', 'Desserts']);
    const products = menu.categories.flatMap((c: any) => c.products);
    expect(products.find((p: any) => p.sku === 'DE-PANNA').availability).toBe(1);
    expect(products.find((p: any) => p.sku === 'PA-CAR').variants.map((v: any) => v.availability)).toEqual([0, 2]);
    expect(new Set(products.map((p: any) => JSON.stringify(p.taxCategory)))).toEqual(
      new Set([JSON.stringify({ rate: 7, isInclusive: true }), JSON.stringify({ rate: 19, isInclusive: false })]),
    );
    const margherita = products.find((p: any) => p.sku === 'PZ-MARG');
    const detail = (await partnerCall(gw, key, 'GET', `/catalog/branches/${mitte.id}/products/${margherita.id}`)).body;
    const toppings = detail.variants[0].modifierGroups.find((g: any) => g.name === 'Toppings');
    const cheeseType = toppings.options.find((o: any) => o.name === 'Cheese').childGroups[0].options[0].childGroups[0];
    expect(cheeseType.name).toBe('Cheese type');
    expect(toppings.options.find((o: any) => o.name === 'Rocket').availability).toBe(1);
  });

  it('seeds a delivery zone, a service fee and a promotion code with which the order source can order; the same zone on every run', async () => {
    const [first, second] = runs.map((r) => r.fixture);
    const mitte = second!.branches.find((b) => b.name === 'Demo Bistro Mitte')!;
    expect(second!.promotionCode).toBe('DEMO10');
    expect(second!.deliveryZones).toEqual([
      { id: expect.stringMatching(UUID), branchId: mitte.id, inside: expect.any(Object), outside: expect.any(Object) },
    ]);
    expect(second!.deliveryZones[0]!.id).toBe(first!.deliveryZones[0]!.id);
    const zone = second!.deliveryZones[0]!;
    const order = (point: { latitude: number; longitude: number }) =>
      placeDemoOrder(gw, second!, { point, promotionCode: second!.promotionCode });
    const inside = await order(zone.inside);
    expect(inside.status).toBe(201);
    // The seeded webhook URL gets the order, signed with the seeded secret of the latest run.
    const webhook = await waitFor(
      "the order's orders.created at the seeded webhook URL",
      () =>
        receiver
          .at('/hooks')
          .find(
            (r) =>
              r.body.toString('utf8').includes(inside.body.orderId) &&
              JSON.parse(r.body.toString('utf8')).type === 'orders.created',
          ),
      10_000,
      50,
    );
    expect(verifySignature(webhook, second!.installations.orderSource.webhookSecret)).toBe(true);
    expect(inside.body).toMatchObject({ deliveryFee: 2.5, serviceFee: 0.49 });
    expect(inside.body.discountTotal).toBeGreaterThan(0);
    const outside = await order(zone.outside);
    expect(outside.status).toBe(400);
    expect(outside.body.errors.deliveryAddress).toEqual(['lies outside the delivery zone']);
  });

  it("seeds the restaurant's payment processor: `npm run demo:pay` confirms a card order, and the order source gets payment.completed", async () => {
    const fixture = runs[1]!.fixture;
    expect(fixture.paymentProcessor).toEqual({
      notificationUrl: `${gw.url}/api/payments/v1/tenants/${fixture.tenantId}/notifications`,
      secret: expect.stringMatching(/^ppsec_[A-Za-z0-9_-]{43}$/),
    });
    expect(fixture.paymentProcessor.secret).not.toBe(runs[0]!.fixture.paymentProcessor.secret);
    const order = await placeDemoOrder(gw, fixture, { paymentMethod: 2 });
    expect(order.status).toBe(201);
    const pay = (eventId: string) =>
      run('npm', [
        'run',
        '--silent',
        'demo:pay',
        '--',
        '--order',
        order.body.orderId,
        '--fixture',
        fileOf('run2.json'),
        '--event-id',
        eventId,
      ]);
    const paid = await pay('evt_seed_test_1');
    expect({ code: paid.code, stdout: paid.stdout.trim() }).toEqual({ code: 0, stdout: 'confirmed' });
    expect((await pay('evt_seed_test_2')).stdout.trim()).toBe('already_confirmed');
    const webhook = await waitFor(
      "the order's payment.completed at the seeded webhook URL",
      () =>
        receiver
          .at('/hooks')
          .find(
            (r) =>
              r.body.toString('utf8').includes(order.body.orderId) &&
              JSON.parse(r.body.toString('utf8')).type === 'payment.completed',
          ),
      10_000,
      50,
    );
    expect(verifySignature(webhook, fixture.installations.orderSource.webhookSecret)).toBe(true);
    expect(JSON.parse(webhook.body.toString('utf8')).data).toMatchObject({
      orderId: order.body.orderId,
      paymentStatus: 'Paid',
    });
  });

  it('gives the delivery providers no catalog access: 403 auth.insufficient_scope', async () => {
    for (const name of ['deliveryProvider', 'deliveryProviderB'] as const) {
      const res = await branches(runs[1]!.fixture.installations[name].apiKey);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('auth.insufficient_scope');
    }
  });

  it('leaves the three installations Connected with the seeded contract, visible with the tenant token', async () => {
    const { fixture } = runs[1]!;
    const tenant = apiClient(gw.url, fixture.tenantApi.token);
    const list = await tenant.call('GET', '/api/tenant/v1/installations');
    expect(list.status).toBe(200);
    const byApp = new Map<string, any>(list.body.map((i: any) => [i.appId, i]));
    expect(byApp.size).toBe(3);
    const source = byApp.get(fixture.installations.orderSource.appId);
    expect(source).toMatchObject({
      id: fixture.installations.orderSource.installationId,
      status: 'Connected',
      webhookUrl: WEBHOOK_URL,
      authType: 'ApiKey',
    });
    expect([...source.scopes].sort()).toEqual(['Catalog.Read', 'Orders.Create']);
    expect([...source.subscribedEvents].sort()).toEqual(['orders.cancelled', 'orders.created', 'payment.completed']);
    for (const name of ['deliveryProvider', 'deliveryProviderB'] as const) {
      const provider = byApp.get(fixture.installations[name].appId);
      expect(provider).toMatchObject({
        id: fixture.installations[name].installationId,
        status: 'Connected',
        webhookUrl: WEBHOOK_URL,
        authType: 'ApiKey',
      });
      expect([...provider.subscribedEvents].sort()).toEqual([
        'delivery.assigned',
        'delivery.cancelled',
        'delivery.superseded',
      ]);
      expect([...provider.scopes].sort()).toEqual(DELIVERY_SCOPES);
    }
    expect(byApp.get(fixture.installations.deliveryProviderB.appId).appName).toBe('Demo Delivery Provider B');
  });

  it('creates the platform account "Demo Platform" on provider-delivery: every capability but proof of delivery, the webhook URL, a service area around Mitte', async () => {
    const [a, b] = [runs[0]!.fixture, runs[1]!.fixture];
    for (const fixture of [a, b]) {
      expect(fixture.provider).toEqual({
        baseUrl: `${provider.url}/v1`,
        apiKey: expect.stringMatching(PLATFORM_API_KEY),
        webhookSecret: expect.stringMatching(PLATFORM_WEBHOOK_SECRET),
        accountId: expect.stringMatching(UUID),
      });
    }
    const accounts = await providerCall('GET', '/admin/v1/platform-accounts', providerAdmin());
    expect(accounts.status).toBe(200);
    const demo = accounts.body.filter((account: any) => account.name === 'Demo Platform');
    expect(demo.map((account: any) => account.id)).toEqual([a.provider.accountId]);
    expect(demo[0]).toMatchObject({
      webhookUrl: WEBHOOK_URL,
      capabilities: {
        supportsPolling: true,
        supportsReturnToOrigin: true,
        supportsProofOfDelivery: false,
        supportsScheduledDelivery: true,
        supportsUpdates: true,
        supportsCancellation: true,
      },
      serviceArea: { type: 'Polygon' },
    });

    // A delivery inside the delivery zone is accepted; one to the zone's outside point is outside the area.
    const key = `Bearer ${b.provider.apiKey}`;
    const zone = b.deliveryZones[0]!;
    const inside = await providerCall('POST', '/v1/deliveries', key, providerDelivery(b, zone.inside));
    expect(inside).toEqual({ status: 200, body: { accepted: true, providerDeliveryId: expect.stringMatching(UUID) } });
    const status = await providerCall('GET', `/v1/deliveries/${inside.body.providerDeliveryId}/status`, key);
    expect(status.body.status).toBe('provider_accepted');
    const outside = await providerCall('POST', '/v1/deliveries', key, providerDelivery(b, zone.outside));
    expect(outside).toEqual({ status: 200, body: { accepted: false, rejectionReason: 'outside_service_area' } });
  });

  it('finds the same platform account on a second run, with a fresh API key (the first one refused) and a rotated webhook secret', async () => {
    const [a, b] = [runs[0]!.fixture, runs[1]!.fixture];
    expect(b.provider.accountId).toBe(a.provider.accountId);
    expect(b.provider.apiKey).not.toBe(a.provider.apiKey);
    expect(b.provider.webhookSecret).not.toBe(a.provider.webhookSecret);
    const unknown = '/v1/deliveries/00000000-0000-4000-8000-000000000000/status';
    expect((await providerCall('GET', unknown, `Bearer ${a.provider.apiKey}`)).status).toBe(401);
    const fresh = await providerCall('GET', unknown, `Bearer ${b.provider.apiKey}`);
    expect({ status: fresh.status, code: fresh.body.code }).toEqual({ status: 404, code: 'delivery.not_found' });
  });

  it('moves to a new contract version when the webhook URL changes, and reuses it on the next run', async () => {
    const before = runs[1]!.fixture;
    const { fixture: moved, result } = await seedRun(fileOf('run3.json'), OTHER_WEBHOOK_URL);
    expectNoSecretsPrinted(result, moved);
    expect(moved.tenantId).toBe(before.tenantId);
    for (const name of INSTALLATIONS) {
      expect(moved.installations[name].appId).toBe(before.installations[name].appId);
      expect(moved.installations[name].contractVersion).toBe(before.installations[name].contractVersion + 1);
      const app = await gw.admin.call('GET', `/api/admin/v1/apps/${moved.installations[name].appId}`);
      expect(app.body.versions.map((v: any) => [v.version, v.status, v.webhookUrl])).toEqual([
        [1, 'Published', WEBHOOK_URL],
        [2, 'Published', OTHER_WEBHOOK_URL],
      ]);
    }
    const tenant = apiClient(gw.url, moved.tenantApi.token);
    const list = await tenant.call('GET', '/api/tenant/v1/installations');
    expect(list.body.map((i: any) => [i.id, i.contractVersion, i.webhookUrl, i.status]).sort()).toEqual(
      INSTALLATIONS.map((name) => [moved.installations[name].installationId, 2, OTHER_WEBHOOK_URL, 'Connected']).sort(),
    );
    expect((await branches(before.installations.orderSource.apiKey)).status).toBe(401);
    expect((await branches(moved.installations.orderSource.apiKey)).status).toBe(200);
    // The platform account is the same one, its global webhook URL the new one.
    expect(moved.provider.accountId).toBe(before.provider.accountId);
    const account = await providerCall(
      'GET',
      `/admin/v1/platform-accounts/${moved.provider.accountId}`,
      providerAdmin(),
    );
    expect(account.body.webhookUrl).toBe(OTHER_WEBHOOK_URL);

    const { fixture: again } = await seedRun(fileOf('run4.json'), OTHER_WEBHOOK_URL);
    expect(again.installations.orderSource.contractVersion).toBe(2);
    expect(again.installations.orderSource.installationId).toBe(moved.installations.orderSource.installationId);
    const app = await gw.admin.call('GET', `/api/admin/v1/apps/${again.installations.orderSource.appId}`);
    expect(app.body.versions).toHaveLength(2);
  }, 120_000);

  it('fails with one line naming the request, status and problem code on an HTTP error', async () => {
    const rejected = await seed([
      ...services(),
      '--webhook-url',
      'http://partner.example.com/hooks',
      '--out',
      fileOf('rejected.json'),
    ]);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr.trim().split('\n')).toHaveLength(1);
    expect(rejected.stderr).toMatch(/POST \/api\/admin\/v1\/apps\/[0-9a-f-]{36}\/versions -> 400 request\.invalid/);
    expect(rejected.stderr).toContain('webhookUrl must use https');

    const refused = await seed([
      ...services(),
      '--webhook-url',
      WEBHOOK_URL,
      '--out',
      fileOf('refused.json'),
      '--admin-token',
      'not-a-token',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('GET /api/admin/v1/tenants?slug=demo-bistro -> 401 auth.unauthenticated');
    expect(() => statSync(fileOf('rejected.json'))).toThrow();
    expect(() => statSync(fileOf('refused.json'))).toThrow();
  }, 120_000);

  it('says to run npm start when the gateway is not reachable, and checks its options', async () => {
    const down = await seed([
      '--gateway',
      `http://127.0.0.1:${await freePort()}`,
      '--webhook-url',
      WEBHOOK_URL,
      '--out',
      fileOf('down.json'),
    ]);
    expect(down.code).toBe(1);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(down.stderr).toContain('cannot reach the gateway');
    expect(down.stderr).toContain('npm start');

    const providerDown = await seed([
      '--gateway',
      gw.url,
      '--provider-url',
      `http://127.0.0.1:${await freePort()}`,
      '--webhook-url',
      WEBHOOK_URL,
      '--out',
      fileOf('provider-down.json'),
    ]);
    expect(providerDown.code).toBe(1);
    expect(providerDown.stderr.trim().split('\n')).toHaveLength(1);
    expect(providerDown.stderr).toContain('cannot reach provider-delivery');
    expect(providerDown.stderr).toContain('--provider-url');
    expect(() => statSync(fileOf('provider-down.json'))).toThrow();

    const noUrl = await seed([...services(), '--out', fileOf('x.json')]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--webhook-url is required');
    const relative = await seed([...services(), '--webhook-url', '/hooks', '--out', fileOf('x.json')]);
    expect(relative.code).toBe(2);
    expect(relative.stderr).toContain('--webhook-url must be an absolute URL');
  }, 120_000);
  it('connects provider-delivery as "Demo Fleet", its capabilities enabled with a recorded reason; a second run finds the same connection with new credentials', async () => {
    const [first, second] = runs.map((r) => r.fixture as Fixture & { providerConnection: Record<string, string> });
    expect(first!.providerConnection).toEqual({
      connectionId: expect.stringMatching(UUID),
      installationId: expect.stringMatching(UUID),
      accountId: expect.stringMatching(UUID),
    });
    expect(second!.providerConnection).toEqual(first!.providerConnection);
    const tenant = apiClient(gw.url, second!.tenantApi.token);
    const read = await tenant.call(
      'GET',
      `/api/tenant/v1/provider-connections/${first!.providerConnection.connectionId}`,
    );
    expect(read.body).toMatchObject({
      name: 'Demo Fleet',
      baseUrl: `${provider.url}/v1`,
      installationId: first!.providerConnection.installationId,
      dispatchable: true,
    });
    expect(read.body.capabilities.core).toMatchObject({ enabled: true, by: 'administrator' });
    expect(read.body.capabilities.supportsReturnToOrigin.enabled).toBe(false);
    expect(JSON.stringify(read.body)).not.toMatch(/pdk_|whsec_/);
  });
});
