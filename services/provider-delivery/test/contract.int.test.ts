import { createHmac, randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { stackEnv, startReceiver, type Receiver } from '@marketplace/testing';
import { createRequest, ProviderUnderTest, type TestAccount } from './support/provider';

// The provider contract's endpoints against provider-delivery as a process on the real stack:
// create and its idempotency (across a restart, under 20 concurrent duplicates), validation,
// business rejections, callback URL refusals, status and tracking, update, cancel and return in
// every state, the table of moves and the webhook test. The events' journey to the platform
// through the webhook sender is test/callbacks.int.test.ts.

jest.setTimeout(120_000);

let provider: ProviderUnderTest;
let receiver: Receiver;
let mongo: MongoClient;
let account: TestAccount;

beforeAll(async () => {
  [provider, receiver] = await Promise.all([ProviderUnderTest.start(), startReceiver()]);
  mongo = await MongoClient.connect(stackEnv().MONGO_URL);
  account = await provider.account();
});

afterAll(async () => {
  await provider?.stop();
  await receiver?.close();
  await mongo?.close();
});

const deliveries = () => mongo.db(provider.database).collection('deliveries');

async function created(a: TestAccount = account, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await a.call('POST', '/deliveries', createRequest(overrides));
  expect(res.status).toBe(200);
  expect(res.body.accepted).toBe(true);
  return res.body.providerDeliveryId as string;
}

/** Moves a delivery through reported events, each of which must be accepted. */
async function move(a: TestAccount, id: string, ...eventTypes: string[]): Promise<void> {
  for (const eventType of eventTypes) {
    const extra = eventType === 'driver.assigned' ? { driverName: 'Dana Driver', driverPhone: '+49 170 0000000' } : {};
    const res = await provider.report(a.id, id, { eventType, ...extra });
    expect([res.status, res.body?.code]).toEqual([200, undefined]);
  }
}

const statusOf = async (a: TestAccount, id: string) => (await a.call('GET', `/deliveries/${id}/status`)).body.status;

describe('POST /deliveries', () => {
  it('accepts a valid request: 200, the id, status provider_accepted, tracking all null', async () => {
    const res = await account.call('POST', '/deliveries', createRequest());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ accepted: true, providerDeliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const id = res.body.providerDeliveryId;
    const status = await account.call('GET', `/deliveries/${id}/status`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ status: 'provider_accepted', eventTimeUtc: expect.any(String) });
    const tracking = await account.call('GET', `/deliveries/${id}/tracking`);
    expect(tracking.body).toEqual({
      driverName: null,
      driverPhone: null,
      driverLat: null,
      driverLng: null,
      trackingUrl: null,
      estimatedDeliveryAtUtc: null,
      eventTimeUtc: expect.any(String),
    });
  });

  it('answers a replay with the first answer; same meaning in another form is the same payload', async () => {
    const request = createRequest({ amount: 9.5, scheduledDeliveryAtUtc: '2030-01-01T12:00:00+02:00' });
    const first = await account.call('POST', '/deliveries', request);
    const reordered = Object.fromEntries(Object.entries(request).reverse());
    const again = await account.call('POST', '/deliveries', {
      ...reordered,
      amount: 9.5,
      scheduledDeliveryAtUtc: '2030-01-01T10:00:00Z',
    });
    const asText = await account.call(
      'POST',
      '/deliveries',
      JSON.stringify(request).replace('"amount":9.5', '"amount":9.50'),
    );
    for (const replay of [again, asText]) {
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
    }
    expect(await deliveries().countDocuments({ idempotencyKey: request.idempotencyKey })).toBe(1);
  });

  it('refuses a replay with a changed payload or a changed callback (409); one without webhook keeps the callback', async () => {
    const request = createRequest({ webhook: { url: `${receiver.url}/cb/tok_first` } });
    const first = await account.call('POST', '/deliveries', request);
    expect(first.body.accepted).toBe(true);

    const changed = await account.call('POST', '/deliveries', { ...request, notes: 'Knock instead' });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({
      code: 'idempotency.payload_mismatch',
      message: expect.any(String),
      retryable: false,
    });
    const otherUrl = await account.call('POST', '/deliveries', {
      ...request,
      webhook: { url: `${receiver.url}/cb/tok_other` },
    });
    expect(otherUrl.status).toBe(409);
    expect(otherUrl.body.code).toBe('idempotency.callback_mismatch');
    expect(otherUrl.text).not.toContain('tok_');

    const { webhook: _, ...withoutWebhook } = request;
    for (const replay of [withoutWebhook, { ...request, webhook: null }, { ...request, webhook: { url: null } }])
      expect((await account.call('POST', '/deliveries', replay)).body).toEqual(first.body);
    const doc = await deliveries().findOne({ _id: first.body.providerDeliveryId } as never);
    expect(doc?.callbackSource).toBe('request');
    expect(JSON.stringify(doc)).not.toContain('tok_first'); // sealed at rest
  });

  it('adding a callback the original did not have is a change (409)', async () => {
    const request = createRequest();
    await account.call('POST', '/deliveries', request);
    const added = await account.call('POST', '/deliveries', { ...request, webhook: { url: `${receiver.url}/cb/x` } });
    expect(added.status).toBe(409);
    expect(added.body.code).toBe('idempotency.callback_mismatch');
  });

  it('converges 20 concurrent identical creates on one delivery', async () => {
    const request = createRequest();
    const answers = await Promise.all(Array.from({ length: 20 }, () => account.call('POST', '/deliveries', request)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.providerDeliveryId)).size).toBe(1);
    expect(await deliveries().countDocuments({ idempotencyKey: request.idempotencyKey })).toBe(1);
  });

  it('keeps idempotency across a restart of the service', async () => {
    const request = createRequest();
    const rejectedRequest = createRequest({ dropoffLat: 48.1, dropoffLng: 11.5 });
    const first = await account.call('POST', '/deliveries', request);
    const refused = await account.call('POST', '/deliveries', rejectedRequest);
    await provider.restart();
    expect((await account.call('POST', '/deliveries', request)).body).toEqual(first.body);
    expect((await account.call('POST', '/deliveries', rejectedRequest)).body).toEqual(refused.body);
    expect((await account.call('POST', '/deliveries', { ...request, amount: 1 })).status).toBe(409);
  });

  it('scopes idempotency to the account: another account with the same key gets its own delivery', async () => {
    const other = await provider.account();
    const request = createRequest();
    const mine = await account.call('POST', '/deliveries', request);
    const theirs = await other.call('POST', '/deliveries', request);
    expect(theirs.body.accepted).toBe(true);
    expect(theirs.body.providerDeliveryId).not.toBe(mine.body.providerDeliveryId);
  });

  it('answers business rejections with 200 accepted false, idempotently', async () => {
    const outside = createRequest({ dropoffLat: 48.137, dropoffLng: 11.575 }); // Munich
    const res = await account.call('POST', '/deliveries', outside);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accepted: false, rejectionReason: 'outside_service_area' });
    expect((await account.call('POST', '/deliveries', outside)).body).toEqual(res.body);

    const noSchedule = await provider.account({ capabilities: { supportsScheduledDelivery: false } });
    const scheduled = await noSchedule.call(
      'POST',
      '/deliveries',
      createRequest({ scheduledDeliveryAtUtc: '2030-01-01T10:00:00Z' }),
    );
    expect(scheduled.body).toEqual({ accepted: false, rejectionReason: 'scheduled_delivery_not_supported' });
  });

  it('answers a body that is not JSON with 400 request.malformed, invalid fields with 422 and fieldErrors', async () => {
    const malformed = await account.call('POST', '/deliveries', '{"platformReference": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ code: 'request.malformed', message: expect.any(String), retryable: false });

    const invalid = await account.call(
      'POST',
      '/deliveries',
      createRequest({
        platformReference: 'x'.repeat(201),
        pickupLat: 91,
        dropoffLng: -181,
        customerPhone: '1'.repeat(51),
        currency: 'eur',
        amount: 10.005,
        deliveryFeeAmount: -1,
        notes: 'n'.repeat(2001),
        preparationTimeMinutes: -1,
        paymentMethod: 'p'.repeat(101),
      }),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe('request.invalid');
    expect(invalid.body.retryable).toBe(false);
    expect(Object.keys(invalid.body.fieldErrors).sort()).toEqual(
      [
        'platformReference',
        'pickupLat',
        'dropoffLng',
        'customerPhone',
        'currency',
        'deliveryFeeAmount',
        'notes',
        'preparationTimeMinutes',
        'paymentMethod',
      ].sort(),
    );
    const decimals = await account.call('POST', '/deliveries', createRequest({ amount: 10.005 }));
    expect(decimals.status).toBe(422);
    expect(decimals.body.fieldErrors).toEqual({ amount: ['must have at most two decimals'] });
    const missing = await account.call('POST', '/deliveries', { platformReference: 'x' });
    expect(missing.status).toBe(422);
    expect(missing.body.fieldErrors.idempotencyKey).toEqual(['is required']);
  });

  it.each([
    ['plain http to a public host', 'http://platform.example.com/cb', 'must use https'],
    ['credentials', 'https://user:pw@platform.example.com/cb', 'credentials'],
    ['a fragment', 'https://platform.example.com/cb#frag', 'fragment'],
    ['a nonstandard port', 'https://platform.example.com:8443/cb', 'port'],
    ['a private address', 'https://10.0.0.7/cb', 'private'],
    ['the metadata address', 'https://169.254.169.254/latest', 'private'],
    ['a private IPv6 address', 'https://[fd00::1]/cb', 'private'],
    ['an IPv4-mapped private address', 'https://[::ffff:192.168.0.1]/cb', 'private'],
    ['a relative URL', '/callbacks/tok', 'URL'],
    ['a URL longer than 2,048 characters', `https://platform.example.com/${'a'.repeat(2030)}`, '2048'],
  ])('refuses a callback with %s (422 at webhook.url)', async (_, url, words) => {
    const res = await account.call('POST', '/deliveries', createRequest({ webhook: { url } }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('request.invalid');
    expect(Object.keys(res.body.fieldErrors)).toEqual(['webhook.url']);
    expect(JSON.stringify(res.body.fieldErrors)).toMatch(new RegExp(words.split(' ')[0]!, 'i'));
  });
});

describe('GET status and tracking', () => {
  it('answers 404 delivery.not_found for an unknown id, a malformed one and another account’s', async () => {
    const other = await provider.account();
    const theirs = await created(other);
    for (const id of [randomUUID(), 'not-an-id', theirs])
      for (const path of [`/deliveries/${id}/status`, `/deliveries/${id}/tracking`]) {
        const res = await account.call('GET', path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'delivery.not_found', message: 'No such delivery.', retryable: false });
      }
  });

  it('follows the reported events: status, driver, position and estimate', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned');
    const eta = '2030-01-01T10:30:00.000Z';
    await provider.report(account.id, id, { eventType: 'driver.location_updated', driverLat: 52.53, driverLng: 13.4 });
    await provider.report(account.id, id, { eventType: 'eta.updated', estimatedDeliveryAtUtc: eta });
    expect(await statusOf(account, id)).toBe('driver_assigned');
    expect((await account.call('GET', `/deliveries/${id}/tracking`)).body).toEqual({
      driverName: 'Dana Driver',
      driverPhone: '+49 170 0000000',
      driverLat: 52.53,
      driverLng: 13.4,
      trackingUrl: expect.stringMatching(/\/track\/trk_[A-Za-z0-9_-]{22}$/),
      estimatedDeliveryAtUtc: eta,
      eventTimeUtc: expect.any(String),
    });
  });
});

