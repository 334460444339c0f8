import { waitFor, startReceiver, type Receiver } from '@marketplace/testing';
import { startWebhookCluster, type WebhookCluster } from './support/cluster';
import { connectedSource } from './support/partner';

// The sender as deployed (ALLOW_LOOPBACK_HTTP_URLS unset), behind a gateway that lets a test
// register a loopback webhook URL: the sender itself refuses to connect.
let cluster: WebhookCluster;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  cluster = await startWebhookCluster({ ALLOW_LOOPBACK_HTTP_URLS: 'false' });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
});

it.each([
  ['a host name resolving to loopback', (port: string) => `https://localhost:${port}/hook`],
  ['a loopback address', (port: string) => `https://127.0.0.1:${port}/hook`],
  ['plain http', (port: string) => `http://127.0.0.1:${port}/hook`],
])('refuses %s: no request leaves, the delivery fails for good', async (_name, url) => {
  const port = new URL(receiver.url).port;
  const s = await connectedSource(cluster, url(port), ['orders.created']);
  await s.order();
  const list = await waitFor('the failed delivery', async () => {
    const res = await s.webhooks('GET', `/installations/${s.installationId}/deliveries`);
    return res.body.length === 1 && res.body[0].status === 'failed' ? res.body : undefined;
  });
  expect(list[0].attempts).toEqual([
    expect.objectContaining({ statusCode: null, errorClass: 'refused_address', verdict: 'permanent' }),
  ]);
  expect(receiver.received).toEqual([]);
});
