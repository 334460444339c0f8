import { randomUUID } from 'node:crypto';
import { createKafka, EventPublisher, EventSchemas, loadTopicCatalog, SchemaValidator } from '@marketplace/events';
import { quietLogger, sleep, stackEnv, waitFor } from '@marketplace/testing';
import { startReceiver, type Receiver } from './support/receiver';
import { startWebhookCluster, verifySignature, type WebhookCluster } from './support/cluster';
import { connectedSource } from './support/partner';

// Nothing is lost when the sender stops in the middle of a retry wait, and an event Kafka delivers
// twice is sent once per installation.
let cluster: WebhookCluster;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  cluster = await startWebhookCluster();
});
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
  const sixth = await waitFor('six attempts', () => (receiver.at('/restart').length >= 6 ? receiver.at('/restart')[5] : undefined), 20_000);
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
  const kafka = createKafka({ brokers: stackEnv().KAFKA_BROKERS.split(','), clientId: 'duplicate-it', logger: quietLogger() });
  const publisher = new EventPublisher(kafka, catalog, new EventSchemas(stackEnv().SCHEMA_REGISTRY_URL, catalog), new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])), 'duplicate-it');
  await publisher.connect();
  const orderId = randomUUID();
  const event = {
    topic: 'orders',
    key: orderId,
    type: 'orders.created',
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    data: { tenantId: s.tenantId, orderId, orderNumber: '9001', status: 'Pending', sourceInstallationId: s.installationId, externalOrderId: 'dup-1', branchId: s.menu.branchId, orderMode: 2, paymentMethod: 1, paymentStatus: 'Unpaid', currencyCode: 'EUR', subtotalMinor: 100, discountMinor: 0, taxTotalMinor: 0, deliveryFeeMinor: 0, serviceFeeMinor: 0, grandTotalMinor: 100, createdAt: new Date().toISOString() },
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