describe('PATCH /deliveries/{id}', () => {
  it('changes only non-null fields and answers one boolean per field sent', async () => {
    const id = await created();
    const res = await account.call('PATCH', `/deliveries/${id}`, {
      customerPhone: '+49 30 7654321',
      notes: null,
      dropoffAddress: 'Schönhauser Allee 1',
      dropoffLat: 52.54,
      dropoffLng: 13.41,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fieldAccepted: { customerPhone: true, notes: true, dropoffAddress: true, dropoffLat: true, dropoffLng: true },
      errorMessage: null,
    });
    const doc = await deliveries().findOne({ _id: id } as never);
    expect(doc?.order).toMatchObject({ customerPhone: '+49 30 7654321', notes: 'Ring twice', dropoffLat: 52.54 });
  });

  it('refuses a new drop-off after pickup with fieldAccepted false, and invalid values with 422', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned', 'delivery.picked_up');
    const res = await account.call('PATCH', `/deliveries/${id}`, {
      dropoffAddress: 'Elsewhere 1',
      dropoffLat: 52.5,
      dropoffLng: 13.4,
      customerName: 'Ada C.',
    });
    expect(res.body).toEqual({
      fieldAccepted: { dropoffAddress: false, dropoffLat: false, dropoffLng: false, customerName: true },
      errorMessage: expect.stringContaining('before pickup'),
    });
    const alone = await account.call('PATCH', `/deliveries/${id}`, { dropoffLat: 52.5 });
    expect(alone.status).toBe(422);
    expect(Object.keys(alone.body.fieldErrors).sort()).toEqual(['dropoffAddress', 'dropoffLng']);
    expect((await account.call('PATCH', `/deliveries/${id}`, { amount: 1.234 })).status).toBe(422);
    expect((await account.call('PATCH', `/deliveries/${randomUUID()}`, { notes: 'x' })).status).toBe(404);
  });

  it('is 403 auth.forbidden for an account without the update capability', async () => {
    const limited = await provider.account({ capabilities: { supportsUpdates: false } });
    const id = await created(limited);
    const res = await limited.call('PATCH', `/deliveries/${id}`, { notes: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('auth.forbidden');
  });
});

describe('POST /deliveries/{id}/cancel', () => {
  const cancel = (id: string, stage: string) => account.call('POST', `/deliveries/${id}/cancel`, { stage });

  it('cancels a pending delivery, whatever the stage, and confirms a repeat', async () => {
    const id = await created();
    expect((await cancel(id, 'after_pickup')).body).toEqual({ confirmed: true, errorMessage: null });
    expect(await statusOf(account, id)).toBe('cancelled');
    expect((await cancel(id, 'after_pickup')).body).toEqual({ confirmed: true, errorMessage: null });
    expect((await cancel(id, 'before_pickup')).body.confirmed).toBe(true);
  });

  it('cancels an accepted delivery with a driver on the way to the pickup', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned', 'driver.arrived_at_pickup');
    expect((await cancel(id, 'before_pickup')).body.confirmed).toBe(true);
    expect(await statusOf(account, id)).toBe('cancelled');
  });

  it('after pickup: refuses before_pickup, cancels with after_pickup', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned', 'delivery.picked_up');
    const refused = await cancel(id, 'before_pickup');
    expect(refused.body).toEqual({ confirmed: false, errorMessage: expect.stringContaining('after_pickup') });
    expect(await statusOf(account, id)).toBe('picked_up');
    expect((await cancel(id, 'after_pickup')).body.confirmed).toBe(true);
    expect(await statusOf(account, id)).toBe('cancelled');
  });

  it('refuses a final delivery with the reason, and is 404 for an unknown one', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned', 'delivery.picked_up', 'delivery.delivered');
    expect((await cancel(id, 'after_pickup')).body).toEqual({
      confirmed: false,
      errorMessage: 'The delivery is delivered already.',
    });
    expect(await statusOf(account, id)).toBe('delivered');
    const unknown = await cancel(randomUUID(), 'before_pickup');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('delivery.not_found');
    expect((await cancel(id, 'sometime')).status).toBe(422);
  });
});

