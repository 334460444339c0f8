import { randomUUID } from 'node:crypto';
import {
  createKafka,
  EventPublisher,
  EventSchemas,
  loadTopicCatalog,
  SchemaValidator,
  type OutgoingEvent,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
} from '@marketplace/events';
import {
  publishApp,
  quietLogger,
  sleep,
  stackEnv,
  startReceiver,
  verifySignature,
  waitFor,
  type Receiver,
} from '@marketplace/testing';
import { startWebhookCluster, type WebhookCluster } from './support/cluster';
import { connectedSource } from './support/partner';

// Nothing is lost when the sender stops in the middle of a retry wait, and an event Kafka delivers
// twice is sent once per installation.
let cluster: WebhookCluster;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  // Four attempts at once, two per installation: small enough for the fairness test to tell.
  cluster = await startWebhookCluster({
    WEBHOOK_CONCURRENCY: '4',
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
    WEBHOOK_RESPONSE_TIMEOUT_MS: '3000',
  });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
});

it('a restart of the sender during a retry wait loses nothing: the next attempt comes after it', async () => {
  const s = await connectedSource(cluster, `${receiver.url}/restart`, ['orders.created']);
  let healthy = false;
  receiver.respond = () => (healthy ? 200 : 503);
  await s.order();
  // Attempt 6 fails; attempt 7 is due 486 minutes later, scaled: about 2.9 s.
  const sixth = await waitFor(
    'six attempts',
    () => (receiver.at('/restart').length >= 6 ? receiver.at('/restart')[5] : undefined),
    20_000,
  );
  await cluster.stopSender();
  const stoppedAt = Date.now();
  healthy = true;
  await sleep(Math.max(0, sixth.at + 3_500 - Date.now())); // past the due time, while stopped
  expect(receiver.at('/restart')).toHaveLength(6);
  await cluster.startSender();
  const seventh = await waitFor('the seventh attempt', () => receiver.at('/restart')[6], 20_000);
  expect(seventh.at).toBeGreaterThan(stoppedAt);
  expect(seventh.headers['x-marketplace-event-id']).toBe(sixth.headers['x-marketplace-event-id']);
  expect(verifySignature(seventh, s.secret)).toBe(true);
  const id = seventh.headers['x-marketplace-event-id'] as string;
  const delivery = await waitFor('delivered', async () => {
    const d = (await s.webhooks('GET', `/deliveries/${id}`)).body;
    return d.status === 'delivered' ? d : undefined;
  });
  expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 503, 503, 503, 200]);
  await sleep(500);
  expect(receiver.at('/restart')).toHaveLength(7);
}, 60_000);

it('an event published twice (same event id) is delivered once per installation', async () => {
  const s = await connectedSource(cluster, `${receiver.url}/duplicate`, ['orders.created']);
  receiver.respond = () => 200;
  const catalog = loadTopicCatalog();
  const kafka = createKafka({
    connection: kafkaConnectionFromEnv(stackEnv()),
    clientId: 'duplicate-it',
    logger: quietLogger(),
  });
  const publisher = new EventPublisher(
    kafka,
    catalog,
    new EventSchemas(registryConnectionFromEnv(stackEnv()), catalog),
    new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])),
    'duplicate-it',
  );
  await publisher.connect();
  const orderId = randomUUID();
  const event: OutgoingEvent = {
    topic: 'orders',
    key: orderId,
    type: 'orders.created',
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    data: {
      tenantId: s.tenantId,
      orderId,
      orderNumber: '9001',
      status: 'Pending',
      sourceInstallationId: s.installationId,
      externalOrderId: 'dup-1',
      branchId: s.menu.branchId,
      orderMode: 2,
      paymentMethod: 1,
      paymentStatus: 'Unpaid',
      currencyCode: 'EUR',
      subtotalMinor: 100,
      discountMinor: 0,
      taxTotalMinor: 0,
      deliveryFeeMinor: 0,
      serviceFeeMinor: 0,
      grandTotalMinor: 100,
      createdAt: new Date().toISOString(),
    },
  };
  try {
    await publisher.publish([event]);
    await publisher.publish([event]);
  } finally {
    await publisher.disconnect();
  }
  await waitFor('the delivery', () => receiver.at('/duplicate').length >= 1 || undefined);
  await sleep(1500);
  expect(receiver.at('/duplicate').map((r) => JSON.parse(r.body.toString()).data.orderId)).toEqual([orderId]);
});

it('a receiver that never answers does not hold up deliveries to the others (bounded per installation)', async () => {
  const slow = await connectedSource(cluster, `${receiver.url}/slow`, ['orders.created']);
  const fast = await connectedSource(cluster, `${receiver.url}/fast`, ['orders.created'], {
    tenantId: slow.tenantId,
    tenant: slow.tenant,
    menu: slow.menu,
  });
  receiver.respond = (req) => (req.path === '/slow' ? 'hang' : 200);
  // Eight test events to the slow endpoint, each held 3 s (the response timeout). With 4 slots
  // in all and 2 per installation it never holds more than 2: the other 2 stay free. (With no
  // per-installation bound it would hold all 4, and the next delivery anywhere would wait for one
  // of them to time out.)
  for (let i = 0; i < 8; i++)
    expect((await slow.webhooks('POST', `/installations/${slow.installationId}/test`)).status).toBe(202);
  await waitFor('the slow endpoint holding its attempts', () => receiver.at('/slow').length >= 4 || undefined, 20_000);
  const started = Date.now();
  await slow.order(); // goes to both
  await waitFor('the order at the fast endpoint', () => receiver.at('/fast').length >= 1 || undefined, 20_000);
  const waited = Date.now() - started;
  receiver.respond = () => 200;
  expect(waited).toBeLessThan(2_000); // not a timeout's wait (3 s)
  expect(verifySignature(receiver.at('/fast')[0]!, fast.secret)).toBe(true);
}, 60_000);

it('after an outage, an order is matched against the installations as they were when it was placed', async () => {
  const first = await connectedSource(cluster, `${receiver.url}/outage-first`, ['orders.created']);
  receiver.respond = () => 200;
  await cluster.stopSender();
  // While the sender is down: a second installation is connected, then an order is placed.
  const { appId, version } = await publishApp(cluster.gateway, ['Orders.Create'], ['orders.created'], {
    webhookUrl: `${receiver.url}/outage-second`,
  });
  const installed = await first.tenant.call('POST', '/api/tenant/v1/installations', {
    appId,
    contractVersion: version,
  });
  const connected = await first.tenant.call('POST', `/api/tenant/v1/installations/${installed.body.id}/connect`);
  expect(connected.status).toBe(200);
  const order = await first.order();
  await cluster.startSender();
  const got = await waitFor(
    'the order at the installation connected during the outage',
    () => receiver.at('/outage-second')[0],
    30_000,
  );
  expect(JSON.parse(got.body.toString()).data.orderId).toBe(order.orderId);
  expect(verifySignature(got, connected.body.credentials.webhookSigningSecret)).toBe(true);
  await waitFor('the order at the first installation', () => receiver.at('/outage-first')[0], 30_000);
}, 90_000);
