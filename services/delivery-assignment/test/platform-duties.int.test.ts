import { createHmac, randomBytes } from 'node:crypto';
import { recordIssuedSecret, sleep, waitFor } from '@marketplace/testing';
import { restaurant, startDeliveryCluster, type DeliveryCluster, type Restaurant } from './support/cluster';
import {
  envelope,
  startScriptedProvider,
  type DeliveryScript,
  type ScriptedProvider,
} from './support/scripted-provider';

// The marketplace's duties as a platform of the Standard Delivery Provider Contract
// (shared/spec/delivery-provider-contract-v1.md), proven from outside against a SCRIPTED provider
// in this process (support/scripted-provider.ts): the create retried with the same identity, at
// most 3 attempts, Retry-After honoured, no redirect followed, a business rejection taken as
// final; the per-delivery callback checked in the contract's order (token, signature, body,
// correlation, lifecycle); convergence by reading status and tracking when callbacks go quiet or
// fail their signature; cancels sent once with the right stage; and the headers of every call.
//
// Three connections to the same scripted provider (same base URL, separate API keys and signing
// secrets), so a capability one test needs does not disturb another: `core` only (creates and
// callbacks, never polled), `core` + polling + tracking (convergence), `core` + cancellation.

const QUIET_SECONDS = 3;
/** How long a test waits to be sure something does NOT happen (a retry would come after 1 s). */
const NOTHING_MORE_MS = 3_000;

interface Connection {
  name: string;
  connectionId: string;
  installationId: string;
  apiKey: string;
  signingSecret: string;
}

interface Dispatched {
  orderId: string;
  assignmentId: string;
  connection: Connection;
}

let cluster: DeliveryCluster;
let r: Restaurant;
let provider: ScriptedProvider;
let coreOnly: Connection;
let polled: Connection;
let cancellable: Connection;
/** Which connection each assignment went to: the API key its calls must carry. */
const connectionOf = new Map<string, Connection>();

async function connect(name: string, capabilities: string[]): Promise<Connection> {
  const apiKey = `sk_scripted_${randomBytes(18).toString('base64url')}`;
  const signingSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  recordIssuedSecret('scripted provider API key', apiKey);
  recordIssuedSecret('scripted provider signing secret', signingSecret);
  const registered = await r.tenant.call('POST', '/api/tenant/v1/provider-connections', {
    name,
    baseUrl: provider.baseUrl,
    apiKey,
    signingSecret,
    contract: { version: '1.1.0', revision: '2026-09-19' },
  });
  if (registered.status !== 201) throw new Error(`connection: ${registered.status} ${JSON.stringify(registered.body)}`);
  for (const capability of capabilities) {
    const granted = await cluster.gateway.admin.call(
      'POST',
      `/api/admin/v1/provider-connections/${registered.body.connectionId}/capabilities`,
      { capability, enabled: true, reason: 'scripted provider of platform-duties.int.test.ts' },
    );
    if (granted.status !== 200)
      throw new Error(`grant ${capability}: ${granted.status} ${JSON.stringify(granted.body)}`);
  }
  return {
    name,
    connectionId: registered.body.connectionId,
    installationId: registered.body.installationId,
    apiKey,
    signingSecret,
  };
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  cluster = await startDeliveryCluster({ deliveryEnv: { DISPATCH_QUIET_SECONDS: String(QUIET_SECONDS) } });
  r = await restaurant(cluster);
  coreOnly = await connect('Scripted Fleet (core)', ['core']);
  polled = await connect('Scripted Fleet (polled)', ['core', 'supportsPolling', 'supportsTracking']);
  cancellable = await connect('Scripted Fleet (cancellable)', ['core', 'supportsCancellation']);
}, 240_000);

afterAll(async () => {
  await provider?.close();
  await cluster?.stop();
}, 60_000);

/** A new Delivery order assigned to the connection, its create answered per `script`. */
async function dispatched(connection: Connection, script: DeliveryScript = {}): Promise<Dispatched> {
  const { orderId } = await r.deliveryOrder();
  const assigned = await r.assign(orderId, connection.installationId);
  expect(assigned.status).toBe(201);
  const assignmentId: string = assigned.body.assignmentId;
  provider.script(assignmentId, script);
  connectionOf.set(assignmentId, connection);
  return { orderId, assignmentId, connection };
}