describe('POST /deliveries/{id}/return', () => {
  it('moves through return_requested, returning_to_origin, then returned_to_origin', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned', 'delivery.picked_up', 'delivery.on_the_way');
    const res = await account.call('POST', `/deliveries/${id}/return`, { reasonCode: 'customer_absent' });
    expect(res.body).toEqual({ accepted: true, errorMessage: null });
    expect(await statusOf(account, id)).toBe('return_requested');
    expect(
      (await account.call('POST', `/deliveries/${id}/return`, { reasonCode: 'customer_absent' })).body.accepted,
    ).toBe(true);
    await move(account, id, 'delivery.returning_to_origin', 'delivery.returned_to_origin');
    expect(await statusOf(account, id)).toBe('returned_to_origin');
    const op = await provider.admin('GET', `/platform-accounts/${account.id}/deliveries/${id}`);
    expect(op.body.returnReasonCode).toBe('customer_absent');
  });

  it('ends a return in return_failed, and refuses a return before pickup', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned', 'delivery.picked_up');
    await account.call('POST', `/deliveries/${id}/return`, { reasonCode: 'refused' });
    await move(account, id, 'delivery.return_failed');
    expect(await statusOf(account, id)).toBe('return_failed');

    const early = await created();
    const refused = await account.call('POST', `/deliveries/${early}/return`, { reasonCode: 'x' });
    expect(refused.body).toEqual({ accepted: false, errorMessage: expect.stringContaining('cancel') });
  });

  it('is 403 without supportsReturnToOrigin, 404 for an unknown delivery', async () => {
    const limited = await provider.account({ capabilities: { supportsReturnToOrigin: false } });
    const id = await created(limited);
    expect((await limited.call('POST', `/deliveries/${id}/return`, { reasonCode: 'x' })).status).toBe(403);
    expect((await account.call('POST', `/deliveries/${randomUUID()}/return`, { reasonCode: 'x' })).status).toBe(404);
  });
});

