import { type Receiver, startReceiver, verifyPlatformSignature } from '@marketplace/testing';
import { join } from 'node:path';
import { loadDeclaration } from '../src/runner/declaration';
import {
  type Defect,
  type FaultyProvider,
  FAULTY_PROVIDER_DECLARATION,
  startFaultyProvider,
} from './support/faulty-provider';

/** The faulty provider on its own: correct without defects, and each defect visible directly. */

const STEP_MS = 30;
const area = FAULTY_PROVIDER_DECLARATION.area;
let receiver: Receiver;
const providers: FaultyProvider[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.respond = () => 204;
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close()));
  await receiver.close();
});

async function provider(defects: Defect[] = [], stepMs = STEP_MS): Promise<FaultyProvider> {
  const started = await startFaultyProvider({ defects, stepMs, retryBaseMs: 50 });
  providers.push(started);
  return started;
}

let counter = 0;
function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  const reference = `ref-${Date.now()}-${counter}`;
  return {
    platformReference: reference,
    idempotencyKey: reference,
    pickupAddress: area.pickup.address,
    pickupLat: area.pickup.lat,
    pickupLng: area.pickup.lng,
    customerName: 'A Customer',
    customerPhone: '+351910000000',
    dropoffAddress: area.dropoff.address,
    dropoffLat: area.dropoff.lat,
    dropoffLng: area.dropoff.lng,
    paymentMethod: 'card',
    amount: 23.5,
    currency: 'EUR',
    preparationTimeMinutes: 0,
    webhook: { url: `${receiver.url}/cb/${reference}` },
    ...overrides,
  };
}

