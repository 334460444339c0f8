import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import { createPartnerClient, idempotencyHeader } from 'marketplace-api-clients';
import { verifyMarketplaceWebhook } from 'marketplace-webhooks';
import {
  createTenant,
  freePort,
  publishApp,
  recordIssuedSecret,
  restaurantMenu,
  stackEnv,
  startGateway,
  startServiceProcess,
  startServiceProcesses,
  waitFor,
  type DemoMenu,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';
import { sandboxCancel } from '../../kits/clients/examples/partner-sandbox';

// Day one of a new partner: the platform hands it a sandbox tenant's installation (an API key and
// a webhook signing secret, as connect shows them); from then on the partner uses nothing but the
// published packages (marketplace-api-clients, marketplace-webhooks) and HTTP. It reads the
// catalog, places an order, receives orders.created and verifies its signature, has the sandbox
// cancel the order (orders.cancelled follows), has its next webhook fail and sees the failed
// attempt in its delivery log, asks for a redelivery, and rotates its secret (both secrets sign
// for a day). The platform's side (the services as processes, the sandbox tenant) uses the
// project's test helpers; the partner's never does.

const READY_MS = 90_000;
const suffix = randomBytes(4).toString('hex');

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** The partner's own webhook endpoint: answers 204, keeps every request's exact bytes. */
class PartnerEndpoint {
  readonly received: Received[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  of(type: string, orderId: string): Received[] {
    return this.received.filter((r) => {
      const envelope = JSON.parse(r.body.toString('utf8'));
      return envelope.type === type && envelope.data?.orderId === orderId;
    });
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

let services: ServiceProcess[] = [];
let gateway: TestGateway;
let mongo: MongoClient;
let endpoint: PartnerEndpoint;
/** What the platform hands the partner: the API base URL, the key, the signing secret, the menu's branch. */
let handed: { baseUrl: string; apiKey: string; webhookSecret: string; branchId: string };
let menu: DemoMenu;

beforeAll(async () => {
  const orderingDatabase = `it_dk_ord_${suffix}`;
  services = await startServiceProcesses([
    startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: `it_dk_cat_${suffix}` }, READY_MS),
    startServiceProcess(
      'ordering-pricing',
      await freePort(),
      {
        MONGO_DATABASE: orderingDatabase,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-dk-ordering-${suffix}`,
        CATALOG_COPY_START: 'latest',
        DELIVERY_COPY_START: 'latest',
      },
      READY_MS,
    ),
    startServiceProcess(
      'webhook-sender',
      await freePort(),
      {
        MONGO_DATABASE: `it_dk_wh_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-dk-webhooks-${suffix}`,
        INSTALLATIONS_COPY_START: 'latest',
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        // The retry schedule a thousand times faster: the first retry in 120 ms, not 2 minutes.
        WEBHOOK_RETRY_TIME_SCALE: '1000',
      },
      READY_MS,
    ),
    startServiceProcess(
      'delivery-assignment',
      await freePort(),
      {
        MONGO_DATABASE: `it_dk_da_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-dk-delivery-${suffix}`,
        COPIES_START: 'latest',
      },
      READY_MS,
    ),
  ]);
  const [catalog, ordering, sender, delivery] = services;
  gateway = await startGateway({
    CATALOG_URL: catalog!.url,
    ORDERING_URL: ordering!.url,
    WEBHOOKS_URL: sender!.url,
    DELIVERY_URL: delivery!.url,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
  });
  mongo = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  endpoint = new PartnerEndpoint();
  await endpoint.start();

  // The platform's side: a sandbox tenant with a menu, and the partner's app installed and connected.
  const owner = await createTenant(gateway, { sandbox: true });
  menu = await restaurantMenu(owner.tenant, owner.tenantId, mongo.db(orderingDatabase));
  const { appId, version } = await publishApp(
    gateway,
    ['Catalog.Read', 'Orders.Create'],
    ['orders.created', 'orders.cancelled'],
    { webhookUrl: endpoint.url },
  );
  const installed = await owner.tenant.call('POST', '/api/tenant/v1/installations', {
    appId,
    contractVersion: version,
  });
  const connected = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installed.body.id}/connect`);
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${JSON.stringify(connected.body)}`);
  handed = {
    baseUrl: gateway.url,
    apiKey: connected.body.credentials.apiKey,
    webhookSecret: connected.body.credentials.webhookSigningSecret,
    branchId: menu.branchId,
  };
  recordIssuedSecret('partner API key', handed.apiKey);
  recordIssuedSecret('webhook signing secret', handed.webhookSecret);
}, 240_000);

afterAll(async () => {
  await endpoint?.stop();
  await mongo?.close();
  await gateway?.stop();
  await Promise.all(services.map((s) => s.stop()));
}, 60_000);

// ---- From here on, the partner: the packages and HTTP only. ----

const partner = () => createPartnerClient({ baseUrl: handed.baseUrl, apiKey: handed.apiKey });

async function placeOrder(): Promise<string> {
  const client = partner();
  const catalog = await client.GET('/api/partner/v1/catalog/branches/{branchId}/products', {
    params: { path: { branchId: handed.branchId } },
  });
  if (catalog.error) throw new Error(`catalog: ${catalog.error.code}`);
  const product = catalog.data.categories.flatMap((c) => c.products).find((p) => p.variants.length > 0)!;
  const variant = product.variants[0]!;
  const created = await client.POST('/api/partner/v1/orders', {
    params: { header: idempotencyHeader() },
    body: {
      branchId: handed.branchId,
      orderMode: 2,
      customerName: 'Ada Lovelace',
      customerPhone: '+49 30 1234567',
      paymentMethod: 1,
      externalOrderId: `day-one-${randomUUID()}`,
      lines: [{ productId: product.id, variantId: variant.id, quantity: 1, modifierSelections: [] }],
    },
  });
  if (created.error) throw new Error(`order: ${created.error.code} ${created.error.detail}`);
  return created.data.orderId;
}

const scenario = (body: { scenario: 'webhook.fail' | 'secret.rotate'; orderId?: string; times?: number }) =>
  partner().POST('/api/partner/v1/sandbox/scenarios', { params: { header: idempotencyHeader() }, body });

const verified = (r: Received, secret = handed.webhookSecret) =>
  verifyMarketplaceWebhook({ body: r.body, headers: r.headers, secret }).ok;

describe("a new partner's first day, with the packages and HTTP only", () => {
  it('places an order and verifies its orders.created; the sandbox cancels it and orders.cancelled follows, signed', async () => {
    const orderId = await placeOrder();
    const [created] = await waitFor(
      'orders.created at the endpoint',
      () => {
        const found = endpoint.of('orders.created', orderId);
        return found.length > 0 ? found : undefined;
      },
      60_000,
    );
    expect(verified(created!)).toBe(true);
    expect(verified(created!, `whsec_${randomBytes(24).toString('base64')}`)).toBe(false);

    // The README's example (examples/partner-sandbox.ts), as a partner copies it.
    const cancelled = await sandboxCancel(handed.baseUrl, handed.apiKey, orderId);
    expect(cancelled.emits).toContain('orders.cancelled to source');
    const [webhook] = await waitFor(
      'orders.cancelled at the endpoint',
      () => {
        const found = endpoint.of('orders.cancelled', orderId);
        return found.length > 0 ? found : undefined;
      },
      30_000,
    );
    expect(verified(webhook!)).toBe(true);
    const order = await partner().GET('/api/partner/v1/orders/{orderId}', { params: { path: { orderId } } });
    expect(order.data?.status).toBe(8);
  }, 120_000);

  it('has its next webhook fail, sees the failed attempt and the retry in its delivery log, and gets it redelivered', async () => {
    const failing = await scenario({ scenario: 'webhook.fail', times: 1 });
    expect(failing.data?.outcome).toEqual({ failingNext: 1 });
    const orderId = await placeOrder();
    // A partner polls its log gently: the installation's key has 60 requests a minute.
    const log = await waitFor(
      'the delivery, failed once and then delivered by its retry, in the delivery log',
      async () => {
        const list = await partner().GET('/api/partner/v1/webhooks/deliveries', { params: { query: {} } });
        return list.data?.find(
          (d) =>
            d.type === 'orders.created' && d.status === 'delivered' && d.attempts.some((a) => a.statusCode === 503),
        );
      },
      60_000,
      2_000,
    );
    expect(log.attempts.map((a) => a.statusCode)).toEqual([503, 204]);
    expect(endpoint.of('orders.created', orderId)).toHaveLength(1); // the failed attempt sent nothing
    const redelivered = await partner().POST('/api/partner/v1/webhooks/deliveries/{deliveryId}/redeliver', {
      params: { path: { deliveryId: log.id }, header: idempotencyHeader() },
    });
    expect(redelivered.response.status).toBe(202);
    const copies = await waitFor(
      'the redelivered orders.created',
      () => {
        const found = endpoint.of('orders.created', orderId);
        return found.length === 2 ? found : undefined;
      },
      60_000,
    );
    expect(copies.every((r) => verified(r))).toBe(true);
    expect(copies[1]!.headers['webhook-id']).toBe(copies[0]!.headers['webhook-id']); // the same delivery, sent again
  }, 180_000);

  it('rotates its signing secret: the next webhook verifies with the new one, and still with the old for the overlap', async () => {
    const rotated = await scenario({ scenario: 'secret.rotate' });
    const fresh = (rotated.data?.outcome as { webhookSigningSecret: string }).webhookSigningSecret;
    expect(fresh).toMatch(/^whsec_/);
    recordIssuedSecret('webhook signing secret', fresh);
    const old = handed.webhookSecret;
    const orderId = await placeOrder();
    const [webhook] = await waitFor(
      'orders.created after the rotation',
      () => {
        const found = endpoint.of('orders.created', orderId);
        return found.length > 0 ? found : undefined;
      },
      60_000,
    );
    expect(verified(webhook!, fresh)).toBe(true);
    // X-Marketplace-Signature carries the new secret's signature; Standard Webhooks' both (the package checks either).
    expect(verifyMarketplaceWebhook({ body: webhook!.body, headers: webhook!.headers, secret: [fresh, old] }).ok).toBe(
      true,
    );
    handed.webhookSecret = fresh;
  }, 120_000);

  it('is refused a scenario for a tenant that is not a sandbox: 403 sandbox.not_a_sandbox', async () => {
    const owner = await createTenant(gateway);
    const { appId, version } = await publishApp(gateway, ['Orders.Create']);
    const installed = await owner.tenant.call('POST', '/api/tenant/v1/installations', {
      appId,
      contractVersion: version,
    });
    const connected = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installed.body.id}/connect`);
    const production = createPartnerClient({ baseUrl: handed.baseUrl, apiKey: connected.body.credentials.apiKey });
    recordIssuedSecret('partner API key', connected.body.credentials.apiKey);
    const refused = await production.POST('/api/partner/v1/sandbox/scenarios', {
      params: { header: idempotencyHeader() },
      body: { scenario: 'webhook.fail', times: 1 },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.code).toBe('sandbox.not_a_sandbox');
  }, 60_000);
});