describe('the table of moves', () => {
  it('refuses a move the table does not allow, and every event after a terminal status (409)', async () => {
    const id = await created();
    const skip = await provider.report(account.id, id, { eventType: 'delivery.delivered' });
    expect(skip.status).toBe(409);
    expect(skip.body.code).toBe('delivery.transition_not_allowed');
    await move(account, id, 'driver.assigned', 'delivery.picked_up', 'delivery.delivered');
    for (const eventType of ['driver.location_updated', 'eta.updated', 'delivery.failed', 'driver.assigned']) {
      const res = await provider.report(account.id, id, {
        eventType,
        driverName: 'Late',
        driverLat: 52.5,
        driverLng: 13.4,
        estimatedDeliveryAtUtc: '2030-01-01T00:00:00Z',
      });
      expect([eventType, res.status]).toEqual([eventType, 409]);
    }
    expect(await statusOf(account, id)).toBe('delivered');
  });

  it('coalesces location updates: a burst sends one event, the tracking read has the newest point', async () => {
    const id = await created();
    await move(account, id, 'driver.assigned');
    const sent: Array<string | null> = [];
    for (let i = 0; i < 10; i++) {
      const res = await provider.report(account.id, id, {
        eventType: 'driver.location_updated',
        driverLat: 52.5 + i * 0.001,
        driverLng: 13.4,
      });
      sent.push(res.body.eventSent);
    }
    expect(sent.filter((s) => s !== null)).toEqual(['driver.location_updated']);
    expect((await account.call('GET', `/deliveries/${id}/tracking`)).body.driverLat).toBeCloseTo(52.509, 6);
  });
});