async function call(
  p: FaultyProvider,
  method: string,
  path: string,
  body?: unknown,
  authorization: string | null = `Bearer ${p.apiKey}`,
): Promise<{ status: number; json: any; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (authorization !== null) headers.authorization = authorization;
  const response = await fetch(`${p.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

const events = (reference: string): Array<Record<string, any>> =>
  receiver.at(`/cb/${reference}`).map((r) => JSON.parse(r.body.toString('utf8')));

async function waitFor(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const isEnvelope = (json: any): boolean =>
  typeof json?.code === 'string' && typeof json?.message === 'string' && typeof json?.retryable === 'boolean';

it('declares itself in a declaration the kit accepts', () => {
  expect(loadDeclaration(join(__dirname, 'support/faulty-provider/declaration.json'))).toEqual(
    FAULTY_PROVIDER_DECLARATION,
  );
});

describe('faulty provider without defects', () => {
  let p: FaultyProvider;
  beforeAll(async () => {
    p = await provider();
  });

  it('creates, replays, and refuses a changed replay with 409', async () => {
    const body = request({ preparationTimeMinutes: 120 });
    const created = await call(p, 'POST', '/deliveries', body);
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(created.json).toEqual({
      accepted: true,
      providerDeliveryId: expect.any(String),
      providerTrackingId: expect.any(String),
    });
    expect(await call(p, 'POST', '/deliveries', body)).toMatchObject({ status: 200, json: created.json });
    const { webhook: _webhook, ...withoutWebhook } = body;
    expect(await call(p, 'POST', '/deliveries', withoutWebhook)).toMatchObject({ status: 200, json: created.json });
    const changed = await call(p, 'POST', '/deliveries', { ...body, customerName: 'Another' });
    expect(changed.status).toBe(409);
    expect(isEnvelope(changed.json)).toBe(true);
    const otherCallback = await call(p, 'POST', '/deliveries', {
      ...body,
      webhook: { url: `${receiver.url}/cb/other` },
    });
    expect(otherCallback.status).toBe(409);
  });

  it('converges concurrent identical creates on one delivery', async () => {
    const body = request({ preparationTimeMinutes: 120 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(p, 'POST', '/deliveries', body)));
    expect(new Set(answers.map((a) => a.json.providerDeliveryId)).size).toBe(1);
  });

  it('rejects outside the service area, the same on a replay', async () => {
    const body = request({ dropoffLat: area.outside!.lat, dropoffLng: area.outside!.lng });
    const first = await call(p, 'POST', '/deliveries', body);
    expect(first).toMatchObject({ status: 200, json: { accepted: false, rejectionReason: 'outside_service_area' } });
    expect((await call(p, 'POST', '/deliveries', body)).json).toEqual(first.json);
  });

  it('answers errors with the envelope: 401, 400, 422, 404, 413', async () => {
    const unauthenticated = await call(p, 'POST', '/deliveries', request(), null);
    expect(unauthenticated.status).toBe(401);
    expect((await call(p, 'POST', '/deliveries', request(), `Token ${p.apiKey}`)).status).toBe(401);
    expect((await call(p, 'POST', '/deliveries', '{"platformReference":')).status).toBe(400);
    const invalid = await call(
      p,
      'POST',
      '/deliveries',
      request({ amount: 10.005, currency: 'eur', webhook: { url: 'http://example.com/cb' } }),
    );
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.json.fieldErrors).sort()).toEqual(['amount', 'currency', 'webhook.url']);
    expect((await call(p, 'GET', '/deliveries/unknown/status')).status).toBe(404);
    const huge = await call(p, 'POST', '/deliveries', request({ notes: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    for (const answer of [unauthenticated, invalid, huge]) expect(isEnvelope(answer.json)).toBe(true);
  });

  it('rides a delivery to delivered, with signed events in order, and reads that agree', async () => {
    const body = request();
    const created = await call(p, 'POST', '/deliveries', body);
    const reference = body.platformReference as string;
    await waitFor('delivery.delivered', () => events(reference).some((e) => e.eventType === 'delivery.delivered'));
    const types = events(reference).map((e) => e.eventType);
    expect(types[0]).toBe('delivery.accepted');
    expect(types).toEqual(
      expect.arrayContaining(['driver.assigned', 'delivery.picked_up', 'driver.location_updated', 'eta.updated']),
    );
    expect(types[types.length - 1]).toBe('delivery.delivered');
    for (const received of receiver.at(`/cb/${reference}`))
      expect(verifyPlatformSignature(received, p.webhookSecret)).toBe(true);
    const times = events(reference).map((e) => Date.parse(e.eventTimeUtc));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const status = await call(p, 'GET', `/deliveries/${created.json.providerDeliveryId}/status`);
    expect(status.json).toEqual({ status: 'delivered', eventTimeUtc: events(reference).at(-1)!.eventTimeUtc });
    const tracking = await call(p, 'GET', `/deliveries/${created.json.providerDeliveryId}/tracking`);
    expect(tracking.json).toMatchObject({
      driverName: expect.any(String),
      driverLat: area.dropoff.lat,
      driverLng: area.dropoff.lng,
    });
  });

  it('keeps a held delivery in provider_accepted with no driver, until cancelled once', async () => {
    const body = request({ preparationTimeMinutes: 120 });
    const id = (await call(p, 'POST', '/deliveries', body)).json.providerDeliveryId;
    await new Promise((resolve) => setTimeout(resolve, STEP_MS * 15));
    expect((await call(p, 'GET', `/deliveries/${id}/status`)).json.status).toBe('provider_accepted');
    const tracking = await call(p, 'GET', `/deliveries/${id}/tracking`);
    expect(tracking.json).toMatchObject({ driverName: null, driverPhone: null, driverLat: null, driverLng: null });
    expect(
      (await call(p, 'POST', `/deliveries/${id}/return`, { reasonCode: 'customer_unreachable' })).json.accepted,
    ).toBe(false);
    const update = await call(p, 'PATCH', `/deliveries/${id}`, { notes: null, customerName: 'B', amount: 23.5 });
    expect(update.json.fieldAccepted).toEqual({ notes: true, customerName: true, amount: true });
    expect((await call(p, 'PATCH', `/deliveries/${id}`, { dropoffLat: area.dropoff.lat })).status).toBe(422);
    expect((await call(p, 'POST', `/deliveries/${id}/cancel`, { stage: 'later' })).status).toBe(422);
    expect((await call(p, 'POST', `/deliveries/${id}/cancel`, { stage: 'before_pickup' })).json).toEqual({
      confirmed: true,
    });
    expect((await call(p, 'POST', `/deliveries/${id}/cancel`, { stage: 'before_pickup' })).json).toEqual({
      confirmed: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events(body.platformReference as string).map((e) => e.eventType)).toEqual([
      'delivery.accepted',
      'delivery.cancelled',
    ]);
    const late = await call(p, 'PATCH', `/deliveries/${id}`, { notes: 'late' });
    expect(late.json.fieldAccepted).toEqual({ notes: false });
  });

  it('returns a delivery caught on the way, through the return statuses', async () => {
    // A slower courier: on the way for 5 steps of 150 ms, time enough to catch it there under load.
    const p = await provider([], 150);
    const body = request();
    const id = (await call(p, 'POST', '/deliveries', body)).json.providerDeliveryId;
    await waitFor(
      'on_the_way',
      async () => (await call(p, 'GET', `/deliveries/${id}/status`)).json.status === 'on_the_way',
    );
    expect((await call(p, 'POST', `/deliveries/${id}/return`, {})).status).toBe(422);
    expect((await call(p, 'POST', `/deliveries/${id}/return`, { reasonCode: 'customer_unreachable' })).json).toEqual({
      accepted: true,
    });
    const statuses = (): string[] => events(body.platformReference as string).map((e) => e.status);
    await waitFor('the returned_to_origin event', () => statuses().includes('returned_to_origin'));
    expect((await call(p, 'GET', `/deliveries/${id}/status`)).json.status).toBe('returned_to_origin');
    expect(statuses().slice(statuses().indexOf('return_requested'))).toEqual([
      'return_requested',
      'returning_to_origin',
      'returning_to_origin',
      'returned_to_origin',
    ]);
  });

  it('retries a callback answered 503 with the same bytes', async () => {
    const body = request({ preparationTimeMinutes: 120 });
    const path = `/cb/${body.platformReference as string}`;
    const previous = receiver.respond;
    receiver.respond = (req, nth) => (req.path === path && nth === 1 ? 503 : 204);
    try {
      await call(p, 'POST', '/deliveries', body);
      await waitFor('a retry', () => receiver.at(path).length >= 2);
      const [first, second] = receiver.at(path);
      expect(second!.body.equals(first!.body)).toBe(true);
      expect(second!.headers['x-platform-signature']).toBe(first!.headers['x-platform-signature']);
    } finally {
      receiver.respond = previous;
    }
  });

  it('sends a signed webhook.test', async () => {
    const answer = await call(p, 'POST', '/webhooks/test', { url: `${receiver.url}/cb/webhook-test` });
    expect(answer.json).toEqual({ testId: expect.any(String), delivered: true, responseStatus: 204 });
    const [received] = receiver.at('/cb/webhook-test');
    expect(verifyPlatformSignature(received!, p.webhookSecret)).toBe(true);
  });
});

describe('faulty provider defects, each seen directly', () => {
  it('concurrentReplayDuplicates: concurrent identical creates make several deliveries', async () => {
    const p = await provider(['concurrentReplayDuplicates']);
    const body = request({ preparationTimeMinutes: 120 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(p, 'POST', '/deliveries', body)));
    expect(new Set(answers.map((a) => a.json.providerDeliveryId)).size).toBeGreaterThan(1);
  });

  it('eventAfterTerminal: a location update on the way after delivery.delivered', async () => {
    const p = await provider(['eventAfterTerminal']);
    const body = request();
    await call(p, 'POST', '/deliveries', body);
    const reference = body.platformReference as string;
    await waitFor(
      'the late event',
      () =>
        events(reference).at(-1)?.eventType === 'driver.location_updated' &&
        events(reference).some((e) => e.eventType === 'delivery.delivered'),
    );
    expect(events(reference).at(-1)).toMatchObject({ status: 'on_the_way' });
  });

  it('wrongSignature: delivery events fail the signature, the webhook test still passes', async () => {
    const p = await provider(['wrongSignature']);
    const body = request({ preparationTimeMinutes: 120 });
    await call(p, 'POST', '/deliveries', body);
    const path = `/cb/${body.platformReference as string}`;
    await waitFor('delivery.accepted', () => receiver.at(path).length > 0);
    expect(verifyPlatformSignature(receiver.at(path)[0]!, p.webhookSecret)).toBe(false);
    await call(p, 'POST', '/webhooks/test', { url: `${receiver.url}/cb/webhook-test-wrong` });
    expect(verifyPlatformSignature(receiver.at('/cb/webhook-test-wrong')[0]!, p.webhookSecret)).toBe(true);
  });

  it('unknownDeliveryOk: GET status of an unknown delivery answers 200', async () => {
    const p = await provider(['unknownDeliveryOk']);
    expect((await call(p, 'GET', '/deliveries/unknown/status')).status).toBe(200);
    expect((await call(p, 'GET', '/deliveries/unknown/tracking')).status).toBe(404);
  });

  it('inventedStatus: a tracking.updated with status en_route while on the way', async () => {
    const p = await provider(['inventedStatus']);
    const body = request();
    await call(p, 'POST', '/deliveries', body);
    const reference = body.platformReference as string;
    await waitFor('delivery.delivered', () => events(reference).some((e) => e.eventType === 'delivery.delivered'));
    expect(events(reference).filter((e) => e.status === 'en_route')).toEqual([
      expect.objectContaining({ eventType: 'tracking.updated' }),
    ]);
  });

  it('redirect: a request without Authorization is sent to /login', async () => {
    const p = await provider(['redirect']);
    const answer = await call(p, 'POST', '/deliveries', request(), null);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/login');
    expect((await call(p, 'POST', '/deliveries', request(), 'Bearer wrong')).status).toBe(401);
  });
});
