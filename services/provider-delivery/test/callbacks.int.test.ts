import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  findSecrets,
  freePort,
  sleep,
  startReceiver,
  startServiceProcess,
  waitFor,
  type Received,
  type Receiver,
  type ServiceProcess,
} from '@marketplace/testing';
import { ALL_EVENT_TYPES, createRequest, ProviderUnderTest, type TestAccount } from './support/provider';

// A delivery's events travel from provider-delivery through `provider-events` and the webhook
// sender to the platform's callback (a real HTTP receiver here): signed over the raw bytes, in a
// legal order, retried on 5xx, not retried on 400, and never a nonterminal event
// once a terminal one was sent.

jest.setTimeout(180_000);

let provider: ProviderUnderTest;
let sender: ServiceProcess;
let receiver: Receiver;
let account: TestAccount;

beforeAll(async () => {
  const suffix = randomBytes(4).toString('hex');
  // Every webhook sender on the local stack reads provider-events (another test's, a running
  // `npm start`): a transport key of this test's own means only its sender can open its callbacks.
  const transport = { WEBHOOK_SECRET_TRANSPORT_KEY: randomBytes(32).toString('base64') };
  [provider, receiver] = await Promise.all([ProviderUnderTest.start(transport), startReceiver()]);
  sender = await startServiceProcess(
    'webhook-sender',
    await freePort(),
    {
      MONGO_DATABASE: `it_whp_${suffix}`,
      KAFKA_CONSUMER_GROUP_PREFIX: `it-webhooks-provider-${suffix}`,
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
      INSTALLATIONS_COPY_START: 'latest',
      // 30 s of backoff becomes 300 ms: the whole schedule of 8 attempts in about 21 seconds.
      WEBHOOK_RETRY_TIME_SCALE: '100',
      WEBHOOK_RESPONSE_TIMEOUT_MS: '1500',
      ...transport,
    },
    90_000,
  );
  // Opted in to our own event types: the journeys below include arrival at pickup, on the way and returns.
  account = await provider.account({ webhookUrl: `${receiver.url}/global/tok_global`, eventTypes: ALL_EVENT_TYPES });
  // A new sender joins the attempt topics at their beginning and reads past the attempts of every
  // earlier sender on the stack before its first own one: wait for that once, here.
  await create(account, { webhook: { url: `${receiver.url}/warm-up` } });
  await waitFor('the first callback of a new sender', () => receiver.at('/warm-up').length > 0, 200_000, 250);
}, 300_000);

afterAll(async () => {
  await Promise.all([provider?.stop(), sender?.stop()]);
  await receiver?.close();
});

/** The platform's check, written apart from the sender's: HMAC-SHA256 of the raw bytes, lowercase hex. */
function signedBy(request: Received, secret: string): boolean {
  const signature = String(request.headers['x-platform-signature'] ?? '');
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(request.body).digest(), Buffer.from(signature, 'hex'));
}
const events = (path: string) => receiver.at(path).map((r) => JSON.parse(r.body.toString('utf8')));
const typesAt = (path: string) => events(path).map((e) => e.eventType as string);

async function create(a: TestAccount, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await a.call('POST', '/deliveries', createRequest(overrides));
  expect(res.body.accepted).toBe(true);
  return res.body.providerDeliveryId;
}
async function report(a: TestAccount, id: string, eventType: string, extra: Record<string, unknown> = {}) {
  const res = await provider.report(a.id, id, { eventType, ...extra });
  expect([eventType, res.status]).toEqual([eventType, 200]);
}

it('sends delivery.accepted to the per-delivery callback, signed over the exact bytes', async () => {
  const path = '/cb/tok_accept';
  const request = createRequest({ webhook: { url: `${receiver.url}${path}` } });
  const created = await account.call('POST', '/deliveries', request);
  await waitFor('delivery.accepted at the callback', () => receiver.at(path).length === 1, 60_000);
  const [got] = receiver.at(path);
  expect(signedBy(got!, account.webhookSecret)).toBe(true);
  expect(got!.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(got!.body.toString('utf8'))).toEqual({
    eventType: 'delivery.accepted',
    platformReference: request.platformReference,
    providerDeliveryId: created.body.providerDeliveryId,
    status: 'provider_accepted',
    eventTimeUtc: expect.any(String),
    driverName: null,
    driverPhone: null,
    driverLat: null,
    driverLng: null,
    trackingUrl: null,
    estimatedDeliveryAtUtc: null,
  });
  const status = await account.call('GET', `/deliveries/${created.body.providerDeliveryId}/status`);
  expect(status.body.eventTimeUtc).toBe(JSON.parse(got!.body.toString('utf8')).eventTimeUtc);
});

