import { randomUUID } from 'node:crypto';
import { IDENTITY_HEADER, type HeldAssignment } from '@marketplace/identity';
import { connectedApp, partnerCall, startGateway, type ConnectedApp, type TestGateway } from '@marketplace/testing';
import { TestUpstream } from './support/upstream';

// The Partner API edge through the real gateway process, the real stack and a stand-in owner
// service that verifies the signed identity the way catalog, ordering and delivery do.
const ALL_SCOPES = [
  'Orders.Create',
  'Orders.Read',
  'Delivery.Accept',
  'Delivery.Reject',
  'Delivery.Cancel',
  'Delivery.UpdateStatus',
  'Delivery.UpdateDriver',
  'Delivery.UpdateEta',
  'Delivery.UpdateTracking',
  'Catalog.Read',
];
const ID = '6f1c1f8e-2b7a-4d1e-9c3a-0a5b6c7d8e9f';
const ID2 = '0b9d7c1a-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** The spec's endpoint table: method, path, scope. */
const ENDPOINTS: [string, string, string][] = [
  ['GET', '/catalog/branches', 'Catalog.Read'],
  ['GET', `/catalog/branches/${ID}/products`, 'Catalog.Read'],
  ['GET', `/catalog/branches/${ID}/products/${ID2}`, 'Catalog.Read'],
  ['POST', '/orders', 'Orders.Create'],
  ['GET', `/orders/${ID}`, 'Orders.Create'],
  ['POST', `/orders/${ID}/cancel`, 'Orders.Create'],
  ['POST', `/deliveries/${ID}/accept`, 'Delivery.Accept'],
  ['POST', `/deliveries/${ID}/reject`, 'Delivery.Reject'],
  ['POST', `/deliveries/${ID}/cancel`, 'Delivery.Cancel'],
  ['PATCH', `/deliveries/${ID}/status`, 'Delivery.UpdateStatus'],
  ['PATCH', `/deliveries/${ID}/driver`, 'Delivery.UpdateDriver'],
  ['PATCH', `/deliveries/${ID}/eta`, 'Delivery.UpdateEta'],
  ['PATCH', `/deliveries/${ID}/tracking`, 'Delivery.UpdateTracking'],
];

let upstream: TestUpstream;
let gw: TestGateway;
let full: ConnectedApp;
let keyCounter = 0;
const newKey = () => `key-${Date.now()}-${++keyCounter}`;
const mutationHeaders = (key = newKey()) => ({ 'idempotency-key': key });

beforeAll(async () => {
  upstream = await new TestUpstream().start();
  // The per-IP limit has its own test; here every request comes from 127.0.0.1.
  gw = await startGateway({
    CATALOG_URL: upstream.url,
    ORDERING_URL: upstream.url,
    DELIVERY_URL: upstream.url,
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_INSTALLATION: '100000',
  });
  full = await connectedApp(gw, ALL_SCOPES, ['orders.created']);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await upstream?.stop();
});