/** The assignment as the tenant sees it, live or ended. */
async function assignmentOf(d: Dispatched): Promise<Record<string, any> | undefined> {
  const res = await r.delivery(d.orderId);
  expect(res.status).toBe(200);
  const { live, history } = res.body as { live: any; history: any[] };
  return live?.assignmentId === d.assignmentId ? live : history.find((a) => a.assignmentId === d.assignmentId);
}

const statusOf = async (d: Dispatched) => (await assignmentOf(d))?.statusName as string | undefined;

const reaches = (d: Dispatched, status: string, timeoutMs = 30_000) =>
  waitFor(
    `assignment ${d.assignmentId} ${status}`,
    async () => ((await statusOf(d)) === status ? await assignmentOf(d) : undefined),
    timeoutMs,
  );

/** The order's (only) dispatch, as the tenant reads it. */
async function dispatchOf(d: Dispatched): Promise<Record<string, any>> {
  const res = await r.tenant.call('GET', `/api/tenant/v1/deliveries/${d.orderId}/dispatch`);
  expect(res.status).toBe(200);
  expect(res.body.dispatches).toHaveLength(1);
  return res.body.dispatches[0];
}

const decisionsOf = async (d: Dispatched) =>
  ((await dispatchOf(d)).log as Array<{ decision: string; reason: string }>).map((l) => l.decision);

const logged = (d: Dispatched, decision: string, timeoutMs = 30_000) =>
  waitFor(
    `the dispatch log of ${d.assignmentId} to say ${decision}`,
    async () =>
      ((await dispatchOf(d)).log as Array<{ decision: string; reason: string }>).find((l) => l.decision === decision),
    timeoutMs,
  );

/** The scripted provider's delivery for the assignment, once accepted. */
const providerDelivery = (d: Dispatched) =>
  waitFor(`the scripted delivery of ${d.assignmentId}`, () => provider.deliveryOf(d.assignmentId), 30_000);

const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** POSTs a callback the way a provider does: the exact bytes, signed with `secret` (null: no signature). */
async function postCallback(
  url: string,
  body: unknown,
  options: { secret?: string | null; signature?: string } = {},
): Promise<{ status: number; body: any; contentType: string | null }> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const signature =
    options.signature ?? (options.secret === null ? undefined : hmac(options.secret ?? coreOnly.signingSecret, raw));
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === undefined ? {} : { 'x-platform-signature': signature }),
    },
    body: raw,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : undefined,
    contentType: res.headers.get('content-type'),
  };
}

/** The callback URL the platform sent with the delivery's first create. */
function callbackUrlOf(d: Dispatched): string {
  const url: string = provider.createsFor(d.assignmentId)[0]!.json.webhook.url;
  expect(url.startsWith(`${cluster.delivery.url}/api/provider-callbacks/v1/`)).toBe(true);
  recordIssuedSecret('callback token', url.split('/').pop());
  return url;
}

const event = (
  d: Dispatched,
  providerDeliveryId: string,
  eventType: string,
  status: string,
  at: Date,
  extra: Record<string, unknown> = {},
) => ({
  eventType,
  platformReference: d.assignmentId,
  providerDeliveryId,
  status,
  eventTimeUtc: at.toISOString(),
  ...extra,
});

/** The contract's error envelope, with this code. */
const expectEnvelope = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ code, message: expect.any(String), retryable: expect.any(Boolean) });
};