it('uses the global URL without webhook.url, and pushes nothing without any', async () => {
  const before = receiver.at('/global/tok_global').length;
  const id = await create(account);
  await waitFor(
    'the event at the global URL',
    () => events('/global/tok_global').some((e) => e.providerDeliveryId === id),
    60_000,
  );
  expect(receiver.at('/global/tok_global').length).toBe(before + 1);

  const silent = await provider.account({ webhookUrl: null });
  const quietId = await create(silent);
  await report(silent, quietId, 'driver.assigned', { driverName: 'Q' });
  await sleep(1_500);
  expect(receiver.received.some((r) => r.body.toString('utf8').includes(quietId))).toBe(false);
});

it('runs a delivery to delivered: every event in a legal order, nothing after the terminal one', async () => {
  const path = '/cb/tok_journey';
  // A slow platform: the sender holds at most 4 attempts to it at once, so most of the burst waits
  // behind them while the terminal event is already in. Every event still arrives, the terminal last.
  receiver.respond = (req) => (req.path === path ? { status: 200, delayMs: 300 } : 200);
  const id = await create(account, { webhook: { url: `${receiver.url}${path}` } });
  await report(account, id, 'driver.assigned', { driverName: 'Dana Driver', driverPhone: '+49 170 1' });
  await report(account, id, 'driver.location_updated', { driverLat: 52.53, driverLng: 13.4 });
  await report(account, id, 'eta.updated', { estimatedDeliveryAtUtc: '2030-01-01T10:30:00Z' });
  await report(account, id, 'driver.arrived_at_pickup');
  await report(account, id, 'delivery.picked_up');
  await report(account, id, 'delivery.on_the_way');
  await report(account, id, 'delivery.delivered');
  const expected = [
    'delivery.accepted',
    'driver.assigned',
    'driver.location_updated',
    'eta.updated',
    'driver.arrived_at_pickup',
    'delivery.picked_up',
    'delivery.on_the_way',
    'delivery.delivered',
  ];
  await waitFor('the journey’s eight events', () => receiver.at(path).length >= expected.length, 60_000);
  expect(JSON.parse(receiver.at(path).at(-1)!.body.toString('utf8')).eventType).toBe('delivery.delivered');
  const got = events(path).sort((a, b) => a.eventTimeUtc.localeCompare(b.eventTimeUtc));
  expect(got.map((e) => e.eventType)).toEqual(expected);
  expect(got.map((e) => e.status)).toEqual([
    'provider_accepted',
    'driver_assigned',
    'driver_assigned',
    'driver_assigned',
    'arrived_at_pickup',
    'picked_up',
    'on_the_way',
    'delivered',
  ]);
  expect(got[3]).toMatchObject({
    driverName: 'Dana Driver',
    driverLat: 52.53,
    estimatedDeliveryAtUtc: '2030-01-01T10:30:00.000Z',
  });
  for (const r of receiver.at(path)) expect(signedBy(r, account.webhookSecret)).toBe(true);
});

it('sends only the spec’s table to an account on the default, and our own types once it opts in', async () => {
  const path = '/cb/tok_default';
  const optedPath = '/cb/tok_opted';
  receiver.respond = () => 200;
  const plain = await provider.account();
  const plainView = await provider.admin('GET', `/platform-accounts/${plain.id}`);
  expect(plainView.body.eventTypes).toEqual([
    'delivery.accepted',
    'driver.assigned',
    'driver.location_updated',
    'eta.updated',
    'tracking.updated',
    'delivery.picked_up',
    'delivery.delivered',
    'delivery.cancelled',
    'delivery.failed',
  ]);
  const run = async (a: TestAccount, url: string) => {
    const id = await create(a, { webhook: { url } });
    await report(a, id, 'driver.assigned', { driverName: 'Dana' });
    await report(a, id, 'driver.arrived_at_pickup');
    await report(a, id, 'delivery.picked_up');
    await report(a, id, 'delivery.on_the_way');
    await report(a, id, 'delivery.delivered');
    return id;
  };
  const id = await run(plain, `${receiver.url}${path}`);
  await waitFor('the default account’s delivered event', () => typesAt(path).includes('delivery.delivered'), 60_000);
  const got = events(path).sort((a, b) => a.eventTimeUtc.localeCompare(b.eventTimeUtc));
  expect(got.map((e) => e.eventType)).toEqual([
    'delivery.accepted',
    'driver.assigned',
    'delivery.picked_up',
    'delivery.delivered',
  ]);
  // The status moved all the same: the read shows it, and the next event sent carries it.
  expect((await plain.call('GET', `/deliveries/${id}/status`)).body.status).toBe('delivered');

  const opted = await provider.admin('PATCH', `/platform-accounts/${plain.id}`, {
    eventTypes: ['driver.arrived_at_pickup', 'delivery.accepted', 'delivery.delivered', 'driver.assigned'],
  });
  expect(opted.body.eventTypes).toEqual([
    'delivery.accepted',
    'driver.assigned',
    'delivery.delivered',
    'driver.arrived_at_pickup',
  ]);
  await run(plain, `${receiver.url}${optedPath}`);
  await waitFor('the opted-in delivered event', () => typesAt(optedPath).includes('delivery.delivered'), 60_000);
  expect(
    events(optedPath)
      .sort((a, b) => a.eventTimeUtc.localeCompare(b.eventTimeUtc))
      .map((e) => e.eventType),
  ).toEqual(['delivery.accepted', 'driver.assigned', 'driver.arrived_at_pickup', 'delivery.delivered']);
});

