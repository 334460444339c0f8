import { randomUUID } from 'node:crypto';
import { sleep, waitFor } from '@marketplace/testing';
import { createRequest, ProviderUnderTest, type TestAccount, type TestDriver } from './support/provider';

// Drivers, dispatch and the courier API against the running service: a driver app (this test)
// takes offers and moves deliveries through the contract's statuses. The accounts run on a faster
// clock (the simulator's timeScale, with no simulator in this process), so that offers run out and
// the dispatch window closes in about a second.

jest.setTimeout(120_000);

let provider: ProviderUnderTest;
/** Every courier token issued here: none may reach the log. */
const tokens: string[] = [];

beforeAll(async () => {
  provider = await ProviderUnderTest.start();
}, 90_000);

afterAll(async () => {
  await provider?.stop();
});

/** An account on a clock `timeScale` times faster (no simulated driver: the test drives). */
const fastAccount = (timeScale: number) => provider.account({ simulator: { enabled: true, drivers: 0, timeScale } });

async function create(account: TestAccount, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await account.call('POST', '/deliveries', createRequest({ preparationTimeMinutes: 1, ...overrides }));
  expect(res.body).toMatchObject({ accepted: true });
  return res.body.providerDeliveryId;
}

const operatorView = async (account: TestAccount, id: string) =>
  (await provider.admin('GET', `/platform-accounts/${account.id}/deliveries/${id}`)).body;

/** Waits for the driver's offer of the delivery. */
async function offerOf(driver: TestDriver, id: string) {
  return waitFor(
    `an offer of ${id} to the driver`,
    async () => {
      const me = await driver.call('GET', '/me');
      return me.body.offer?.providerDeliveryId === id ? me.body.offer : undefined;
    },
    20_000,
    50,
  );
}

const registered = async (accountId: string, overrides: Record<string, unknown> = {}) => {
  const driver = await provider.driver(accountId, overrides);
  tokens.push(driver.token);
  return driver;
};

const move = (driver: TestDriver, id: string, eventType: string, reason?: string) =>
  driver.call('POST', `/deliveries/${id}/events`, { eventType, ...(reason ? { reason } : {}) });

it('registers a driver whose token is shown once; the courier API needs it', async () => {
  const account = await fastAccount(60);
  const driver = await registered(account.id);
  const me = await driver.call('GET', '/me');
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ driver: { id: driver.id, online: true, offer: null }, activeDelivery: null });
  const listed = await provider.admin('GET', `/platform-accounts/${account.id}/drivers`);
  expect(JSON.stringify(listed.body)).not.toContain(driver.token.split('.')[1]);
  expect((await registered(account.id)).token).not.toBe(driver.token);

  for (const authorization of [undefined, 'Bearer pdd_nope.nope', `Bearer ${driver.token}x`]) {
    const res = await fetch(`${provider.url}/courier/v1/me`, {
      headers: authorization ? { authorization } : {},
      signal: AbortSignal.timeout(5_000),
    });
    expect([authorization, res.status]).toEqual([authorization, 401]);
  }
  const replaced = await provider.admin('POST', `/platform-accounts/${account.id}/drivers/${driver.id}/token`);
  expect((await driver.call('GET', '/me')).status).toBe(401);
  const res = await fetch(`${provider.url}/courier/v1/me`, {
    headers: { authorization: `Bearer ${replaced.body.courierToken}` },
    signal: AbortSignal.timeout(5_000),
  });
  expect(res.status).toBe(200);
});