describe('POST /webhooks/test', () => {
  it('sends one signed webhook.test event to the url given, verified from the raw bytes', async () => {
    const res = await account.call('POST', '/webhooks/test', { url: `${receiver.url}/test/tok_test` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      testId: expect.any(String),
      callbackConfigured: true,
      delivered: true,
      responseStatus: 200,
      errorMessage: null,
      eventTimeUtc: expect.any(String),
    });
    const [got] = receiver.at('/test/tok_test');
    const expected = createHmac('sha256', account.webhookSecret).update(got!.body).digest('hex');
    expect(got!.headers['x-platform-signature']).toBe(expected);
    expect(got!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(got!.body.toString('utf8'))).toEqual({
      eventType: 'webhook.test',
      testId: res.body.testId,
      eventTimeUtc: res.body.eventTimeUtc,
    });
  });

  it('reports a failing callback, no callback at all, and refuses an unsafe url (422)', async () => {
    receiver.respond = (req) => (req.path === '/test/failing' ? 503 : 200);
    const failing = await account.call('POST', '/webhooks/test', { url: `${receiver.url}/test/failing` });
    expect(failing.body).toMatchObject({
      delivered: false,
      responseStatus: 503,
      errorMessage: 'The callback answered 503.',
    });
    const none = await account.call('POST', '/webhooks/test', {});
    expect(none.body).toMatchObject({ callbackConfigured: false, delivered: false, responseStatus: null });
    const unsafe = await account.call('POST', '/webhooks/test', { url: 'https://192.168.1.1/hook' });
    expect(unsafe.status).toBe(422);
    expect(Object.keys(unsafe.body.fieldErrors)).toEqual(['url']);
  });

  it('answers a repeat of the same test with the first outcome, sending one event', async () => {
    receiver.respond = () => 200;
    const url = `${receiver.url}/test/tok_repeat`;
    const first = await account.call('POST', '/webhooks/test', { url });
    const again = await account.call('POST', '/webhooks/test', { url });
    expect(first.body.delivered).toBe(true);
    expect(again.body).toEqual(first.body);
    expect(receiver.at('/test/tok_repeat')).toHaveLength(1);
    // Another URL (or another account) is another test.
    const other = await account.call('POST', '/webhooks/test', { url: `${url}2` });
    expect(other.body.testId).not.toBe(first.body.testId);
    const theirs = await (await provider.account()).call('POST', '/webhooks/test', { url });
    expect(theirs.body.testId).not.toBe(first.body.testId);
    expect(receiver.at('/test/tok_repeat')).toHaveLength(2);
  });

  it('answers within the platform’s 15 s when the callback holds the request: a timeout, one event for two calls', async () => {
    const path = '/test/tok_hold';
    receiver.respond = (req) => (req.path === path ? 'hang' : 200);
    const started = performance.now();
    const [first, second] = await Promise.all([
      account.call('POST', '/webhooks/test', { url: `${receiver.url}${path}` }),
      account.call('POST', '/webhooks/test', { url: `${receiver.url}${path}` }),
    ]);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(first.body).toMatchObject({
      callbackConfigured: true,
      delivered: false,
      responseStatus: null,
      errorMessage: 'The callback did not answer within the test’s 10 seconds.',
    });
    expect(second.body).toEqual(first.body);
    expect(receiver.at(path)).toHaveLength(1);
    receiver.respond = () => 200;
  });
});