describe('the create (POST /deliveries)', () => {
  it('is retried after 503 with Retry-After, with the same identity and callback, waiting as asked; then accepted', async () => {
    const d = await dispatched(coreOnly, {
      create: (attempt) =>
        attempt <= 2 ? envelope(503, 'provider.unavailable', true, { 'retry-after': '2' }) : undefined,
    });
    await reaches(d, 'Accepted');
    const creates = provider.createsFor(d.assignmentId);
    expect(creates).toHaveLength(3);
    const [first] = creates;
    expect(first!.json).toMatchObject({ platformReference: d.assignmentId, idempotencyKey: d.assignmentId });
    expect(first!.json.webhook.url).toEqual(expect.stringContaining('/api/provider-callbacks/v1/'));
    // Every attempt is the very same request: reference, key, callback URL, payload.
    for (const again of creates.slice(1)) expect(again.json).toEqual(first!.json);
    // Retry-After: 2 was waited for (the platform's own backoff would be 1 s, then 4 s).
    const gaps = creates.slice(1).map((c, i) => c.at - creates[i]!.at);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(1_900);
      expect(gap).toBeLessThan(3_800);
    }
    const dispatch = await dispatchOf(d);
    expect(dispatch.providerDeliveryId).toBe(provider.deliveryOf(d.assignmentId)!.providerDeliveryId);
    expect(dispatch.providerStatus).toBe('provider_accepted');
    expect(await decisionsOf(d)).toEqual(expect.arrayContaining(['chosen', 'created']));
  }, 60_000);

  it('is attempted at most 3 times after repeated 503, then the assignment ends Rejected and the log says create_failed', async () => {
    const d = await dispatched(coreOnly, {
      create: () => envelope(503, 'provider.unavailable', true, { 'retry-after': '1' }),
    });
    const failed = await logged(d, 'create_failed');
    expect(failed.reason).toMatch(/after 3 attempt\(s\): HTTP 503 provider\.unavailable/);
    await reaches(d, 'Rejected');
    await sleep(NOTHING_MORE_MS); // a 4th attempt would come 1 s after the 3rd
    expect(provider.createsFor(d.assignmentId)).toHaveLength(3);
  }, 60_000);

  it('does not follow a redirect (302 or 307): the target never hears of it, and the create fails without a retry', async () => {
    const redirects = [302, 307].map(async (status) => {
      const target = `/elsewhere-${status}/v1/deliveries`;
      const d = await dispatched(coreOnly, {
        create: () => ({ status, headers: { location: `${provider.origin}${target}` } }),
      });
      const failed = await logged(d, 'create_failed');
      expect(failed.reason).toMatch(new RegExp(`after 1 attempt\\(s\\): HTTP ${status}`));
      await reaches(d, 'Rejected');
      return { d, target };
    });
    const outcomes = await Promise.all(redirects);
    await sleep(NOTHING_MORE_MS); // a retry would come 1 s after the answer
    for (const { d, target } of outcomes) {
      expect(provider.createsFor(d.assignmentId)).toHaveLength(1);
      expect(provider.requests.filter((req) => req.path.startsWith(target.split('/v1')[0]!))).toEqual([]);
    }
  }, 60_000);

  it('takes a business rejection (200 accepted:false) as final: the assignment ends Rejected with the reason logged', async () => {
    const d = await dispatched(coreOnly, {
      create: () => ({ status: 200, body: { accepted: false, rejectionReason: 'outside the service area' } }),
    });
    const rejected = await logged(d, 'rejected');
    expect(rejected.reason).toMatch(/outside the service area/);
    await reaches(d, 'Rejected');
    expect((await dispatchOf(d)).providerDeliveryId).toBeNull();
    await sleep(NOTHING_MORE_MS);
    expect(provider.createsFor(d.assignmentId)).toHaveLength(1);
  }, 60_000);

  it('gives up on an answer after the 15 s timeout and retries with the same identity', async () => {
    const d = await dispatched(coreOnly, {
      create: (attempt) => (attempt === 1 ? { status: 200, delayMs: 22_000, close: true } : undefined),
    });
    await reaches(d, 'Accepted', 45_000);
    const creates = provider.createsFor(d.assignmentId);
    expect(creates).toHaveLength(2);
    expect(creates[1]!.json).toEqual(creates[0]!.json);
    // 15 s of timeout, then the 1 s backoff; not the 22 s the provider held the first one.
    const gap = creates[1]!.at - creates[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(15_000);
    expect(gap).toBeLessThan(19_000);
  }, 60_000);

  it('reads no answer larger than 5 MiB: it counts as no answer and is retried', async () => {
    const padded = JSON.stringify({
      accepted: true,
      providerDeliveryId: 'too-big',
      padding: 'x'.repeat(5 * 1024 * 1024 + 1_024),
    });
    const d = await dispatched(coreOnly, {
      create: (attempt) => (attempt === 1 ? { status: 200, body: padded } : undefined),
    });
    await reaches(d, 'Accepted');
    expect(provider.createsFor(d.assignmentId)).toHaveLength(2);
    const dispatch = await dispatchOf(d);
    expect(dispatch.providerDeliveryId).not.toBe('too-big');
    expect(dispatch.providerDeliveryId).toBe(provider.deliveryOf(d.assignmentId)!.providerDeliveryId);
  }, 60_000);
});