it('offers a delivery to the nearest free driver; accepting assigns them, and their moves deliver it', async () => {
  const account = await fastAccount(60);
  const far = await registered(account.id, { name: 'Fay Far', position: { lat: 52.46, lng: 13.32 } });
  const near = await registered(account.id, { name: 'Nia Near', position: { lat: 52.528, lng: 13.4 } });
  const id = await create(account);
  const offer = await offerOf(near, id);
  expect(offer).toMatchObject({ pickup: { lat: 52.529, lng: 13.401 }, dropoff: { lat: 52.538, lng: 13.409 } });
  expect((await far.call('GET', '/me')).body.offer).toBeNull();

  const accepted = await near.call('POST', `/offers/${id}/accept`);
  expect(accepted.status).toBe(200);
  expect(accepted.body).toMatchObject({ providerDeliveryId: id, status: 'driver_assigned', notes: 'Ring twice' });
  expect(accepted.body).not.toHaveProperty('customerPhone');
  const tracking = (await account.call('GET', `/deliveries/${id}/tracking`)).body;
  expect(tracking).toMatchObject({ driverName: 'Nia Near', driverPhone: '+49 170 5550101' });
  expect(tracking.trackingUrl).toMatch(/\/track\/trk_[A-Za-z0-9_-]{22}$/);
  expect(tracking.estimatedDeliveryAtUtc).not.toBeNull();
  expect((await near.call('GET', '/me')).body.activeDelivery).toMatchObject({ providerDeliveryId: id });

  expect((await move(near, id, 'driver.arrived_at_pickup')).body).toMatchObject({ status: 'arrived_at_pickup' });
  expect((await move(near, id, 'delivery.picked_up')).body).toMatchObject({ status: 'picked_up' });
  expect((await move(near, id, 'delivery.on_the_way')).body).toMatchObject({ status: 'on_the_way' });
  const located = await near.call('POST', '/me/location', { lat: 52.536, lng: 13.407 });
  expect(located.body.eventsSent).toContain('driver.location_updated');
  expect((await move(near, id, 'delivery.delivered')).body).toMatchObject({
    status: 'delivered',
    eventsSent: ['delivery.delivered'],
  });

  // After the end: nothing personal of the driver in tracking, the driver free again, no move back.
  expect((await account.call('GET', `/deliveries/${id}/status`)).body.status).toBe('delivered');
  expect((await account.call('GET', `/deliveries/${id}/tracking`)).body).toMatchObject({
    driverName: null,
    driverPhone: null,
    driverLat: null,
    driverLng: null,
    estimatedDeliveryAtUtc: null,
  });
  expect((await near.call('GET', '/me')).body.activeDelivery).toBeNull();
  const late = await move(near, id, 'delivery.on_the_way');
  expect([late.status, late.body.code]).toEqual([409, 'delivery.transition_not_allowed']);
  expect((await operatorView(account, id)).driverId).toBe(near.id);
});

it('moves a declined offer, and one that runs out, to the next driver', async () => {
  const account = await fastAccount(60); // offers run 45 s / 60 = 0.75 s
  const first = await registered(account.id, { name: 'First', position: { lat: 52.528, lng: 13.4 } });
  const second = await registered(account.id, { name: 'Second', position: { lat: 52.52, lng: 13.4 } });
  const third = await registered(account.id, { name: 'Third', position: { lat: 52.5, lng: 13.4 } });
  const id = await create(account);
  await offerOf(first, id);
  expect((await first.call('POST', `/offers/${id}/decline`)).body).toEqual({ declined: true });
  await offerOf(second, id); // and the second lets it run out
  await offerOf(third, id);
  const late = await second.call('POST', `/offers/${id}/accept`);
  expect([late.status, late.body.code]).toEqual([409, 'offer.not_available']);
  expect((await third.call('POST', `/offers/${id}/accept`)).status).toBe(200);
  const offers = (await operatorView(account, id)).driverId;
  expect(offers).toBe(third.id);
});

it('fails a delivery no driver takes within the dispatch window, with its reason', async () => {
  const account = await fastAccount(600); // 1 min of preparation and the 10-minute window: 1.1 s
  const offline = await registered(account.id, { online: false });
  const id = await create(account);
  await waitFor(
    'the delivery to fail',
    async () => (await account.call('GET', `/deliveries/${id}/status`)).body.status === 'failed',
    20_000,
    100,
  );
  expect((await operatorView(account, id)).failureReason).toMatch(/^No driver was available within 10 minutes/);
  expect((await offline.call('GET', '/me')).body.offer).toBeNull();
});

