import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { providerCallbacksAdminApiDocument } from '@marketplace/contracts';
import {
  localEnv,
  signTestBearerToken,
  sleep,
  startReceiver,
  verifyPlatformSignature,
  waitFor,
  type Received,
  type Receiver,
} from '@marketplace/testing';
import { startWebhookCluster, type WebhookCluster } from './support/cluster';
import { connectedSource } from './support/partner';
import {
  deliveryEvent,
  flatEvent,
  providerEventsPublisher,
  rotationEvent,
  testAccount,
  testProviderDelivery,
  type TestAccount,
  type TestProviderDelivery,
} from './support/provider-events';

// End to end: provider-delivery's events on `provider-events` (published here, as its outbox
// will) become signed callbacks at a real receiver. Retry delays are divided by 100 (30 s → 300
// ms, the 10-minute cap → 6 s, a Retry-After's 1-hour cap → 36 s), so that a retry stands apart
// from a repeat of one attempt and a Retry-After can hold a callback pending while a test acts.
//
// Isolation: every sender on the local stack reads `provider-events` (other test files' clusters,
// `npm start`), and would send these callbacks too. So this cluster's gateway and sender get a
// WEBHOOK_SECRET_TRANSPORT_KEY of their own, which the events are sealed with: no other sender
// opens them. Another sender still creates its own copy of each callback (its id comes from the
// event) and publishes its first attempt on the shared attempt topic, where this sender may take
// it for its own: one attempt can reach the receiver twice within milliseconds (at least once, as
// the contract allows). The receiver's answers depend on time, not on a request count, and
// attempts are counted in the sender's records.
//
// The sender exports its spans to a collector here, which, like its log, must never see a
// callback's token or a signing secret.
let cluster: WebhookCluster;
let receiver: Receiver;
let publisher: Awaited<ReturnType<typeof providerEventsPublisher>>;
let collector: Server;
const exported: string[] = [];
const transportKey = randomBytes(32);
/** Every token and secret handed to the sender, to look for where they must not be. */
const secrets: string[] = [];

/** The first callbacks wait for the sender's new consumer group to join and read the topic's history. */
const FIRST_WAIT_MS = 45_000;
/** Requests closer than this are one attempt made twice; a retry comes at least 240 ms later. */
const SAME_ATTEMPT_MS = 150;

const adminKey = () => Buffer.from(localEnv().PROVIDER_ADMIN_TOKEN_SECRET!, 'base64');
const hour = () => new Date(Date.now() + 3_600_000);
const adminToken = () => signTestBearerToken(adminKey(), { role: 'admin', sub: 'provider-ops' }, hour());

