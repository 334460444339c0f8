import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { createKafka, loadTopicCatalog, kafkaConnectionFromEnv } from '@marketplace/events';
import {
  freePort,
  quietLogger,
  repoRoot,
  stackEnv,
  startReceiver,
  startServiceProcess,
  startServiceProcesses,
  uniqueName,
  verifyPlatformSignature,
  verifySignature,
  waitFor,
  type Receiver,
  type ServiceProcess,
} from '@marketplace/testing';
import {
  apiClient,
  platformAccountSettings,
  providerAdminToken,
  startGateway,
  type TestGateway,
} from '@marketplace/testing';
import { placeDemoOrder } from './support/demo-order';

// The demo journey from the state a new user starts in: topics that do not exist yet (the services
// create them with the partitions of schemas/topics.json, so most partitions of `installations`
// stay empty), new databases and consumer groups, every service with its default settings (the
// installation and catalog copies read from the beginning), the demo seed (one tenant, three
// installations, a platform account on provider-delivery), then one order through the gateway. Its
// `orders.created` must reach a real receiver within 10 seconds with a valid signature. Then the
// delivery journey of docs/demo.md, run as written (the shell block between its `delivery-journey`
// markers): an order assigned to the demo delivery provider, accepted, given a driver, an ETA and a
// tracking link, moved to InTransit and Delivered, and the order Completed. Then the demo page's
// provider walkthrough (between its `provider-contract` markers): a delivery created on
// provider-delivery with the seeded platform key, its status read, taken by a simulated driver to
// delivered; each event's callback must reach the seeded webhook URL, signed with the account's
// webhook secret (sent by webhook-sender from `provider-events`).
//
// Disruptive: it deletes the platform's topics first, so it runs alone, after the other tests.

const WEBHOOK_WITHIN_MS = 10_000;
const catalog = loadTopicCatalog();
const PLATFORM_TOPICS = [...catalog.topics.keys()];
/** The topics on the path of the journey, each checked to be new and empty before the seed. */
const JOURNEY_TOPICS = ['installations', 'catalog', 'orders', 'deliveries', 'provider-events'];

let admin: Admin;
let services: ServiceProcess[] = [];
let gw: TestGateway | undefined;
let receiver: Receiver;
let dir: string;
let fixture: any;
let fixtureFile: string;
let topicsBeforeSeed: Map<string, Array<{ partition: number; high: string }>>;
let installationsAfterSeed: Array<{ partition: number; high: string; low: string }>;
let providerUrl: string;

function seed(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.MARKETPLACE_ADMIN_TOKEN;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'scripts', 'demo', 'seed.mjs'), ...args],
      { cwd: repoRoot, env, timeout: 90_000, encoding: 'utf8' },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Runs the demo page's (docs/demo.md) shell block between `<!-- NAME:start -->` and `<!-- NAME:end -->` as written, with the seed's fixture. */
function runReadmeBlock(name: string) {
  const readme = readFileSync(join(repoRoot, 'docs', 'demo.md'), 'utf8');
  const block = new RegExp(`<!-- ${name}:start -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`).exec(
    readme,
  )?.[1];
  if (block === undefined) throw new Error(`docs/demo.md has no sh block between the ${name} markers`);
  return spawnSync('bash', ['-euo', 'pipefail', '-c', block], {
    cwd: repoRoot,
    env: { ...process.env, FIXTURE: fixtureFile },
    encoding: 'utf8',
    // stdin not a socket: bash takes a socket on stdin for a remote shell and reads the system's
    // bashrc, which fails under -u where the run's shell level is 1
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 200_000, // the provider walkthrough waits for a simulated delivery (about a minute)
  });
}

/** Deletes the platform's topics (and their dead-letter topics) and waits until they are gone. */
async function deletePlatformTopics(): Promise<void> {
  const platform = new Set(PLATFORM_TOPICS.flatMap((t) => [t, catalog.deadLetterTopicOf(t)]));
  const existing = (await admin.listTopics()).filter((t) => platform.has(t));
  if (existing.length > 0) await admin.deleteTopics({ topics: existing, timeout: 30_000 });
  await waitFor(
    'the deleted topics to be gone',
    async () => (await admin.listTopics()).every((t) => !platform.has(t)),
    30_000,
    250,
  );
}