describe('the per-delivery callback', () => {
  it('checks token, signature, status vocabulary, correlation and lifecycle, in that order', async () => {
    const d = await dispatched(coreOnly);
    await reaches(d, 'Accepted');
    const url = callbackUrlOf(d);
    const { providerDeliveryId } = await providerDelivery(d);
    const t0 = Date.now();
    const at = (seconds: number) => new Date(t0 + seconds * 1000);
    const driver = event(d, providerDeliveryId, 'driver.assigned', 'driver_assigned', at(1), {
      driverName: 'Kim Driver',
      driverPhone: '+49 170 5550101',
    });

    // Token: one no delivery has (well-formed or not) is 404 callback.unknown, even signed right.
    const unknown = await postCallback(
      `${cluster.delivery.url}/api/provider-callbacks/v1/${randomBytes(32).toString('base64url')}`,
      driver,
    );
    expectEnvelope(unknown, 404, 'callback.unknown');
    expect(unknown.contentType).toMatch(/^application\/json/);
    expectEnvelope(
      await postCallback(`${cluster.delivery.url}/api/provider-callbacks/v1/nope`, driver),
      404,
      'callback.unknown',
    );
    // The token is checked before the signature.
    const unsigned = await postCallback(
      `${cluster.delivery.url}/api/provider-callbacks/v1/${randomBytes(32).toString('base64url')}`,
      driver,
      { secret: null },
    );
    expectEnvelope(unsigned, 404, 'callback.unknown');

    // Signature: wrong secret, missing, or over other bytes is 401, and nothing is taken.
    const before = await dispatchOf(d);
    const raw = JSON.stringify(driver);
    for (const bad of [
      postCallback(url, driver, { secret: `whsec_${randomBytes(24).toString('base64url')}` }),
      postCallback(url, driver, { secret: null }),
      postCallback(url, raw.replace('Kim Driver', 'Kim Drivers'), { signature: hmac(coreOnly.signingSecret, raw) }),
    ])
      expectEnvelope(await bad, 401, 'auth.invalid_signature');
    // The signature is checked before the body and the correlation.
    const forger = { secret: `whsec_${randomBytes(24).toString('base64url')}` };
    const forgedUnknown = await postCallback(url, { ...driver, status: 'in_flight' }, forger);
    expectEnvelope(forgedUnknown, 401, 'auth.invalid_signature');
    const forgedOther = await postCallback(url, { ...driver, platformReference: `${d.assignmentId}x` }, forger);
    expectEnvelope(forgedOther, 401, 'auth.invalid_signature');
    const afterBad = await dispatchOf(d);
    expect(afterBad).toMatchObject({
      providerStatus: 'provider_accepted',
      lastHeardAtUtc: before.lastHeardAtUtc,
      providerEventTimeUtc: before.providerEventTimeUtc,
    });
    expect(afterBad.log).toEqual(before.log);
    expect(await assignmentOf(d)).toMatchObject({ statusName: 'Accepted', driverName: null, driverPhone: null });

    // A status outside the vocabulary: 422, the last recognised state kept.
    const unknownStatus = await postCallback(url, { ...driver, status: 'in_flight' });
    expectEnvelope(unknownStatus, 422, 'callback.status_unknown');
    expect((await dispatchOf(d)).providerStatus).toBe('provider_accepted');
    expect(await statusOf(d)).toBe('Accepted');

    // Correlation: another delivery's platformReference or provider id is 409.
    expectEnvelope(
      await postCallback(url, { ...driver, platformReference: `${d.assignmentId}x` }),
      409,
      'callback.reference_mismatch',
    );
    expectEnvelope(
      await postCallback(url, { ...driver, providerDeliveryId: 'sd-someone-else' }),
      409,
      'callback.reference_mismatch',
    );
    expect(await assignmentOf(d)).toMatchObject({ statusName: 'Accepted', driverName: null });

    // Lifecycle: the driver is taken; the same event again is a duplicate.
    const taken = await postCallback(url, driver);
    expect(taken).toMatchObject({ status: 200, body: { received: true, applied: true } });
    expect(await assignmentOf(d)).toMatchObject({
      statusName: 'Accepted',
      driverName: 'Kim Driver',
      driverPhone: '+49 170 5550101',
    });
    expect(await postCallback(url, driver)).toMatchObject({ status: 200, body: { received: true, applied: false } });

    // Out of order: an older provider_accepted after picked_up changes nothing.
    const picked = await postCallback(url, event(d, providerDeliveryId, 'delivery.picked_up', 'picked_up', at(3)));
    expect(picked).toMatchObject({ status: 200, body: { applied: true } });
    expect(await statusOf(d)).toBe('InTransit');
    const stale = await postCallback(
      url,
      event(d, providerDeliveryId, 'delivery.accepted', 'provider_accepted', at(0.5)),
    );
    expect(stale).toMatchObject({ status: 200, body: { received: true, applied: false } });
    expect(await statusOf(d)).toBe('InTransit');
    expect((await dispatchOf(d)).providerStatus).toBe('picked_up');

    // After delivered, a late nonterminal event (even with a later time) changes nothing.
    const delivered = await postCallback(url, event(d, providerDeliveryId, 'delivery.delivered', 'delivered', at(4)));
    expect(delivered).toMatchObject({ status: 200, body: { applied: true } });
    expect(await statusOf(d)).toBe('Delivered');
    const late = await postCallback(url, event(d, providerDeliveryId, 'driver.location_updated', 'on_the_way', at(5)));
    expect(late).toMatchObject({ status: 200, body: { received: true, applied: false } });
    expect(await statusOf(d)).toBe('Delivered');
    expect((await dispatchOf(d)).providerStatus).toBe('delivered');
  }, 60_000);
});