describe('unknown request properties (versioning rule 1: accepted and ignored)', () => {
  const extras = { futureField: 'x', futureObject: { futureBrand: 'b', futureTags: ['t'] } };

  it('creates with unknown properties at the top and in webhook, stores none of them, and replays a retry that adds one', async () => {
    const url = `${receiver.url}/cb/tok_unknown`;
    const plain = createRequest({ webhook: { url } });
    const request = {
      ...plain,
      ...extras,
      webhook: { url, secret: 'pwhsec_not_ours', futureRetries: 2 },
      customerEmail: 'not-in-the-create@example.com',
    };
    const res = await account.call('POST', '/deliveries', request);
    expect([res.status, res.body?.code]).toEqual([200, undefined]);
    expect(res.body).toEqual({ accepted: true, providerDeliveryId: expect.any(String) });
    const id = res.body.providerDeliveryId as string;
    const stored = JSON.stringify(await deliveries().findOne({ _id: id } as never));
    for (const unknown of ['future', 'pwhsec_not_ours', 'not-in-the-create']) expect(stored).not.toContain(unknown);
    const doc = await deliveries().findOne({ _id: id } as never);
    expect(doc?.order.customerEmail).toBeNull();
    expect(doc?.callbackSource).toBe('request');

    // The idempotency comparison covers the contract's fields only: adding (or dropping) an unknown
    // property is the same request.
    for (const retry of [{ ...request, anotherNewField: true }, plain, { ...plain, webhook: null }])
      expect(await account.call('POST', '/deliveries', retry)).toMatchObject({ status: 200, body: res.body });
    expect(await deliveries().countDocuments({ idempotencyKey: plain.idempotencyKey })).toBe(1);
    // A changed known field with unknown ones is still a changed payload.
    const changed = await account.call('POST', '/deliveries', { ...request, notes: 'Other notes' });
    expect([changed.status, changed.body.code]).toEqual([409, 'idempotency.payload_mismatch']);
    // Known fields keep their rules next to unknown ones.
    const invalid = await account.call('POST', '/deliveries', createRequest({ ...extras, pickupLat: 91 }));
    expect([invalid.status, Object.keys(invalid.body.fieldErrors)]).toEqual([422, ['pickupLat']]);
  });

  it('updates, cancels, returns and tests a webhook with unknown properties, answering for the known ones only', async () => {
    const id = await created();
    const patched = await account.call('PATCH', `/deliveries/${id}`, { notes: 'Gate code 42', ...extras });
    expect([patched.status, patched.body]).toEqual([200, { fieldAccepted: { notes: true }, errorMessage: null }]);
    const doc = await deliveries().findOne({ _id: id } as never);
    expect(doc?.order.notes).toBe('Gate code 42');
    expect(JSON.stringify(doc)).not.toContain('future');
    expect((await account.call('PATCH', `/deliveries/${id}`, { ...extras })).body).toEqual({
      fieldAccepted: {},
      errorMessage: null,
    });

    await move(account, id, 'driver.assigned', 'delivery.picked_up');
    const returned = await account.call('POST', `/deliveries/${id}/return`, {
      reasonCode: 'customer_absent',
      ...extras,
    });
    expect([returned.status, returned.body]).toEqual([200, { accepted: true, errorMessage: null }]);
    const other = await created();
    const cancelled = await account.call('POST', `/deliveries/${other}/cancel`, { stage: 'before_pickup', ...extras });
    expect([cancelled.status, cancelled.body]).toEqual([200, { confirmed: true, errorMessage: null }]);
    const test = await account.call('POST', '/webhooks/test', { url: `${receiver.url}/test/tok_extras`, ...extras });
    expect([test.status, test.body.delivered]).toEqual([200, true]);
  });
});

