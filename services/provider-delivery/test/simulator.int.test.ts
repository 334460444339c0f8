import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PROVIDER_TRANSITIONS, type ProviderStatusName } from '@marketplace/contracts';
import {
  freePort,
  startReceiver,
  startServiceProcess,
  waitFor,
  type Received,
  type Receiver,
  type ServiceProcess,
} from '@marketplace/testing';
import { ALL_EVENT_TYPES, createRequest, ProviderUnderTest, type TestAccount } from './support/provider';

// The whole lifecycle with nobody at the wheel: deliveries created through the contract are
// dispatched to the courier simulator's drivers (clients of the courier API), which ride on a
// clock 60 times faster than real time, and every event reaches the platform's callback (a real
// receiver) through provider-events and the webhook sender: signed, in a legal order, nothing
// after the terminal one. The same for a failure at the door and for a return the platform asks for.

jest.setTimeout(240_000);

let provider: ProviderUnderTest;
let sender: ServiceProcess;
let receiver: Receiver;
let account: TestAccount;

beforeAll(async () => {
  const suffix = randomBytes(4).toString('hex');
  const transport = { WEBHOOK_SECRET_TRANSPORT_KEY: randomBytes(32).toString('base64') };
  [provider, receiver] = await Promise.all([
    ProviderUnderTest.start({ ...transport, SIMULATOR_ENABLED: 'true' }),
    startReceiver(),
  ]);
  sender = await startServiceProcess(
    'webhook-sender',
    await freePort(),
    {
      MONGO_DATABASE: `it_whs_${suffix}`,
      KAFKA_CONSUMER_GROUP_PREFIX: `it-webhooks-simulator-${suffix}`,
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
      INSTALLATIONS_COPY_START: 'latest',
      ...transport,
    },
    90_000,
  );
  // Opted in to our own event types: the journeys below follow arrival at pickup, on the way and returns.
  account = await provider.account({
    simulator: { enabled: true, drivers: 4, timeScale: 60 },
    eventTypes: ALL_EVENT_TYPES,
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([provider?.stop(), sender?.stop()]);
  await receiver?.close();
});

const UPDATES = ['driver.location_updated', 'eta.updated', 'tracking.updated'];
const signedBy = (r: Received, secret: string) => {
  const signature = String(r.headers['x-platform-signature'] ?? '');
  return (
    /^[0-9a-f]{64}$/.test(signature) &&
    timingSafeEqual(createHmac('sha256', secret).update(r.body).digest(), Buffer.from(signature, 'hex'))
  );
};
/** The distinct events at the path (at least once: one may come twice, the same bytes), in event time. */
const events = (path: string) =>
  [...new Set(receiver.at(path).map((r) => r.body.toString('utf8')))]
    .map((body) => JSON.parse(body))
    .sort((a, b) => a.eventTimeUtc.localeCompare(b.eventTimeUtc));

async function create(path: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await account.call(
    'POST',
    '/deliveries',
    createRequest({ webhook: { url: `${receiver.url}${path}` }, preparationTimeMinutes: 10, ...overrides }),
  );
  expect(res.body).toMatchObject({ accepted: true });
  return res.body.providerDeliveryId;
}

/** Waits for the terminal event at the callback, then checks the whole sequence. */
async function journey(path: string, terminal: string): Promise<Record<string, any>[]> {
  await waitFor(`${terminal} at ${path}`, () => events(path).some((e) => e.eventType === terminal), 120_000, 100);
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // anything late would show now
  const got = events(path);
  for (const r of receiver.at(path)) expect(signedBy(r, account.webhookSecret)).toBe(true);
  // Legal moves only, in event time; the terminal event last; news only in a nonterminal status.
  const statuses = got.filter((e) => !UPDATES.includes(e.eventType)).map((e) => e.status as ProviderStatusName);
  for (let i = 1; i < statuses.length; i++)
    expect([statuses[i - 1], statuses[i], PROVIDER_TRANSITIONS[statuses[i - 1]!].includes(statuses[i]!)]).toEqual([
      statuses[i - 1],
      statuses[i],
      true,
    ]);
  expect(got.at(-1)!.eventType).toBe(terminal);
  return got;
}

it('runs a delivery to delivered: every event pushed, signed, in a legal order, nothing after delivered', async () => {
  const path = '/sim/delivered';
  const id = await create(path);
  const got = await journey(path, 'delivery.delivered');
  expect(got.map((e) => e.eventType).filter((t) => !UPDATES.includes(t))).toEqual([
    'delivery.accepted',
    'driver.assigned',
    'driver.arrived_at_pickup',
    'delivery.picked_up',
    'delivery.on_the_way',
    'delivery.delivered',
  ]);
  expect(got.some((e) => e.eventType === 'driver.location_updated')).toBe(true);
  expect(got.some((e) => e.eventType === 'eta.updated')).toBe(true);
  const assigned = got.find((e) => e.eventType === 'driver.assigned')!;
  expect(assigned).toMatchObject({ providerDeliveryId: id, driverName: expect.any(String) });
  expect(assigned.trackingUrl).toMatch(/\/track\/trk_/);
  // Nothing personal of the driver once delivered.
  expect(got.at(-1)).toMatchObject({ driverName: null, driverPhone: null, driverLat: null });
});

it('runs a failure at the door (notes sim:fail) to delivery.failed, with its reason for operators', async () => {
  const path = '/sim/failed';
  const id = await create(path, { notes: 'sim:fail' });
  const got = await journey(path, 'delivery.failed');
  expect(got.map((e) => e.eventType)).toContain('delivery.on_the_way');
  const view = await provider.admin('GET', `/platform-accounts/${account.id}/deliveries/${id}`);
  expect(view.body).toMatchObject({ status: 'failed', failureReason: 'customer_unreachable' });
});

it('runs a return the platform asks for to returned_to_origin', async () => {
  const path = '/sim/return';
  const id = await create(path);
  await waitFor(
    'the food on its way',
    () => events(path).some((e) => e.eventType === 'delivery.picked_up'),
    120_000,
    50,
  );
  const asked = await account.call('POST', `/deliveries/${id}/return`, { reasonCode: 'customer_unreachable' });
  expect(asked.status).toBe(200);
  const got = await journey(path, 'delivery.returned_to_origin');
  const steps = got.map((e) => e.eventType).filter((t) => t.startsWith('delivery.return'));
  expect(steps).toEqual(['delivery.return_requested', 'delivery.returning_to_origin', 'delivery.returned_to_origin']);
  expect(got.some((e) => e.eventType === 'delivery.delivered')).toBe(false);
});