describe('convergence', () => {
  it('reads status and tracking once callbacks are quiet for the quiet time, and takes a newer state from them', async () => {
    const d = await dispatched(polled);
    await reaches(d, 'Accepted');
    const { providerDeliveryId } = await providerDelivery(d);
    const eta = new Date(Date.now() + 20 * 60_000).toISOString();
    const reportedAt = Date.now();
    provider.report(providerDeliveryId, {
      status: 'picked_up',
      eventTimeUtc: new Date().toISOString(),
      driverName: 'Lee Poller',
      driverPhone: '+49 170 5550199',
      driverLat: 52.53,
      driverLng: 13.4,
      trackingUrl: 'https://track.example/scripted',
      estimatedDeliveryAtUtc: eta,
    });
    const moved = await reaches(d, 'InTransit', 20_000);
    expect(moved).toMatchObject({ driverName: 'Lee Poller', driverPhone: '+49 170 5550199' });
    expect(moved.trackingUrl).toBe('https://track.example/scripted');
    expect(new Date(moved.etaUtc).toISOString()).toBe(eta);
    // The read that brought picked_up came once the provider had been quiet for the quiet time:
    // no sooner than that after the create's answer, or after the read before it.
    const [create] = provider.createsFor(d.assignmentId);
    const statusReads = provider.callsFor(providerDeliveryId, 'status');
    const bringing = statusReads.findIndex((c) => c.at >= reportedAt);
    expect(bringing).toBeGreaterThanOrEqual(0);
    const read = statusReads[bringing]!;
    expect(read.method).toBe('GET');
    const quietSince = bringing > 0 ? statusReads[bringing - 1]!.at : create!.at;
    expect(read.at - quietSince).toBeGreaterThanOrEqual(QUIET_SECONDS * 1000 - 100);
    // No read before the provider was quiet that long: none right after the create was accepted.
    expect(statusReads[0]!.at - create!.at).toBeGreaterThanOrEqual(QUIET_SECONDS * 1000 - 100);
    // With supportsTracking, the tracking is read with it (what gave the driver and the ETA).
    const tracking = provider.callsFor(providerDeliveryId, 'tracking').find((c) => c.at >= read.at);
    expect(tracking?.method).toBe('GET');
    expect((await dispatchOf(d)).providerStatus).toBe('picked_up');
  }, 60_000);

  it('reads the status soon after a callback that failed its signature', async () => {
    const d = await dispatched(polled);
    await reaches(d, 'Accepted');
    const url = callbackUrlOf(d);
    const { providerDeliveryId } = await providerDelivery(d);
    const statusReads = () => provider.callsFor(providerDeliveryId, 'status').length;
    // Right after a read has been answered and saved (the dispatch heard from the provider after
    // its tracking read), a valid callback: the next quiet read is then 3 s away.
    const reads = statusReads();
    const trackingRead = await waitFor(
      'a status and tracking read',
      () =>
        statusReads() > reads &&
        provider.callsFor(providerDeliveryId, 'tracking').length >= statusReads() &&
        provider.callsFor(providerDeliveryId, 'tracking').at(-1),
      15_000,
    );
    await waitFor(
      'the read saved',
      async () => Date.parse((await dispatchOf(d)).lastHeardAtUtc) >= trackingRead.at - 5,
      10_000,
    );
    const assigned = event(d, providerDeliveryId, 'driver.assigned', 'driver_assigned', new Date(), {
      driverName: 'Sam Signer',
    });
    provider.report(providerDeliveryId, {
      status: 'driver_assigned',
      eventTimeUtc: assigned.eventTimeUtc,
      driverName: 'Sam Signer',
    });
    expect(await postCallback(url, assigned, { secret: polled.signingSecret })).toMatchObject({
      status: 200,
      body: { applied: true },
    });
    const heardAt = Date.now();
    const readsBefore = statusReads();
    const forged = await postCallback(
      url,
      event(d, providerDeliveryId, 'delivery.delivered', 'delivered', new Date()),
      { secret: `whsec_${randomBytes(24).toString('base64url')}` },
    );
    expectEnvelope(forged, 401, 'auth.invalid_signature');
    const forgedAt = Date.now();
    const read = await waitFor(
      'a status read after the forged callback',
      () => provider.callsFor(providerDeliveryId, 'status')[readsBefore],
      QUIET_SECONDS * 1000,
    );
    expect(read.at).toBeGreaterThanOrEqual(forgedAt - 50);
    // Well before the quiet time after the valid callback would have brought it.
    expect(read.at - heardAt).toBeLessThan(QUIET_SECONDS * 1000 - 500);
    // The forged delivered event was not taken.
    expect(await assignmentOf(d)).toMatchObject({ statusName: 'Accepted', driverName: 'Sam Signer' });
    expect((await dispatchOf(d)).providerStatus).toBe('driver_assigned');
  }, 60_000);
});