describe('authentication (401)', () => {
  const attempts = (): [string, Record<string, string>][] => [
    ['no Authorization header', {}],
    ['another scheme', { authorization: `Bearer ${full.apiKey}` }],
    ['no dot', { authorization: `ApiKey ${full.apiKey.replace('.', '')}` }],
    ['empty secret', { authorization: `ApiKey ${full.apiKey.split('.')[0]}.` }],
    ['unknown key id', { authorization: `ApiKey mpk_AAAAAAAAAAAAAAAAAAAAAA.${full.apiKey.split('.')[1]}` }],
    ['wrong secret', { authorization: `ApiKey ${full.apiKey.split('.')[0]}.${'x'.repeat(43)}` }],
    ['garbage', { authorization: 'ApiKey ../../etc/passwd' }],
  ];

  it('answers every bad credential with the same generic 401 and never reaches a service', async () => {
    const before = upstream.seen.length;
    const bodies = new Set<string>();
    for (const [what, headers] of attempts()) {
      const res = await partnerCall(gw, undefined, 'GET', '/catalog/branches', { headers });
      expect({ what, status: res.status, type: res.headers.get('content-type') }).toEqual({
        what,
        status: 401,
        type: 'application/problem+json',
      });
      expect(res.body).toMatchObject({ status: 401, code: 'auth.unauthenticated', title: 'Unauthorized' });
      bodies.add(JSON.stringify({ ...res.body, instance: undefined }));
    }
    expect(bodies.size).toBe(1);
    expect(upstream.seen.length).toBe(before);
  });

  it('answers a path that names no route 404 to anyone, and a route 401 before anything else', async () => {
    // The route table decides who may call a route; a path that names none is simply not found
    // (the table itself is public: /api/partner/v1/openapi.json), and reaches no upstream.
    const before = upstream.seen.length;
    expect((await partnerCall(gw, undefined, 'GET', '/nothing/here')).body).toMatchObject({
      status: 404,
      code: 'resource.not_found',
    });
    expect((await partnerCall(gw, undefined, 'GET', '/ORDERS/' + ID)).status).toBe(404);
    expect((await partnerCall(gw, undefined, 'GET', `/orders/${ID}`)).status).toBe(401);
    expect(upstream.seen.length).toBe(before);
    expect((await partnerCall(gw, full.apiKey, 'GET', '/nothing/here')).body).toMatchObject({
      status: 404,
      code: 'resource.not_found',
    });
    expect((await partnerCall(gw, full.apiKey, 'DELETE', `/orders/${ID}`)).body).toMatchObject({
      status: 405,
      code: 'request.method_not_allowed',
    });
    expect((await partnerCall(gw, full.apiKey, 'GET', '/orders/not-a-uuid')).body).toMatchObject({
      status: 404,
      code: 'resource.not_found',
    });
  });

  it('serves the OpenAPI description without credentials', async () => {
    const res = await partnerCall(gw, undefined, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
  });
});

describe('scopes (403) per endpoint', () => {
  it.each(ENDPOINTS)('%s %s needs %s and nothing else grants it', async (method, path, scope) => {
    const without = await connectedApp(
      gw,
      ALL_SCOPES.filter(
        (s) => s !== scope && !(path.startsWith('/orders/') && method === 'GET' && s === 'Orders.Read'),
      ),
    );
    const only = await connectedApp(gw, [scope]);
    const body = method === 'GET' ? undefined : '{}';
    const denied = await partnerCall(gw, without.apiKey, method, path, { body, headers: mutationHeaders() });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ status: 403, code: 'auth.insufficient_scope' });
    const allowed = await partnerCall(gw, only.apiKey, method, path, { body, headers: mutationHeaders() });
    expect(allowed.status).toBe(method === 'POST' ? 201 : 200);
    expect(allowed.body.identity).toMatchObject({
      kind: 'partner',
      installationId: only.installationId,
      tenantId: only.tenantId,
      scopes: [scope],
    });
  });

  it('lets Orders.Read alone read an order (ownership is the owner service’s check)', async () => {
    const reader = await connectedApp(gw, ['Orders.Read']);
    expect((await partnerCall(gw, reader.apiKey, 'GET', `/orders/${ID}`)).status).toBe(200);
    expect(
      (await partnerCall(gw, reader.apiKey, 'POST', `/orders/${ID}/cancel`, { headers: mutationHeaders() })).status,
    ).toBe(403);
  });

  it('treats Delivery.Read and Payments.Read as granting nothing', async () => {
    const inactive = await connectedApp(gw, ['Delivery.Read', 'Payments.Read']);
    for (const [method, path] of ENDPOINTS) {
      const res = await partnerCall(gw, inactive.apiKey, method, path, {
        body: method === 'GET' ? undefined : '{}',
        headers: mutationHeaders(),
      });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
    }
  });
});

