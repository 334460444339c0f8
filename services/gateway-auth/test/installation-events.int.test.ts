import { createKafka, kafkaConnectionFromEnv } from '@marketplace/events';
import { openWebhookSecret } from '@marketplace/identity';
import {
  connectedApp,
  localEnv,
  quietLogger,
  readTopic,
  stackEnv,
  startGateway,
  waitFor,
  type RawTopicReader,
  type TestGateway,
} from '@marketplace/testing';

// The gateway tells the webhook sender about installations on the `installations` topic: a whole
// snapshot per change, the signing secret sealed for the sender alone.
let gw: TestGateway;
let topic: RawTopicReader;

beforeAll(async () => {
  gw = await startGateway();
  topic = await readTopic(
    createKafka({
      connection: kafkaConnectionFromEnv(stackEnv()),
      clientId: 'installation-events-it',
      logger: quietLogger(),
    }),
    'installations',
  );
}, 60_000);

afterAll(async () => {
  await topic?.stop();
  await gw?.stop();
});

const transportKey = () => Buffer.from(localEnv().WEBHOOK_SECRET_TRANSPORT_KEY!, 'base64');
const eventsOf = (installationId: string) =>
  topic.messages
    .filter((m) => m.key?.toString() === installationId)
    .map((m) => ({
      type: m.headers!['event-type']!.toString(),
      raw: m.value!.toString('latin1'),
      data: JSON.parse(m.value!.subarray(5).toString()),
    }));

it('publishes connect, rotation, disconnect and uninstall, with the secret sealed and a growing revision', async () => {
  const app = await connectedApp(gw, ['Orders.Create'], ['orders.created', 'orders.cancelled']);
  const id = app.installationId;
  const rotated = await app.tenant.call('POST', `/api/tenant/v1/installations/${id}/webhook-secret/rotate`);
  expect(rotated.status).toBe(200);
  expect((await app.tenant.call('POST', `/api/tenant/v1/installations/${id}/disconnect`)).status).toBe(200);
  expect((await app.tenant.call('DELETE', `/api/tenant/v1/installations/${id}`)).status).toBe(204);

  const events = await waitFor(
    'four installation events on the topic',
    () => (eventsOf(id).length >= 4 ? eventsOf(id) : undefined),
    20_000,
  );
  expect(events.map((e) => e.type)).toEqual(Array(4).fill('installation.changed'));
  expect(events.map((e) => [e.data.status, e.data.connected, e.data.revision])).toEqual([
    ['Connected', true, 1],
    ['Connected', true, 2],
    ['Disconnected', false, 3],
    ['Uninstalled', false, 4],
  ]);
  // The granted scopes, as fixed at connect; a disconnect keeps them (with connected false), an
  // uninstall clears them.
  expect(events.map((e) => e.data.scopes)).toEqual([['Orders.Create'], ['Orders.Create'], ['Orders.Create'], []]);
  const [connected, rotation, disconnected, uninstalled] = events;
  expect(connected!.data).toMatchObject({
    installationId: id,
    tenantId: app.tenantId,
    appId: app.appId,
    webhookUrl: 'https://partner.example.com/webhooks',
    subscribedEvents: ['orders.created', 'orders.cancelled'],
    scopes: ['Orders.Create'],
  });
  // The secret the tenant was shown, readable only with the transport key and only for this installation.
  expect(openWebhookSecret(transportKey(), id, connected!.data.webhookSecretSealed)).toBe(app.webhookSecret);
  expect(openWebhookSecret(transportKey(), id, rotation!.data.webhookSecretSealed)).toBe(
    rotated.body.credentials.webhookSigningSecret,
  );
  expect(() => openWebhookSecret(transportKey(), app.tenantId, connected!.data.webhookSecretSealed)).toThrow();
  // The rotation carries the secret it replaced, sealed the same way, signing beside the new one for
  // the overlap (24 hours from the rotation); no other event carries one.
  expect(openWebhookSecret(transportKey(), id, rotation!.data.previousWebhookSecretSealed)).toBe(app.webhookSecret);
  const overlapMs = Date.parse(rotation!.data.previousWebhookSecretExpiresAt) - Date.parse(rotation!.data.changedAt);
  expect(overlapMs).toBe(24 * 60 * 60 * 1000);
  for (const other of [connected, disconnected, uninstalled]) {
    expect(other!.data).not.toHaveProperty('previousWebhookSecretSealed');
    expect(other!.data).not.toHaveProperty('previousWebhookSecretExpiresAt');
  }
  for (const event of events) {
    expect(event.raw).not.toContain('whsec_');
  }
  expect(disconnected!.data.webhookSecretSealed).toBeNull();
  expect(uninstalled!.data.webhookSecretSealed).toBeNull();
});

it('publishes nothing for an API-key rotation, which does not concern deliveries', async () => {
  const app = await connectedApp(gw, ['Orders.Create'], ['orders.created']);
  await waitFor('the connect event', () => eventsOf(app.installationId).length === 1, 20_000);
  expect(
    (await app.tenant.call('POST', `/api/tenant/v1/installations/${app.installationId}/api-key/rotate`)).status,
  ).toBe(200);
  expect((await app.tenant.call('POST', `/api/tenant/v1/installations/${app.installationId}/disconnect`)).status).toBe(
    200,
  );
  await waitFor('the disconnect event', () => eventsOf(app.installationId).length === 2, 20_000);
  expect(eventsOf(app.installationId).map((e) => e.data.revision)).toEqual([1, 2]);
});