/** The administrator API of provider callbacks, with a token (the administrator's unless told). */
async function admin(method: string, path: string, token: string | null = adminToken()) {
  const res = await fetch(`${cluster.sender.url}/admin/v1/provider-callbacks${path}`, {
    method,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const eventTypeOf = (r: Received) => JSON.parse(r.body.toString('utf8')).eventType as string;

/** The receiver's answer: `early` to what comes within SAME_ATTEMPT_MS of the path's first request, 200 after. */
function answerFirstAttempt(path: string, early: number | { status: number; headers: Record<string, string> }) {
  receiver.respond = (req) => {
    if (req.path !== path) return 200;
    const first = receiver.at(path)[0]!;
    return req.at - first.at < SAME_ATTEMPT_MS ? early : 200;
  };
}

function account(rotatedAt?: Date): TestAccount {
  const created = testAccount(transportKey, undefined, rotatedAt);
  secrets.push(created.secret);
  return created;
}

function providerDelivery(of: TestAccount): TestProviderDelivery & { got(): Received[] } {
  const created = testProviderDelivery(transportKey, of, receiver.url);
  secrets.push(created.token);
  return { ...created, got: () => receiver.at(created.path) };
}

/** The callbacks of a provider delivery as the administrator API lists them, newest first. */
async function callbacksOf(d: TestProviderDelivery): Promise<any[]> {
  const res = await admin('GET', `?accountId=${d.account.accountId}&providerDeliveryId=${d.providerDeliveryId}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Waits for the callback of `eventType` of the delivery to satisfy `wanted`. */
async function callbackOf(d: TestProviderDelivery, eventType: string, wanted: (c: any) => boolean = () => true) {
  return waitFor(`the ${eventType} callback`, async () => {
    const found = (await callbacksOf(d)).find((c) => c.type === eventType);
    return found && wanted(found) ? found : undefined;
  });
}

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      exported.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  receiver = await startReceiver();
  publisher = await providerEventsPublisher();
  const key = { WEBHOOK_SECRET_TRANSPORT_KEY: transportKey.toString('base64') };
  cluster = await startWebhookCluster(
    {
      ...key,
      WEBHOOK_RETRY_TIME_SCALE: '100',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
    key,
  );
}, 180_000);

afterEach(() => {
  receiver.respond = () => 200;
});

afterAll(async () => {
  await cluster?.stop();
  await publisher?.close();
  await receiver?.close();
  await new Promise((resolve) => collector?.close(resolve));
});

describe('a delivery event with a callback', () => {
  it('reaches the callback as the exact bytes of the flat event, signed with X-Platform-Signature', async () => {
    const d = providerDelivery(account());
    const body = flatEvent(d, 'delivery.accepted', 'provider_accepted');
    await publisher.publish([deliveryEvent(d, body, false)]);
    const [got] = await waitFor('the callback', () => (d.got().length >= 1 ? d.got() : undefined), FIRST_WAIT_MS);

    expect(got!.body.equals(Buffer.from(JSON.stringify(body), 'utf8'))).toBe(true);
    expect(got!.headers['content-type']).toBe('application/json; charset=utf-8');
    // The contract's signature, computed here from the raw bytes received.
    const expected = createHmac('sha256', d.account.secret).update(got!.body).digest('hex');
    expect(got!.headers['x-platform-signature']).toBe(expected);
    expect(verifyPlatformSignature(got!, d.account.secret)).toBe(true);
    expect(verifyPlatformSignature(got!, `${d.account.secret}x`)).toBe(false);
    expect(Object.keys(got!.headers).filter((h) => h.startsWith('x-marketplace-'))).toEqual([]);

    const listed = await callbackOf(d, 'delivery.accepted', (c) => c.status === 'delivered');
    expect(listed).toMatchObject({
      accountId: d.account.accountId,
      providerDeliveryId: d.providerDeliveryId,
      terminal: false,
      callbackOrigin: receiver.url,
      attemptCount: 1,
      attempts: [expect.objectContaining({ statusCode: 200, verdict: 'delivered' })],
    });
    const one = await admin('GET', `/${listed.id}`);
    expect(one.body.body).toEqual(body);
    expect(one.text).not.toContain(d.token);
  });

  it('retries a 503 after the Retry-After it asks for, with the same bytes and signature', async () => {
    const d = providerDelivery(account());
    // 60 seconds, divided by 100: 600 ms, where the backoff alone would wait 240 to 360 ms.
    answerFirstAttempt(d.path, { status: 503, headers: { 'retry-after': '60' } });
    await publisher.publish([deliveryEvent(d, flatEvent(d, 'driver.assigned', 'driver_assigned'), false)]);
    const callback = await waitFor(
      'delivered after a retry',
      async () => {
        const found = (await callbacksOf(d))[0];
        return found?.status === 'delivered' ? found : undefined;
      },
      FIRST_WAIT_MS,
    );
    expect(callback.attempts.map((a: any) => [a.attempt, a.statusCode, a.verdict])).toEqual([
      [1, 503, 'retry'],
      [2, 200, 'delivered'],
    ]);
    expect(Date.parse(callback.attempts[1].at) - Date.parse(callback.attempts[0].at)).toBeGreaterThanOrEqual(550);
    const got = d.got();
    expect(got.at(-1)!.at - got[0]!.at).toBeGreaterThanOrEqual(550);
    for (const r of got) {
      expect(r.body.equals(got[0]!.body)).toBe(true);
      expect(r.headers['x-platform-signature']).toBe(got[0]!.headers['x-platform-signature']);
    }
  });

  it('does not retry a 400: the callback fails for good', async () => {
    const d = providerDelivery(account());
    receiver.respond = (req) => (req.path === d.path ? 400 : 200);
    await publisher.publish([deliveryEvent(d, flatEvent(d, 'eta.updated', 'driver_assigned'), false)]);
    const callback = await callbackOf(d, 'eta.updated', (c) => c.status === 'failed');
    expect(callback).toMatchObject({ reason: 'the receiver answered 400', attemptCount: 1 });
    await sleep(800); // longer than the first retry would wait (at most 360 ms)
    const [first, ...rest] = d.got();
    expect(rest.filter((r) => r.at - first!.at >= SAME_ATTEMPT_MS)).toEqual([]);
    expect((await callbackOf(d, 'eta.updated')).attemptCount).toBe(1);
  });

  it('sends nothing for an event of a delivery without a callback (the platform polls)', async () => {
    const d = providerDelivery(account());
    const event = deliveryEvent(d, flatEvent(d, 'delivery.accepted', 'provider_accepted'), false);
    (event.data as { delivery: { callbackUrlSealed: string | null } }).delivery.callbackUrlSealed = null;
    await publisher.publish([event, deliveryEvent(d, flatEvent(d, 'driver.assigned', 'driver_assigned'), false)]);
    // The second event (with a callback) arrives, so the first, on the same partition, was read before it.
    await waitFor('the event with a callback', () => d.got().length >= 1 || undefined, FIRST_WAIT_MS);
    await sleep(200);
    expect(new Set(d.got().map(eventTypeOf))).toEqual(new Set(['driver.assigned']));
    expect((await callbacksOf(d)).map((c) => c.type)).toEqual(['driver.assigned']);
  });
});

describe('the terminal rule', () => {
  it('cancels a failing nonterminal event once a terminal event of its delivery was received, and refuses its redelivery', async () => {
    const d = providerDelivery(account());
    // The location update keeps failing, each retry a second later (Retry-After: 100 s, scaled);
    // the terminal event is taken at once.
    receiver.respond = (req) =>
      req.path === d.path && eventTypeOf(req) === 'driver.location_updated'
        ? { status: 503, headers: { 'retry-after': '100' } }
        : 200;
    await publisher.publish([deliveryEvent(d, flatEvent(d, 'driver.location_updated', 'on_the_way'), false)]);
    await waitFor('the first location update', () => d.got().length >= 1 || undefined, FIRST_WAIT_MS);
    await publisher.publish([deliveryEvent(d, flatEvent(d, 'delivery.delivered', 'delivered'), true)]);
    const delivered = await waitFor('the terminal event', () =>
      d.got().find((r) => eventTypeOf(r) === 'delivery.delivered'),
    );

    const location = await callbackOf(d, 'driver.location_updated', (c) => c.status !== 'pending');
    expect(location).toMatchObject({
      status: 'cancelled',
      reason: 'superseded: a terminal event of the delivery was sent',
      terminal: false,
    });
    expect(location.attemptCount).toBeLessThan(8);
    await sleep(1_500); // longer than the location update's next retry would have waited
    // Nothing nonterminal after the terminal event (an attempt already on the wire when it came
    // may land just after it; none is started later).
    const locations = d.got().filter((r) => eventTypeOf(r) === 'driver.location_updated');
    expect(locations.filter((r) => r.at > delivered.at + 100)).toEqual([]);

    const refused = await admin('POST', `/${location.id}/redeliver`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'provider_callback.superseded' } });
    const terminal = await callbackOf(d, 'delivery.delivered', (c) => c.status === 'delivered');
    expect((await admin('POST', `/${terminal.id}/redeliver`)).status).toBe(202);
    await callbackOf(d, 'delivery.delivered', (c) => c.status === 'delivered' && c.round === 2);
    await sleep(300);
    expect(d.got().filter((r) => eventTypeOf(r) === 'driver.location_updated')).toEqual(locations);
  });
});

describe("the account's signing secret", () => {
  it('signs the next attempt with a secret rotated meanwhile; an older one read later changes nothing', async () => {
    const first = account(new Date(Date.now() - 60_000));
    const d = providerDelivery(first);
    let rotated = false;
    receiver.respond = (req) =>
      req.path === d.path && !rotated ? { status: 503, headers: { 'retry-after': '100' } } : 200;
    await publisher.publish([deliveryEvent(d, flatEvent(d, 'tracking.updated', 'driver_assigned'), false)]);
    const [before] = await waitFor(
      'the first attempt',
      () => (d.got().length >= 1 ? d.got() : undefined),
      FIRST_WAIT_MS,
    );
    expect(verifyPlatformSignature(before!, first.secret)).toBe(true);

    const second = testAccount(transportKey, first.accountId, new Date());
    secrets.push(second.secret);
    await publisher.publish([rotationEvent(second)]);
    await waitFor("the sender's copy of the new secret", async () => {
      const copy = await cluster.senderDb
        .collection('provider_account_secrets')
        .findOne({ _id: first.accountId as never });
      return copy?.rotatedAt?.toISOString() === second.webhookSecret.rotatedAt || undefined;
    });
    rotated = true;
    await callbackOf(d, 'tracking.updated', (c) => c.status === 'delivered');
    const last = d.got().at(-1)!;
    expect(last.body.equals(before!.body)).toBe(true);
    expect(verifyPlatformSignature(last, second.secret)).toBe(true);
    expect(verifyPlatformSignature(last, first.secret)).toBe(false);

    // An event published before the rotation, read after it, carries the old secret: kept out.
    const late = providerDelivery(first);
    await publisher.publish([deliveryEvent(late, flatEvent(late, 'delivery.accepted', 'provider_accepted'), false)]);
    const [got] = await waitFor('the late event', () => (late.got().length >= 1 ? late.got() : undefined));
    expect(verifyPlatformSignature(got!, second.secret)).toBe(true);
  });
});

describe('the administrator API', () => {
  it('answers only an administrator token of provider-delivery, with Cache-Control: no-store', async () => {
    const a = account();
    const marketplaceAdmin = signTestBearerToken(
      Buffer.from(localEnv().MARKETPLACE_TOKEN_SECRET!, 'base64'),
      { role: 'admin', sub: 'marketplace' },
      hour(),
    );
    const tenant = signTestBearerToken(adminKey(), { role: 'tenant', sub: 't', tid: a.accountId }, hour());
    for (const token of [null, 'not-a-token', marketplaceAdmin, tenant]) {
      for (const [method, path] of [
        ['GET', `?accountId=${a.accountId}`],
        ['GET', '/openapi.json'],
        ['POST', `/${a.accountId}/redeliver`],
      ] as const) {
        const res = await admin(method, path, token);
        expect({ method, path, status: res.status, code: res.body?.code }).toEqual({
          method,
          path,
          status: 401,
          code: 'auth.unauthenticated',
        });
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    }
    const document = await admin('GET', '/openapi.json');
    expect(document).toMatchObject({ status: 200, body: providerCallbacksAdminApiDocument });
    expect(document.headers.get('cache-control')).toBe('no-store');
  });

  it('redelivers a finished callback (the same bytes), refuses one still pending, and checks its query', async () => {
    const d = providerDelivery(account());
    // The first attempt is asked to come back after 300 s, scaled: 3 s pending.
    answerFirstAttempt(d.path, { status: 503, headers: { 'retry-after': '300' } });
    await publisher.publish([deliveryEvent(d, flatEvent(d, 'delivery.picked_up', 'picked_up'), false)]);
    await waitFor('the first attempt', () => d.got().length >= 1 || undefined, FIRST_WAIT_MS);
    const pending = await callbackOf(d, 'delivery.picked_up', (c) => c.attemptCount === 1);
    expect(pending.status).toBe('pending');
    const busy = await admin('POST', `/${pending.id}/redeliver`);
    expect(busy).toMatchObject({ status: 409, body: { code: 'webhook.delivery_in_progress' } });

    await callbackOf(d, 'delivery.picked_up', (c) => c.status === 'delivered');
    const before = d.got().length;
    const again = await admin('POST', `/${pending.id}/redeliver`);
    expect(again).toMatchObject({ status: 202, body: { id: pending.id, status: 'pending', round: 2 } });
    expect(again.headers.get('cache-control')).toBe('no-store');
    const redelivered = await waitFor('the redelivery', () => d.got()[before]);
    expect(redelivered.body.equals(d.got()[0]!.body)).toBe(true);
    expect(verifyPlatformSignature(redelivered, d.account.secret)).toBe(true);
    const done = await callbackOf(d, 'delivery.picked_up', (c) => c.status === 'delivered' && c.round === 2);
    expect(done.attempts.map((a: any) => [a.round, a.attempt, a.statusCode])).toEqual([
      [1, 1, 503],
      [1, 2, 200],
      [2, 1, 200],
    ]);

    expect((await admin('GET', '')).body).toMatchObject({
      code: 'request.invalid',
      errors: { accountId: expect.any(Array) },
    });
    expect((await admin('GET', `?accountId=${d.account.accountId}&status=lost`)).status).toBe(400);
    expect((await admin('GET', `/${d.providerDeliveryId}`)).status).toBe(404);
    expect((await admin('POST', `/${d.providerDeliveryId}/redeliver`)).status).toBe(404);
  });
});

describe('tenants', () => {
  it('never see a provider callback: not listed, not found, not redelivered', async () => {
    const d = providerDelivery(account());
    await publisher.publish([deliveryEvent(d, flatEvent(d, 'delivery.accepted', 'provider_accepted'), false)]);
    const callback = await waitFor('the callback', async () => (await callbacksOf(d))[0], FIRST_WAIT_MS);

    const s = await connectedSource(cluster, `${receiver.url}/hooks/tenant-${d.providerDeliveryId}`);
    const test = await s.webhooks('POST', `/installations/${s.installationId}/test`);
    expect(test.status).toBe(202);
    const listed = await s.webhooks('GET', `/installations/${s.installationId}/deliveries`);
    expect(listed.body.map((x: any) => x.id)).toEqual([test.body.id]);
    expect((await s.webhooks('GET', `/deliveries/${callback.id}`)).status).toBe(404);
    expect((await s.webhooks('POST', `/deliveries/${callback.id}/redeliver`)).status).toBe(404);
    // Nor does the administrator API show a partner webhook.
    expect((await admin('GET', `/${test.body.id}`)).status).toBe(404);
  });
});

describe('what leaves the process', () => {
  it('counts provider callbacks by kind and event type, never naming an account or a URL', async () => {
    const text = await (await fetch(`${cluster.sender.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
    expect(text).toMatch(
      /webhook_attempts_total\{kind="provider-callback",type="delivery.accepted",verdict="delivered"[^}]*\} [1-9]/,
    );
    expect(text).toMatch(/webhook_deliveries_ended_total\{kind="provider-callback",status="cancelled"[^}]*\} [1-9]/);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('/callbacks/');
  });

  it('never writes a callback token or a signing secret to the log or to a span', async () => {
    // Spans are exported in batches: wait for one naming the receiver (its origin only).
    await waitFor('an exported span of a callback attempt', () =>
      exported.some((e) => e.includes(receiver.url)) ? true : undefined,
    );
    const log = cluster.sender.output();
    expect(log).toContain('webhook attempt'); // the attempts were logged, by ids
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(log.includes(secret)).toBe(false);
      expect(exported.some((e) => e.includes(secret))).toBe(false);
    }
    expect(log).not.toContain('/callbacks/');
    expect(exported.some((e) => e.includes('/callbacks/'))).toBe(false);
  });
});