describe('forwarding to the owner service', () => {
  it('asks delivery-assignment who holds the order before an Orders.Read caller reads it, and passes the answer on', async () => {
    const reader = await connectedApp(gw, ['Orders.Read']);
    const [heldId, freeId, openId] = [randomUUID(), randomUUID(), randomUUID()];
    const held: HeldAssignment = {
      orderId: heldId,
      assignmentId: randomUUID(),
      pickup: {
        branchId: randomUUID(),
        name: 'Mitte',
        address: 'Torstrasse 1',
        latitude: 52.53,
        longitude: 13.4,
        externalLocationId: null,
      },
    };
    upstream.held.set(heldId, held);
    upstream.held.set(openId, 503);

    // Held: the read goes to ordering with the assignment in its signed identity.
    expect((await partnerCall(gw, reader.apiKey, 'GET', `/orders/${heldId}`)).status).toBe(200);
    const [ask, read] = upstream.seen.slice(-2);
    expect(ask).toMatchObject({ method: 'GET', url: `/api/partner/v1/orders/${heldId}/held-assignment` });
    expect(ask!.identity).toMatchObject({ installationId: reader.installationId });
    expect(ask!.identity).not.toHaveProperty('heldAssignment');
    expect(read).toMatchObject({ url: `/api/partner/v1/orders/${heldId}` });
    expect(read!.identity).toMatchObject({ installationId: reader.installationId, heldAssignment: held });

    // Not held (404 there): the read goes on without one, and ordering answers its 404.
    expect((await partnerCall(gw, reader.apiKey, 'GET', `/orders/${freeId}`)).status).toBe(200);
    expect(upstream.seen.at(-1)!.identity).not.toHaveProperty('heldAssignment');

    // delivery-assignment cannot say: 503 with Retry-After, and the read is not forwarded.
    const before = upstream.seen.length;
    const open = await partnerCall(gw, reader.apiKey, 'GET', `/orders/${openId}`);
    expect(open.status).toBe(503);
    expect(open.body.code).toBe('upstream.unavailable');
    expect(open.headers.get('retry-after')).toBe('1');
    expect(upstream.seen.slice(before).map((r) => r.url)).toEqual([`/api/partner/v1/orders/${openId}/held-assignment`]);

    // A caller without Orders.Read is never a provider: nobody is asked.
    const source = await connectedApp(gw, ['Orders.Create']);
    const beforeSource = upstream.seen.length;
    await partnerCall(gw, source.apiKey, 'GET', `/orders/${heldId}`);
    expect(upstream.seen.slice(beforeSource).map((r) => r.url)).toEqual([`/api/partner/v1/orders/${heldId}`]);
  });

  it('carries a verifiable identity, the query and the raw body; keeps the API key and internal headers inside', async () => {
    const res = await partnerCall(gw, full.apiKey, 'GET', `/catalog/branches/${ID}/products?language=de-AT`, {
      headers: { 'x-marketplace-identity': 'v1.forged.identity', 'accept-language': 'fr' },
    });
    expect(res.status).toBe(200);
    const seen = upstream.seen.at(-1)!;
    expect(seen.identity).toEqual({
      kind: 'partner',
      tenantId: full.tenantId,
      tenant: { currencyCode: 'EUR', defaultLanguage: 'en' },
      installationId: full.installationId,
      appId: full.appId,
      scopes: ALL_SCOPES,
    });
    expect(seen.url).toBe(`/api/partner/v1/catalog/branches/${ID}/products?language=de-AT`);
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers['accept-language']).toBeUndefined(); // language comes from the query alone
    expect(seen.headers[IDENTITY_HEADER]).not.toBe('v1.forged.identity');
    expect(res.headers.get('x-internal-detail')).toBeNull();
    expect(res.headers.get('x-request-id')).toBeTruthy();

    const raw = '{ "b": 1,\n  "a": "ü" }';
    const posted = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: raw,
      headers: mutationHeaders('forward-raw'),
    });
    expect(posted.status).toBe(201);
    expect(upstream.seen.at(-1)!.body).toBe(raw);
    expect(upstream.seen.at(-1)!.headers['idempotency-key']).toBe('forward-raw');
    expect(upstream.seen.at(-1)!.identity).toMatchObject({ idempotencyKey: 'forward-raw' });
  });

  it('passes the owner’s problem responses through unchanged', async () => {
    const res = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"respondWith":409}',
      headers: mutationHeaders(),
    });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('accepts the listed JSON media types and refuses others with 415', async () => {
    for (const type of ['application/json', 'text/json', 'application/merge-patch+json']) {
      const res = await partnerCall(gw, full.apiKey, 'PATCH', `/deliveries/${ID}/eta`, {
        body: '{"etaUtc":null}',
        headers: { ...mutationHeaders(), 'content-type': type },
      });
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
    }
    const refused = await partnerCall(gw, full.apiKey, 'PATCH', `/deliveries/${ID}/eta`, {
      body: 'etaUtc=null',
      headers: { ...mutationHeaders(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(refused.body).toMatchObject({ status: 415, code: 'request.unsupported_media_type' });
    const malformed = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"a":',
      headers: mutationHeaders(),
    });
    expect(malformed.body).toMatchObject({ status: 400, code: 'request.malformed' });
  });
});