describe('PATCH, cancel and return on an unknown delivery: 404 before 403 and 422', () => {
  it('answers 404 for a random id and another account’s, whatever the body and the capabilities', async () => {
    const none = await provider.account({
      capabilities: { supportsUpdates: false, supportsCancellation: false, supportsReturnToOrigin: false },
    });
    const theirs = await created();
    const invalid: [string, string, unknown][] = [
      ['PATCH', '', { amount: 'lots', dropoffLat: 1 }],
      ['POST', '/cancel', { stage: 'sometime' }],
      ['POST', '/return', { reasonCode: '' }],
    ];
    for (const a of [none, account])
      for (const id of [randomUUID(), theirs].filter((x) => a !== account || x !== theirs))
        for (const [method, suffix, body] of invalid) {
          const res = await a.call(method, `/deliveries/${id}${suffix}`, body);
          expect([method, suffix, res.status, res.body]).toEqual([
            method,
            suffix,
            404,
            { code: 'delivery.not_found', message: 'No such delivery.', retryable: false },
          ]);
        }
    // The account's own delivery: the capability first (403), then the body (422).
    const own = await created(none);
    for (const [method, suffix, body] of invalid) {
      expect((await none.call(method, `/deliveries/${own}${suffix}`, body)).status).toBe(403);
      expect((await account.call(method, `/deliveries/${theirs}${suffix}`, body)).status).toBe(422);
    }
  });
});