describe('convergence when the provider fails a read', () => {
  it('retries a status read answered 503 after its Retry-After, not after the quiet time, and reads no tracking meanwhile', async () => {
    const d = await dispatched(polled, {
      status: (call) => (call === 1 ? envelope(503, 'provider.unavailable', true, { 'retry-after': '1' }) : undefined),
    });
    await reaches(d, 'Accepted');
    const { providerDeliveryId } = await providerDelivery(d);
    const reads = await waitFor(
      'a status read, then its retry',
      () => {
        const found = provider.callsFor(providerDeliveryId, 'status');
        return found.length >= 2 ? found : undefined;
      },
      QUIET_SECONDS * 1000 + 10_000,
    );
    const gap = reads[1]!.at - reads[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(900);
    expect(gap).toBeLessThan(QUIET_SECONDS * 1000 - 200);
    const trackingBetween = provider
      .callsFor(providerDeliveryId, 'tracking')
      .filter((c) => c.at >= reads[0]!.at && c.at < reads[1]!.at);
    expect(trackingBetween).toEqual([]);
  }, 60_000);
});

describe('cancellation', () => {
  it('is not sent to a connection without supportsCancellation; the log says the delivery goes on', async () => {
    const d = await dispatched(coreOnly);
    await reaches(d, 'Accepted');
    const { providerDeliveryId } = await providerDelivery(d);
    expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${d.orderId}/cancel`)).status).toBe(200);
    const line = await logged(d, 'cancel_sent', 15_000);
    expect(line.reason).toMatch(/not enabled for cancellation/);
    expect(provider.callsFor(providerDeliveryId, 'cancel')).toEqual([]);
  }, 60_000);

  it('sends exactly one cancel with the stage of the last known status: before_pickup, then after_pickup', async () => {
    const before = await dispatched(cancellable);
    const after = await dispatched(cancellable);
    const unavailable = await dispatched(cancellable, {
      cancel: () => envelope(503, 'provider.unavailable', true, { 'retry-after': '1' }),
    });
    await Promise.all([before, after, unavailable].map((d) => reaches(d, 'Accepted')));
    const beforeId = (await providerDelivery(before)).providerDeliveryId;
    const afterId = (await providerDelivery(after)).providerDeliveryId;
    const unavailableId = (await providerDelivery(unavailable)).providerDeliveryId;
    const picked = await postCallback(
      callbackUrlOf(after),
      event(after, afterId, 'delivery.picked_up', 'picked_up', new Date()),
      { secret: cancellable.signingSecret },
    );
    expect(picked).toMatchObject({ status: 200, body: { applied: true } });
    await reaches(after, 'InTransit');

    for (const d of [before, after, unavailable])
      expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${d.orderId}/cancel`)).status).toBe(200);
    const [sentBefore, sentAfter, sentUnavailable] = await Promise.all(
      [before, after, unavailable].map((d) => logged(d, 'cancel_sent')),
    );
    expect(sentBefore!.reason).toMatch(/cancel before_pickup: confirmed/);
    expect(sentAfter!.reason).toMatch(/cancel after_pickup: confirmed/);
    // A cancel is never retried automatically, not even after a 503 with Retry-After.
    expect(sentUnavailable!.reason).toMatch(/cancel before_pickup: failed \(HTTP 503 provider\.unavailable\)/);
    await sleep(NOTHING_MORE_MS); // no second cancel (a retry would come after 1 s)
    for (const [id, stage] of [
      [beforeId, 'before_pickup'],
      [afterId, 'after_pickup'],
      [unavailableId, 'before_pickup'],
    ] as const) {
      const cancels = provider.callsFor(id, 'cancel');
      expect(cancels).toHaveLength(1);
      expect(cancels[0]!.method).toBe('POST');
      expect(cancels[0]!.json).toEqual({ stage });
    }
  }, 90_000);
});