describe('Idempotency-Key', () => {
  it('is required on POST and PATCH, 1 to 128 characters without surrounding whitespace', async () => {
    const post = (headers: Record<string, string>) =>
      partnerCall(gw, full.apiKey, 'POST', '/orders', { body: '{}', headers });
    expect((await post({})).body).toMatchObject({ status: 400, code: 'idempotency.key_missing' });
    expect((await post({ 'idempotency-key': '' })).body).toMatchObject({
      status: 400,
      code: 'idempotency.key_missing',
    });
    expect((await post({ 'idempotency-key': 'k'.repeat(129) })).body).toMatchObject({
      status: 400,
      code: 'idempotency.key_invalid',
    });
    // Spaces and tabs around a header value are removed by HTTP itself (RFC 9110, 5.5); other
    // whitespace reaches us and is refused.
    expect((await post({ 'idempotency-key': '\u00a0leading' })).body).toMatchObject({
      status: 400,
      code: 'idempotency.key_invalid',
    });
    expect((await post({ 'idempotency-key': 'trailing\u00a0' })).body).toMatchObject({
      status: 400,
      code: 'idempotency.key_invalid',
    });
    expect((await post({ 'idempotency-key': `${'k'.repeat(127)}!` })).status).toBe(201);
    expect((await partnerCall(gw, full.apiKey, 'PATCH', `/deliveries/${ID}/eta`, { body: '{}' })).body).toMatchObject({
      code: 'idempotency.key_missing',
    });
  });

  it('replays the original response verbatim for the same key and payload, without re-executing', async () => {
    const key = newKey();
    const first = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"a":1,"b":[1,2]}',
      headers: mutationHeaders(key),
    });
    expect(first.status).toBe(201);
    const again = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{ "b": [1, 2], "a": 1 }',
      headers: mutationHeaders(key),
    });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(upstream.seen.filter((r) => r.headers['idempotency-key'] === key)).toHaveLength(1);
  });

  it('answers 409 with its own code for the same key and a different payload or route', async () => {
    const key = newKey();
    expect(
      (await partnerCall(gw, full.apiKey, 'POST', '/orders', { body: '{"a":1}', headers: mutationHeaders(key) }))
        .status,
    ).toBe(201);
    const changed = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"a":2}',
      headers: mutationHeaders(key),
    });
    expect(changed.body).toMatchObject({ status: 409, code: 'idempotency.key_reused' });
    const elsewhere = await partnerCall(gw, full.apiKey, 'POST', `/orders/${ID}/cancel`, {
      headers: mutationHeaders(key),
    });
    expect(elsewhere.body).toMatchObject({ status: 409, code: 'idempotency.key_reused' });
  });

  it('scopes keys per installation', async () => {
    const other = await connectedApp(gw, ['Orders.Create']);
    const key = newKey();
    const mine = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"a":1}',
      headers: mutationHeaders(key),
    });
    const theirs = await partnerCall(gw, other.apiKey, 'POST', '/orders', {
      body: '{"a":1}',
      headers: mutationHeaders(key),
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.identity.installationId).toBe(other.installationId);
    expect(mine.body.identity.installationId).toBe(full.installationId);
  });

  it('keeps the key usable after an error response (a corrected retry after a price mismatch)', async () => {
    const key = newKey();
    const mismatch = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"respondWith":409,"expectedTotal":10}',
      headers: mutationHeaders(key),
    });
    expect(mismatch.status).toBe(409);
    const corrected = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"expectedTotal":12.5}',
      headers: mutationHeaders(key),
    });
    expect(corrected.status).toBe(201);
    const replay = await partnerCall(gw, full.apiKey, 'POST', '/orders', {
      body: '{"expectedTotal":12.5}',
      headers: mutationHeaders(key),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(corrected.text);
  });

  it('executes 50 concurrent requests with one key exactly once and gives all the same result', async () => {
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        partnerCall(gw, full.apiKey, 'POST', `/orders/${ID2}/cancel`, {
          body: '{"delayMs":300}',
          headers: mutationHeaders(key),
        }),
      ),
    );
    expect(upstream.seen.filter((r) => r.headers['idempotency-key'] === key)).toHaveLength(1);
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
  });
});

describe('when the owner service is away', () => {
  it('answers 503 problem+json with Retry-After, and 504 when it is too slow', async () => {
    const stopped = await startGateway({
      ORDERING_URL: 'http://127.0.0.1:9',
      CATALOG_URL: upstream.url,
      UPSTREAM_TIMEOUT_MS: '200',
    });
    try {
      const app = await connectedApp(stopped, ['Orders.Create', 'Catalog.Read']);
      const down = await partnerCall(stopped, app.apiKey, 'GET', `/orders/${ID}`);
      expect(down.body).toMatchObject({ status: 503, code: 'upstream.unavailable' });
      expect(down.headers.get('retry-after')).toBe('1');
      const slow = await partnerCall(stopped, app.apiKey, 'GET', '/catalog/branches?delayMs=1000');
      expect(slow.body).toMatchObject({ status: 504, code: 'upstream.timeout' });
    } finally {
      await stopped.stop();
    }
  }, 60_000);
});