it('retries 503 with the same bytes and signature; does not retry 400', async () => {
  const retried = '/cb/tok_retry';
  const refused = '/cb/tok_refused';
  receiver.respond = (req, nth) => (req.path === retried ? (nth < 3 ? 503 : 200) : req.path === refused ? 400 : 200);
  await create(account, { webhook: { url: `${receiver.url}${retried}` } });
  await create(account, { webhook: { url: `${receiver.url}${refused}` } });
  await waitFor('three attempts of the retried event', () => receiver.at(retried).length >= 3, 60_000);
  const attempts = receiver.at(retried);
  expect(new Set(attempts.map((a) => a.body.toString('base64'))).size).toBe(1);
  expect(new Set(attempts.map((a) => a.headers['x-platform-signature'])).size).toBe(1);
  await sleep(2_000);
  expect(receiver.at(retried)).toHaveLength(3);
  expect(receiver.at(refused)).toHaveLength(1);
});

it('sends no nonterminal event of a delivery after its terminal one', async () => {
  const path = '/cb/tok_terminal';
  // The callback fails every location update, so its retries would outlive the cancellation.
  receiver.respond = (req) =>
    req.path === path && JSON.parse(req.body.toString('utf8')).eventType === 'driver.location_updated' ? 503 : 200;
  const id = await create(account, { webhook: { url: `${receiver.url}${path}` } });
  await report(account, id, 'driver.assigned', { driverName: 'Dana' });
  await report(account, id, 'driver.location_updated', { driverLat: 52.5, driverLng: 13.4 });
  await waitFor('a first location attempt', () => typesAt(path).includes('driver.location_updated'), 60_000);
  expect((await account.call('POST', `/deliveries/${id}/cancel`, { stage: 'before_pickup' })).body.confirmed).toBe(
    true,
  );
  await waitFor('delivery.cancelled', () => typesAt(path).includes('delivery.cancelled'), 60_000);
  const terminalAt = receiver.at(path).findIndex((r) => r.body.toString('utf8').includes('delivery.cancelled'));
  await sleep(3_000); // the location event's schedule, scaled, would have retried several times by now
  const after = events(path).slice(terminalAt + 1);
  expect(after.filter((e) => e.status !== 'cancelled')).toEqual([]);
});

it('moves a return through its events to returned_to_origin', async () => {
  const path = '/cb/tok_return';
  receiver.respond = () => 200;
  const id = await create(account, { webhook: { url: `${receiver.url}${path}` } });
  await report(account, id, 'driver.assigned', { driverName: 'Dana' });
  await report(account, id, 'delivery.picked_up');
  expect(
    (await account.call('POST', `/deliveries/${id}/return`, { reasonCode: 'customer_absent' })).body.accepted,
  ).toBe(true);
  await report(account, id, 'delivery.returning_to_origin');
  await report(account, id, 'delivery.returned_to_origin');
  await waitFor('the return’s end', () => typesAt(path).includes('delivery.returned_to_origin'), 60_000);
  const got = events(path).sort((a, b) => a.eventTimeUtc.localeCompare(b.eventTimeUtc));
  expect(got.slice(-3).map((e) => e.status)).toEqual(['return_requested', 'returning_to_origin', 'returned_to_origin']);
});

it('signs with the new secret once the account’s secret is rotated', async () => {
  const path = '/cb/tok_rotation';
  const rotated = await provider.admin('POST', `/platform-accounts/${account.id}/webhook-secret/rotate`);
  expect(rotated.status).toBe(200);
  await create(account, { webhook: { url: `${receiver.url}${path}` } });
  await waitFor('the event after the rotation', () => receiver.at(path).length === 1, 60_000);
  expect(signedBy(receiver.at(path)[0]!, rotated.body.webhookSecret)).toBe(true);
  account.webhookSecret = rotated.body.webhookSecret;
});

it('never logs a key, a secret or a callback token, in either process', () => {
  for (const output of [provider.process.output(), sender.output()]) {
    expect(findSecrets(output)).toEqual([]);
    expect(output).not.toMatch(/tok_[a-z]+/);
  }
});