describe('every call to the provider', () => {
  it('carries the Bearer API key of its connection, Accept application/json, a JSON body type, and never the signing secret', async () => {
    const idOwner = new Map<string, string>();
    for (const [reference] of connectionOf) {
      const delivery = provider.deliveryOf(reference);
      if (delivery) idOwner.set(delivery.providerDeliveryId, reference);
    }
    expect(provider.requests.length).toBeGreaterThan(10);
    const secrets = [coreOnly, polled, cancellable].map((c) => c.signingSecret);
    for (const request of provider.requests) {
      const id = /^\/v1\/deliveries\/([^/]+)\//.exec(request.path)?.[1];
      const reference = id === undefined ? request.json?.platformReference : idOwner.get(decodeURIComponent(id));
      const connection = connectionOf.get(reference);
      expect({ path: request.path, connection: connection?.name }).toEqual({
        path: request.path,
        connection: expect.any(String),
      });
      expect(request.headers.authorization).toBe(`Bearer ${connection!.apiKey}`);
      expect(request.headers.accept).toBe('application/json');
      if (request.method === 'GET') expect(request.body).toBe('');
      else expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
      const everything = `${request.method} ${request.path}\n${JSON.stringify(request.headers)}\n${request.body}`;
      for (const secret of secrets) expect(everything.includes(secret)).toBe(false);
    }
  });
});