beforeAll(async () => {
  const kafka = createKafka({
    connection: kafkaConnectionFromEnv(stackEnv()),
    clientId: 'it-fresh-cluster',
    logger: quietLogger('fresh-cluster'),
  });
  admin = kafka.admin();
  await admin.connect();
  await deletePlatformTopics();

  // Every service as `npm start` runs it: no copy starts "at new messages", no shortcut.
  const suffix = uniqueName('fresh').replace(/-/g, '_');
  const fresh = (name: string) => ({
    MONGO_DATABASE: `it_${suffix}_${name}`.slice(0, 60),
    KAFKA_CONSUMER_GROUP_PREFIX: `it-${suffix}-${name}`,
  });
  services = await startServiceProcesses([
    startServiceProcess('catalog', await freePort(), fresh('cat'), 90_000),
    startServiceProcess('ordering-pricing', await freePort(), fresh('ord'), 90_000),
    startServiceProcess(
      'webhook-sender',
      await freePort(),
      { ...fresh('wh'), ALLOW_LOOPBACK_HTTP_URLS: 'true' },
      90_000,
    ),
    startServiceProcess('delivery-assignment', await freePort(), fresh('da'), 90_000),
    startServiceProcess(
      'provider-delivery',
      await freePort(),
      { ...fresh('prv'), ALLOW_LOOPBACK_HTTP_URLS: 'true' },
      90_000,
    ),
  ]);
  const [catalogService, ordering, sender, delivery, provider] = services;
  providerUrl = provider!.url;
  gw = await startGateway({
    CATALOG_URL: catalogService!.url,
    ORDERING_URL: ordering!.url,
    WEBHOOKS_URL: sender!.url,
    DELIVERY_URL: delivery!.url,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_INSTALLATION: '100000',
  });
  topicsBeforeSeed = new Map(
    await Promise.all(JOURNEY_TOPICS.map(async (t) => [t, await admin.fetchTopicOffsets(t)] as const)),
  );

  receiver = await startReceiver();
  dir = mkdtempSync(join(tmpdir(), 'fresh-cluster-'));
  const file = join(dir, 'demo.json');
  const result = await seed([
    '--gateway',
    gw.url,
    '--provider-url',
    provider!.url,
    '--webhook-url',
    `${receiver.url}/hooks`,
    '--out',
    file,
  ]);
  if (result.code !== 0) throw new Error(`seed exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  fixture = JSON.parse(readFileSync(file, 'utf8'));
  fixtureFile = file;
  installationsAfterSeed = await admin.fetchTopicOffsets('installations');
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  await Promise.all(services.map((s) => s.stop()));
  await receiver?.close();
  await admin?.disconnect();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('a fresh cluster: seed, order, webhook', () => {
  it('starts from new, empty topics with the partitions of schemas/topics.json; the seed leaves partitions of installations empty', () => {
    for (const [topic, offsets] of topicsBeforeSeed) {
      expect(offsets).toHaveLength(catalog.get(topic).partitions);
      expect(offsets.every((p) => p.high === '0')).toBe(true);
    }
    // Three installations (an order source and two delivery providers) on six partitions: at
    // least three partitions never get a message.
    const installations = Object.keys(fixture.installations).length;
    expect(installations).toBe(3);
    expect(installationsAfterSeed.filter((p) => p.high === '0').length).toBeGreaterThanOrEqual(
      catalog.get('installations').partitions - installations,
    );
  });

  it('starts quietly: no service logs a warning or an error while it creates the new topics, subjects and groups', () => {
    // Six services creating the same topics and subjects at once, coordinators still loading: the
    // races of every fresh start, retried and logged at debug. A warning here would be printed by
    // `npm start` on a new user's first run.
    const noisy = [...services, gw!.process].flatMap((s) => {
      const lines = s
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: string; msg: string; service: string; err?: { message?: string } });
      const ready = lines.findIndex((l) => l.level === 'info' && / ready$/.test(l.msg));
      return lines
        .slice(0, ready === -1 ? lines.length : ready)
        .filter((l) => ['warn', 'error', 'fatal'].includes(l.level))
        .map((l) => `${l.service}: ${l.level} ${l.msg}${l.err?.message ? `: ${l.err.message}` : ''}`);
    });
    expect(noisy).toEqual([]);
  });

  it("delivers the order's orders.created to the order source's webhook URL within 10 s, signed with its secret", async () => {
    const source = fixture.installations.orderSource;
    const placedAt = Date.now();
    const order = await placeDemoOrder(gw!, fixture);
    expect({ status: order.status, body: order.status === 201 ? undefined : order.body }).toEqual({
      status: 201,
      body: undefined,
    });
    const orderId: string = order.body.orderId;

    const webhook = await waitFor(
      'orders.created at the receiver',
      () => receiver.at('/hooks').find((r) => JSON.parse(r.body.toString('utf8')).type === 'orders.created'),
      WEBHOOK_WITHIN_MS,
      50,
    );
    const envelope = JSON.parse(webhook.body.toString('utf8'));
    expect(envelope).toMatchObject({ type: 'orders.created', version: 1 });
    expect(JSON.stringify(envelope.data)).toContain(orderId);
    expect(verifySignature(webhook, source.webhookSecret)).toBe(true);
    expect(webhook.at - placedAt).toBeLessThan(WEBHOOK_WITHIN_MS);
    console.log(`fresh cluster: order to webhook in ${webhook.at - placedAt} ms`);
  }, 60_000);

  it('runs the delivery journey of docs/demo.md as written: assigned, accepted, driver, ETA, tracking, InTransit, Delivered, order Completed, payment confirmed', () => {
    const run = runReadmeBlock('delivery-journey');
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout.trim().split('\n')).toEqual([
      'Assigned',
      'Demo Bistro Mitte',
      '2',
      '2',
      '2',
      '2',
      '4',
      '5',
      'Delivered',
      'Completed',
      'confirmed',
      'Paid',
    ]);
  }, 90_000);

  it("sends the journey's payment.completed to the order source, subscribed, signed with its secret", async () => {
    const webhook = await waitFor(
      'payment.completed at the receiver',
      () => receiver.at('/hooks').find((r) => JSON.parse(r.body.toString('utf8')).type === 'payment.completed'),
      30_000,
      50,
    );
    const envelope = JSON.parse(webhook.body.toString('utf8'));
    expect(envelope.data).toMatchObject({ paymentStatus: 'Paid', paymentMethod: 2 });
    expect(verifySignature(webhook, fixture.installations.orderSource.webhookSecret)).toBe(true);
  }, 60_000);

  it('sends delivery.assigned for that order to the demo delivery provider only, signed with its secret', async () => {
    const provider = fixture.installations.deliveryProvider;
    const webhook = await waitFor(
      'delivery.assigned at the receiver',
      () => receiver.at('/hooks').find((r) => JSON.parse(r.body.toString('utf8')).type === 'delivery.assigned'),
      30_000,
      50,
    );
    const envelope = JSON.parse(webhook.body.toString('utf8'));
    expect(Object.keys(envelope.data).sort()).toEqual(['assignmentId', 'orderId', 'orderNumber']);
    expect(verifySignature(webhook, provider.webhookSecret)).toBe(true);
    expect(verifySignature(webhook, fixture.installations.deliveryProviderB.webhookSecret)).toBe(false);
  }, 60_000);

  it("runs the provider walkthrough of docs/demo.md as written: a platform's delivery created, replayed, read, taken by a simulated driver and delivered; every event's callback signed at the webhook URL, in a legal order", async () => {
    const run = runReadmeBlock('provider-contract');
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const lines = run.stdout.trim().split('\n');
    expect(lines).toEqual([
      'true',
      'provider_accepted',
      expect.stringMatching(/^tracking page: http:\/\/127\.0\.0\.1:\d+\/track\/trk_[\w-]{22}$/),
      'delivered',
    ]);

    // The account's global webhook URL (the seed's --webhook-url) gets every event of the
    // delivery, each signed with the account's webhook secret from the fixture, the status ones in
    // the order of the lifecycle and none after delivered.
    const callbacks = await waitFor(
      "the provider delivery's delivered callback at the receiver",
      () => {
        const found = receiver.at('/hooks').filter((r) => r.headers['x-platform-signature'] !== undefined);
        return found.some((r) => r.body.toString('utf8').includes('"delivery.delivered"')) ? found : undefined;
      },
      60_000,
      50,
    );
    // At least once: an event may come twice (the contract lets the platform drop duplicates), the same bytes.
    const events = [...new Set(callbacks.map((r) => r.body.toString('utf8')))]
      .map((body) => JSON.parse(body))
      .sort((a, b) => a.eventTimeUtc.localeCompare(b.eventTimeUtc));
    const statusEvents = events
      .map((e) => e.eventType)
      .filter((t) => !['driver.location_updated', 'eta.updated'].includes(t));
    expect(statusEvents).toEqual([
      'delivery.accepted',
      'driver.assigned',
      'driver.arrived_at_pickup',
      'delivery.picked_up',
      'delivery.on_the_way',
      'delivery.delivered',
    ]);
    expect(events.at(-1).eventType).toBe('delivery.delivered');
    expect(events.some((e) => e.eventType === 'driver.location_updated')).toBe(true);
    expect(new Set(events.map((e) => e.providerDeliveryId)).size).toBe(1);
    expect(events.every((e) => e.platformReference.startsWith('platform-'))).toBe(true);
    for (const callback of callbacks)
      expect(verifyPlatformSignature(callback, fixture.provider.webhookSecret)).toBe(true);
  }, 240_000);
  it('runs the whole mission on Demo Fleet: an order source orders, the tenant accepts and dispatches it to our provider, a simulated courier delivers it, the order completes, every webhook signed', async () => {
    const tenant = apiClient(gw!.url, fixture.tenantApi.token);
    const source = fixture.installations.orderSource;
    const started = Date.now();
    const timeline: Array<[string, number]> = [];
    const mark = (what: string) => timeline.push([what, Date.now() - started]);

    const order = await placeDemoOrder(gw!, fixture);
    expect(order.status).toBe(201);
    const orderId: string = order.body.orderId;
    mark('order placed by the order source');
    const created = await waitFor(
      'orders.created of the journey order at the order source',
      () =>
        receiver
          .at('/hooks')
          .find(
            (r) =>
              r.body.toString('utf8').includes(orderId) &&
              JSON.parse(r.body.toString('utf8')).type === 'orders.created',
          ),
      WEBHOOK_WITHIN_MS,
      50,
    );
    expect(verifySignature(created, source.webhookSecret)).toBe(true);
    mark('orders.created signed at the order source');

    expect((await tenant.call('POST', `/api/tenant/v1/orders/${orderId}/accept`)).status).toBe(200);
    mark('accepted by the tenant');
    const assigned = await tenant.call('POST', `/api/tenant/v1/deliveries/${orderId}/assign`, {
      installationId: fixture.providerConnection.installationId,
    });
    expect(assigned.status).toBe(201);
    mark('assigned to Demo Fleet');

    const seen = new Set<string>();
    await waitFor(
      'the assignment to move Accepted, InTransit, Delivered as the simulated courier carries it',
      async () => {
        const live = (await tenant.call('GET', `/api/tenant/v1/deliveries/${orderId}`)).body.live;
        if (live && !seen.has(live.statusName)) {
          seen.add(live.statusName);
          mark(`assignment ${live.statusName}${live.driverName ? ' (driver named)' : ''}`);
        }
        return live?.statusName === 'Delivered';
      },
      180_000,
      200,
    );
    expect([...seen].filter((s) => s !== 'Assigned')).toEqual(['Accepted', 'InTransit', 'Delivered']);
    await waitFor(
      'the order Completed',
      async () => (await tenant.call('GET', `/api/tenant/v1/orders/${orderId}`)).body.statusName === 'Completed',
      30_000,
    );
    mark('order Completed');

    const [dispatch] = (await tenant.call('GET', `/api/tenant/v1/deliveries/${orderId}/dispatch`)).body.dispatches;
    expect(dispatch).toMatchObject({
      providerStatus: 'delivered',
      connectionId: fixture.providerConnection.connectionId,
    });
    expect(dispatch.log.map((l: { decision: string }) => l.decision)).toEqual(['chosen', 'created']);
    // The tenant sees the order source's webhook delivered, in its delivery log (by its event id).
    const eventId = JSON.parse(created.body.toString('utf8')).id as string;
    const log = await tenant.call('GET', `/api/tenant/v1/webhooks/installations/${source.installationId}/deliveries`);
    expect(log.status).toBe(200);
    expect((log.body as Array<{ id: string; status: string }>).find((d) => d.id === eventId)?.status).toBe('delivered');
    console.log(
      `fresh cluster, the whole mission on Demo Fleet:\n${timeline.map(([what, ms]) => `  +${String(ms).padStart(6)} ms  ${what}`).join('\n')}`,
    );
  }, 300_000);
  it("rescues a delivery by the tenant's rules: a connection whose provider rejects it first, then Demo Fleet delivers it", async () => {
    const tenant = apiClient(gw!.url, fixture.tenantApi.token);
    const admin = async (method: string, path: string, body?: unknown): Promise<any> => {
      const res = await fetch(`${providerUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${providerAdminToken()}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    };
    // A platform account whose service area is far from the restaurant: it rejects the delivery.
    const far = platformAccountSettings('Far Away Fleet');
    far.serviceArea = {
      type: 'Polygon',
      coordinates: [
        [
          [2.3, 48.8],
          [2.4, 48.8],
          [2.4, 48.9],
          [2.3, 48.9],
          [2.3, 48.8],
        ],
      ],
    };
    const account = await admin('POST', '/admin/v1/platform-accounts', far);
    const key = await admin('POST', `/admin/v1/platform-accounts/${account.account.id}/api-keys`);
    const connected = await tenant.call('POST', '/api/tenant/v1/provider-connections', {
      name: 'Far Away Fleet',
      baseUrl: `${providerUrl}/v1`,
      apiKey: key.apiKey,
      signingSecret: account.webhookSecret,
      contract: { version: '1.1.0', revision: '2026-09-19' },
    });
    expect(connected.status).toBe(201);
    const enabled = await gw!.admin.call(
      'POST',
      `/api/admin/v1/provider-connections/${connected.body.connectionId}/capabilities`,
      { capability: 'core', enabled: true, reason: 'a provider that rejects, for the rescue journey' },
    );
    expect(enabled.status).toBe(200);
    const rules = await tenant.call('PUT', '/api/tenant/v1/dispatch-rules', {
      connections: [connected.body.installationId, fixture.providerConnection.installationId],
      rescue: { enabled: true, withinMinutes: 30 },
    });
    expect(rules.status).toBe(200);

    const order = await placeDemoOrder(gw!, fixture);
    expect(order.status).toBe(201);
    const orderId: string = order.body.orderId;
    expect((await tenant.call('POST', `/api/tenant/v1/orders/${orderId}/accept`)).status).toBe(200);
    const dispatched = await tenant.call('POST', `/api/tenant/v1/deliveries/${orderId}/dispatch`);
    expect(dispatched.status).toBe(201);
    expect(dispatched.body.appInstallationId).toBe(connected.body.installationId);
    await waitFor(
      'the rescued delivery Delivered by Demo Fleet',
      async () => {
        const live = (await tenant.call('GET', `/api/tenant/v1/deliveries/${orderId}`)).body.live;
        return live?.appInstallationId === fixture.providerConnection.installationId && live.statusName === 'Delivered';
      },
      180_000,
      250,
    );
    const view = (await tenant.call('GET', `/api/tenant/v1/deliveries/${orderId}/dispatch`)).body;
    expect(view.plan.log.map((l: { decision: string }) => l.decision)).toEqual(['chosen', 'rescued']);
    expect(view.dispatches.map((d: { providerStatus: string | null }) => d.providerStatus)).toEqual([
      null,
      'delivered',
    ]);
    expect(view.dispatches[0].log.map((l: { decision: string }) => l.decision)).toContain('rejected');
    console.log(
      `fresh cluster, rescue: ${view.plan.log.map((l: { decision: string; reason: string }) => `${l.decision} (${l.reason})`).join(' → ')}`,
    );
  }, 300_000);
});