it('reaches only the driver’s own deliveries, refuses illegal moves, and frees the driver when the platform cancels', async () => {
  const account = await fastAccount(60);
  const driver = await registered(account.id);
  const other = await registered((await fastAccount(60)).id);
  const id = await create(account);
  await offerOf(driver, id);
  await driver.call('POST', `/offers/${id}/accept`);
  expect((await other.call('GET', `/deliveries/${id}`)).status).toBe(404);
  expect((await other.call('POST', `/deliveries/${id}/events`, { eventType: 'delivery.picked_up' })).status).toBe(404);
  const early = await move(driver, id, 'delivery.delivered');
  expect([early.status, early.body.code]).toEqual([409, 'delivery.transition_not_allowed']);
  const noReason = await move(driver, id, 'delivery.failed');
  expect([noReason.status, noReason.body.fieldErrors]).toEqual([400, { reason: ['is required for delivery.failed'] }]);

  expect((await account.call('POST', `/deliveries/${id}/cancel`, { stage: 'before_pickup' })).body.confirmed).toBe(
    true,
  );
  expect((await driver.call('GET', '/me')).body).toMatchObject({
    activeDelivery: null,
    driver: { activeDeliveryId: null },
  });
});

it('sends at most one driver.location_updated per 5 seconds to a driver reporting 10 positions a second', async () => {
  const account = await fastAccount(60);
  const driver = await registered(account.id);
  const id = await create(account);
  await offerOf(driver, id);
  await driver.call('POST', `/offers/${id}/accept`);
  const sent: string[] = [];
  const started = Date.now();
  for (let i = 0; Date.now() - started < 6_000; i++) {
    const answer = await driver.call('POST', '/me/location', { lat: 52.525 + i * 0.0002, lng: 13.4 });
    sent.push(...answer.body.eventsSent.filter((e: string) => e === 'driver.location_updated'));
    await sleep(100);
  }
  // 6 seconds of reports: the first one sent, then at most one more after 5 seconds.
  expect(sent.length).toBeGreaterThanOrEqual(1);
  expect(sent.length).toBeLessThanOrEqual(2);
});

it('never logs a driver’s phone, a courier token or a tracking link', async () => {
  const log = provider.process.output();
  expect(log).toContain('driver registered'); // the log was read
  for (const secret of ['+49 170 5550101', '5550101', '/track/trk_', ...tokens.map((t) => t.split('.')[1]!)])
    expect([secret, log.includes(secret)]).toEqual([secret, false]);
});

it('answers bad input with the error envelope: a reversed shift, malformed or invalid bodies, unknown ids', async () => {
  const account = await fastAccount(60);
  const drivers = `/platform-accounts/${account.id}/drivers`;
  const reversed = await provider.admin('POST', drivers, {
    name: 'Rev',
    phone: '+49 170 1',
    vehicle: 'car',
    shift: { startsAtUtc: '2030-01-01T18:00:00Z', endsAtUtc: '2030-01-01T10:00:00Z' },
  });
  expect([reversed.status, reversed.body.code, reversed.body.fieldErrors]).toEqual([
    400,
    'request.invalid',
    { 'shift.endsAtUtc': ['must be after shift.startsAtUtc'] },
  ]);
  const unknownDriver = await provider.admin('GET', `${drivers}/00000000-0000-4000-8000-000000000000`);
  expect([unknownDriver.status, unknownDriver.body.code]).toEqual([404, 'driver.not_found']);

  const driver = await registered(account.id);
  const cases: [string, string, unknown, number, string][] = [
    ['POST', '/me/location', '{"lat": 52.5,', 400, 'request.malformed'],
    ['POST', '/me/location', { lat: 91, lng: 13.4 }, 400, 'request.invalid'],
    ['POST', '/me/location', { lat: 52.5, lng: 13.4, extra: 1 }, 400, 'request.invalid'],
    ['POST', '/me/availability', { online: 'yes' }, 400, 'request.invalid'],
    ['POST', `/deliveries/${randomUUID()}/events`, { eventType: 'delivery.cancelled' }, 400, 'request.invalid'],
    [
      'POST',
      `/deliveries/${randomUUID()}/events`,
      { eventType: 'delivery.failed', reason: 'x'.repeat(201) },
      400,
      'request.invalid',
    ],
    ['POST', `/deliveries/${randomUUID()}/events`, { eventType: 'delivery.delivered' }, 404, 'delivery.not_found'],
    ['POST', '/offers/not-a-uuid/accept', undefined, 404, 'delivery.not_found'],
    ['GET', `/deliveries/${randomUUID()}`, undefined, 404, 'delivery.not_found'],
  ];
  for (const [method, path, body, status, code] of cases) {
    const res = await driver.call(method, path, body);
    expect([method, path, res.status, res.body?.code, res.text.includes('at ')]).toEqual([
      method,
      path,
      status,
      code,
      false,
    ]);
  }
});
