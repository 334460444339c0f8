import {
  createAdminClient,
  createCourierClient,
  createPartnerClient,
  createProviderClient,
  createTenantClient,
  idempotencyHeader,
} from 'marketplace-api-clients';

// The factories over a fetch double: where each request goes and with which credential. The
// `@ts-expect-error` lines are the point of the package: tsc (npm run typecheck) fails when one of
// them compiles, that is when the generated types stop catching a misspelled path, field or
// parameter.

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A fetch that records each request and answers `status` with `body` as JSON. */
function fetchDouble(status: number, body: unknown) {
  const seen: Seen[] = [];
  const fetch = async (request: Request) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    const type = status >= 400 ? 'application/problem+json' : 'application/json';
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
  };
  return { seen, fetch };
}

const ORDER = {
  branchId: '7b1f3c7e-5f4e-4c43-9a57-2f6a3c1d9e10',
  orderMode: 2 as const,
  customerName: 'Ada',
  customerPhone: '+49 30 1234567',
  paymentMethod: 1 as const,
  externalOrderId: 'ext-1',
  lines: [
    {
      productId: '0b6a4a4e-1d2c-4c8e-8f6a-3c2b1a0f9e8d',
      variantId: '1c7b5b5f-2e3d-4d9f-9a7b-4d3c2b1a0f9e',
      quantity: 1,
      modifierSelections: [],
    },
  ],
};

describe('createPartnerClient', () => {
  it('sends the API key as `ApiKey <key>` to the base URL, and the Idempotency-Key it is given', async () => {
    const { seen, fetch } = fetchDouble(201, { orderId: 'o-1', orderNumber: 'A-1' });
    const partner = createPartnerClient({ baseUrl: 'https://marketplace.example.com/', apiKey: 'k.s', fetch });
    const created = await partner.POST('/api/partner/v1/orders', {
      params: { header: idempotencyHeader('order-ext-1') },
      body: ORDER,
    });
    expect(created.data?.orderNumber).toBe('A-1');
    expect(seen[0]).toMatchObject({ method: 'POST', url: 'https://marketplace.example.com/api/partner/v1/orders' });
    expect(seen[0]!.headers.get('authorization')).toBe('ApiKey k.s');
    expect(seen[0]!.headers.get('idempotency-key')).toBe('order-ext-1');
    expect(JSON.parse(seen[0]!.body)).toEqual(ORDER);
  });

  it('gives a problem+json answer as `error`, typed', async () => {
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such order.', code: 'x' };
    const { fetch } = fetchDouble(404, problem);
    const partner = createPartnerClient({ baseUrl: 'https://marketplace.example.com', apiKey: 'k.s', fetch });
    const read = await partner.GET('/api/partner/v1/orders/{orderId}', { params: { path: { orderId: 'o-1' } } });
    expect(read.data).toBeUndefined();
    expect(read.error?.code).toBe('x');
  });

  it('makes a new idempotency key each time unless given one', () => {
    const [a, b] = [idempotencyHeader(), idempotencyHeader()];
    expect(a['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a['Idempotency-Key']).not.toBe(b['Idempotency-Key']);
  });
});

describe('the other audiences', () => {
  it.each([
    [
      'provider',
      (fetch: ReturnType<typeof fetchDouble>['fetch']) =>
        createProviderClient({ baseUrl: 'https://sdp.example.com/v1', apiKey: 'pk', fetch }).GET(
          '/deliveries/{providerDeliveryId}/status',
          { params: { path: { providerDeliveryId: 'd-1' } } },
        ),
      'https://sdp.example.com/v1/deliveries/d-1/status',
      'Bearer pk',
    ],
    [
      'courier',
      (fetch: ReturnType<typeof fetchDouble>['fetch']) =>
        createCourierClient({ baseUrl: 'https://sdp.example.com/courier/v1', token: 'pdd_1.s', fetch }).GET('/me'),
      'https://sdp.example.com/courier/v1/me',
      'Bearer pdd_1.s',
    ],
    [
      'tenant',
      (fetch: ReturnType<typeof fetchDouble>['fetch']) =>
        createTenantClient({ baseUrl: 'https://m.example.com', token: 'tt', fetch }).GET(
          '/api/tenant/v1/catalog/branches',
        ),
      'https://m.example.com/api/tenant/v1/catalog/branches',
      'Bearer tt',
    ],
    [
      'admin',
      (fetch: ReturnType<typeof fetchDouble>['fetch']) =>
        createAdminClient({ baseUrl: 'https://m.example.com', token: 'at', fetch }).GET('/api/admin/v1/tenants'),
      'https://m.example.com/api/admin/v1/tenants',
      'Bearer at',
    ],
  ])('%s: calls the base URL with its credential', async (_audience, call, url, authorization) => {
    const { seen, fetch } = fetchDouble(200, {});
    await call(fetch);
    expect(seen[0]!.url).toBe(url);
    expect(seen[0]!.headers.get('authorization')).toBe(authorization);
  });
});

/** Never run: only compiled. Each `@ts-expect-error` must meet an error, or tsc fails. */
export async function typesBite(): Promise<void> {
  const partner = createPartnerClient({ baseUrl: 'https://m.example.com', apiKey: 'k' });
  const { externalOrderId: _renamed, ...withoutExternalId } = ORDER;
  const created = await partner.POST('/api/partner/v1/orders', {
    params: { header: idempotencyHeader() },
    // @ts-expect-error a required request field sent under another name (the schema says externalOrderId)
    body: { ...withoutExternalId, externalOrderID: 'ext-1' },
  });
  // @ts-expect-error a misspelled response field (the schema says orderNumber)
  void created.data?.orderNo;
  // @ts-expect-error the Idempotency-Key header the document requires on every POST
  await partner.POST('/api/partner/v1/orders', { body: ORDER });
  // @ts-expect-error a path the Partner API does not have
  await partner.GET('/api/partner/v1/order');
  // @ts-expect-error a tenant path is not the partner's
  await partner.GET('/api/tenant/v1/orders');

  const provider = createProviderClient({ baseUrl: 'https://sdp.example.com/v1', apiKey: 'k' });
  const status = await provider.GET('/deliveries/{providerDeliveryId}/status', {
    params: { path: { providerDeliveryId: 'd-1' } },
  });
  // @ts-expect-error a status the contract does not have
  void (status.data?.status === 'lost_in_space');

  const admin = createAdminClient({ baseUrl: 'https://m.example.com', token: 't' });
  // @ts-expect-error the administrator client has no tenant routes
  await admin.GET('/api/tenant/v1/apps');
}
