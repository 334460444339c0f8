import { componentValidator, validateOpenApi } from '@marketplace/testing';
import { PARTNER_PREFIX, PARTNER_ROUTES } from '../../domain/partner-routes';
import { marketplaceApiDocument } from './marketplace-api';
import { partnerApiDocument, type Json } from './partner-api';
import { SANDBOX_TAG, WEBHOOK_DELIVERIES_TAG } from './partner-extension-api';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const obj = (value: unknown): Json => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value as Json;
};

/** Follows a local JSON pointer (`#/components/...`); throws when it does not resolve. */
function pointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`unresolved reference: ${ref}`);
    node = (node as Json)[key];
  }
  return node;
}

/** The object itself, or what its `$ref` points at (transitively). */
function deref(doc: Json, value: unknown): Json {
  let node = obj(value);
  while (typeof node.$ref === 'string') node = obj(pointer(doc, node.$ref));
  return node;
}

function allRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => allRefs(item, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else allRefs(value, out);
    }
  }
  return out;
}

interface Operation {
  method: string;
  path: string;
  op: Json;
}

function operations(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(obj(doc.paths))) {
    for (const method of HTTP_METHODS) {
      const op = obj(item)[method];
      if (op !== undefined) out.push({ method: method.toUpperCase(), path, op: obj(op) });
    }
  }
  return out;
}

const schemaOf = (doc: Json, name: string): Json => obj(obj(obj(doc.components).schemas)[name]);

/** Validators for the document's component schemas. */
const compiler = (doc: Json) => (name: string) => componentValidator(doc, name);

const partner = partnerApiDocument;
const marketplace = marketplaceApiDocument;

// ---------------------------------------------------------------------------------------------
// Both documents
// ---------------------------------------------------------------------------------------------

describe.each([
  ['partner', partner],
  ['marketplace', marketplace],
])('%s API document', (_name, doc) => {
  it('is valid OpenAPI 3.1', () => {
    const result = validateOpenApi(doc);
    expect(result.errors).toBeNull();
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is plain JSON data', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('resolves every $ref', () => {
    const refs = allRefs(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(() => pointer(doc, ref)).not.toThrow();
  });

  it('has unique operationIds and a tag on every operation', () => {
    const ops = operations(doc);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((doc.tags as Json[]).map((tag) => tag.name));
    for (const { op } of ops) for (const tag of op.tags as string[]) expect(tags).toContain(tag);
  });

  it('answers every error as problem+json with the Problem schema', () => {
    let count = 0;
    for (const { op } of operations(doc)) {
      for (const [status, response] of Object.entries(obj(op.responses))) {
        if (!/^[45]/.test(status)) continue;
        const content = obj(deref(doc, response).content);
        expect(Object.keys(content)).toEqual(['application/problem+json']);
        expect(obj(content['application/problem+json']).schema).toEqual({ $ref: '#/components/schemas/Problem' });
        count++;
      }
    }
    expect(count).toBeGreaterThan(30);
  });
});

it('the validator harness rejects an invalid document', () => {
  const broken = JSON.parse(JSON.stringify(partner));
  delete broken.info;
  broken.paths['/api/partner/v1/orders'].post.responses = 'nope';
  expect(validateOpenApi(broken).valid).toBe(false);
});

// ---------------------------------------------------------------------------------------------
// Partner API
// ---------------------------------------------------------------------------------------------

describe('Partner API document', () => {
  const PARTNER_TABLE: Array<[string, string, string[]]> = [
    ['GET', '/api/partner/v1/catalog/branches', ['Catalog.Read']],
    ['GET', '/api/partner/v1/catalog/branches/{branchId}/products', ['Catalog.Read']],
    ['GET', '/api/partner/v1/catalog/branches/{branchId}/products/{productId}', ['Catalog.Read']],
    ['POST', '/api/partner/v1/orders', ['Orders.Create']],
    ['GET', '/api/partner/v1/orders/{orderId}', ['Orders.Create', 'Orders.Read']],
    ['POST', '/api/partner/v1/orders/{orderId}/cancel', ['Orders.Create']],
    ['POST', '/api/partner/v1/deliveries/{orderId}/accept', ['Delivery.Accept']],
    ['POST', '/api/partner/v1/deliveries/{orderId}/reject', ['Delivery.Reject']],
    ['POST', '/api/partner/v1/deliveries/{orderId}/cancel', ['Delivery.Cancel']],
    ['PATCH', '/api/partner/v1/deliveries/{orderId}/status', ['Delivery.UpdateStatus']],
    ['PATCH', '/api/partner/v1/deliveries/{orderId}/driver', ['Delivery.UpdateDriver']],
    ['PATCH', '/api/partner/v1/deliveries/{orderId}/eta', ['Delivery.UpdateEta']],
    ['PATCH', '/api/partner/v1/deliveries/{orderId}/tracking', ['Delivery.UpdateTracking']],
  ];
  // The specification's operations; our extension's (tags `Webhook deliveries` and `Sandbox`) are
  // checked in partner-extension-api.test.ts.
  const ops = operations(partner).filter(
    ({ op }) => !(op.tags as string[]).some((tag) => tag === WEBHOOK_DELIVERIES_TAG || tag === SANDBOX_TAG),
  );
  const validator = compiler(partner);

  it('has version 1.0.0 and a {base_url} server', () => {
    expect(obj(partner.info).version).toBe('1.0.0');
    expect((partner.servers as Json[]).map((s) => s.url)).toContain('{base_url}');
  });

  it('has exactly the 13 operations with their methods and scopes', () => {
    const actual = ops.map(({ method, path, op }) => [method, path, op['x-required-scopes']]);
    expect(actual.sort()).toEqual([...PARTNER_TABLE].sort());
    for (const { op } of ops) {
      const scopes = op['x-required-scopes'] as string[];
      for (const scope of scopes) expect(op.description).toContain(`\`${scope}\``);
      expect(op.security).toEqual(scopes.map((scope) => ({ partnerApiKey: [scope] })));
    }
  });

  it('matches the gateway route table', () => {
    const routes = PARTNER_ROUTES.map((r) => [
      r.method,
      PARTNER_PREFIX + r.pattern.replace(/:(\w+)/g, '{$1}'),
      r.scopes,
    ]);
    expect(ops.map(({ method, path, op }) => [method, path, op['x-required-scopes']]).sort()).toEqual(routes.sort());
  });

  it('requires a valid Idempotency-Key on every POST and PATCH, and only there', () => {
    const keySchema = (op: Json) =>
      ((op.parameters as unknown[] | undefined) ?? [])
        .map((p) => deref(partner, p))
        .find((p) => p.name === 'Idempotency-Key');
    const mutating = ops.filter(({ method }) => method === 'POST' || method === 'PATCH');
    expect(mutating).toHaveLength(9);
    for (const { op } of mutating) {
      const param = keySchema(op);
      expect(param).toMatchObject({ in: 'header', required: true, schema: { type: 'string', maxLength: 128 } });
      const pattern = new RegExp(String(obj(param!.schema).pattern));
      for (const ok of ['a', 'order-42', 'a b', 'x'.repeat(128)]) expect(pattern.test(ok)).toBe(true);
      for (const bad of ['', ' a', 'a ', '\ta', ' ']) expect(pattern.test(bad)).toBe(false);
    }
    for (const { op } of ops.filter(({ method }) => method === 'GET')) expect(keySchema(op)).toBeUndefined();
  });

  it('documents 401, 403 and 429 (with Retry-After) on every operation, and each table status', () => {
    // The spec's statuses, and those every forwarded request (5xx), every POST and PATCH (400, 413,
    // 415), every path parameter (400) and a catalog revalidation (304) can get (error-codes.test.ts).
    const FORWARDED = ['500', '502', '503', '504'];
    const statuses: Record<string, string[]> = {
      'GET /api/partner/v1/catalog/branches': ['200', '304', '401', '403', '404', '429', ...FORWARDED],
      'POST /api/partner/v1/orders': ['201', '400', '401', '403', '409', '413', '415', '429', ...FORWARDED],
      'GET /api/partner/v1/orders/{orderId}': ['200', '400', '401', '403', '404', '429', ...FORWARDED],
      'POST /api/partner/v1/orders/{orderId}/cancel': [
        ...['200', '400', '401', '403', '404', '409', '413', '415', '429'],
        ...FORWARDED,
      ],
      'PATCH /api/partner/v1/deliveries/{orderId}/tracking': [
        ...['200', '400', '401', '403', '404', '409', '413', '415', '429'],
        ...FORWARDED,
      ],
    };
    for (const { method, path, op } of ops) {
      const codes = Object.keys(obj(op.responses));
      expect(codes).toEqual(expect.arrayContaining(['401', '403', '429']));
      const expected = statuses[`${method} ${path}`];
      if (expected) expect(codes).toEqual(expected);
      const tooMany = deref(partner, obj(op.responses)['429']);
      expect(deref(partner, obj(tooMany.headers)['Retry-After'])).toMatchObject({ schema: { type: 'integer' } });
    }
  });

  it('accepts application/json and text/json request bodies', () => {
    for (const { method, op } of ops) {
      if (method !== 'PATCH' && op.operationId !== 'createOrder') {
        expect(op.requestBody).toBeUndefined();
        continue;
      }
      const body = obj(op.requestBody);
      expect(Object.keys(obj(body.content))).toEqual(['application/json', 'text/json']);
      expect(body.description).toContain('application/*+json');
    }
  });

  it('uses integer enumerations', () => {
    const expectations: Record<string, number[]> = {
      Availability: [0, 1, 2],
      OrderMode: [1, 2],
      PaymentMethod: [1, 2],
    };
    for (const [name, values] of Object.entries(expectations)) {
      const schema = schemaOf(partner, name);
      expect(schema.type).toBe('integer');
      expect(schema.enum).toEqual(values);
      expect((schema.enum as unknown[]).every(Number.isInteger)).toBe(true);
    }
    expect(obj(obj(schemaOf(partner, 'DeliveryStatusUpdateRequest').properties).targetStatus).enum).toEqual([4, 5]);
    // Order statuses are open: only some values are known.
    expect(schemaOf(partner, 'OrderStatus')).toMatchObject({ type: 'integer' });
    expect(schemaOf(partner, 'OrderStatus').enum).toBeUndefined();
    expect(validator('OrderStatus')(3)).toBe(true);
    // Assignment statuses are closed, each value with its name and meaning.
    const assignment = schemaOf(partner, 'AssignmentStatus');
    expect(assignment).toMatchObject({ type: 'integer', enum: [1, 2, 4, 5, 7, 8, 9, 10] });
    expect(assignment['x-enum-varnames']).toEqual([
      'Assigned',
      'Accepted',
      'InTransit',
      'Delivered',
      'Rejected',
      'Cancelled',
      'Superseded',
      'Terminated',
    ]);
    expect(assignment['x-enum-descriptions']).toHaveLength(8);
    expect(validator('AssignmentStatus')(3)).toBe(false);
    expect(validator('Availability')(true)).toBe(false);
    expect(validator('Availability')(3)).toBe(false);
  });

  const order = {
    orderId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f10',
    orderNumber: 'A-1001',
    status: 1,
    orderMode: 1,
    tableNumber: null,
    customerName: 'Ada',
    customerPhone: '+3212345678',
    grandTotal: 23.5,
    currencyCode: 'EUR',
    items: [
      {
        productName: 'Pizza',
        variantName: null,
        quantity: 2,
        lineTotal: 20,
        modifiers: [{ modifierGroupName: 'Extras', modifierOptionName: 'Olives', quantity: 1, totalPrice: 1.5 }],
      },
    ],
    deliveryAddress: { label: null, addressLine: 'Main St 1', latitude: 50.85, longitude: 4.35, instructions: null },
    branch: { name: 'Centre', address: 'Market 2', latitude: 50.84, longitude: 4.36, externalLocationId: null },
    paymentStatus: 1,
    externalOrderId: 'ext-1',
    subtotal: 20,
    discountTotal: 0,
    taxTotal: 1.5,
    deliveryFee: 2,
    serviceFee: 0,
  };
  const SOURCE_ONLY = [
    'paymentStatus',
    'externalOrderId',
    'subtotal',
    'discountTotal',
    'taxTotal',
    'deliveryFee',
    'serviceFee',
  ];

  it('lets the seven source-only OrderResponse fields be null, and nothing else that is not nullable', () => {
    const validate = validator('OrderResponse');
    expect(validate(order)).toBe(true);
    expect(validate({ ...order, ...Object.fromEntries(SOURCE_ONLY.map((field) => [field, null])) })).toBe(true);
    for (const field of SOURCE_ONLY) expect(validate({ ...order, [field]: null })).toBe(true);
    expect(validate({ ...order, customerName: null })).toBe(false);
    expect(validate({ ...order, grandTotal: null })).toBe(false);
    expect(validate({ ...order, deliveryAddress: null })).toBe(true);
    const { serviceFee: _omitted, ...missing } = order;
    expect(validate(missing)).toBe(false);
    expect(schemaOf(partner, 'OrderResponse').required).toEqual(Object.keys(order));
  });

  it('describes create-order requests', () => {
    const validate = validator('CreateOrderRequest');
    const pickup = {
      branchId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f10',
      orderMode: 2,
      customerName: 'Ada',
      customerPhone: '+3212345678',
      paymentMethod: 1,
      externalOrderId: 'ext-1',
      lines: [
        {
          productId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f11',
          variantId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f12',
          quantity: 1,
          modifierSelections: [],
        },
      ],
    };
    const delivery = {
      ...pickup,
      orderMode: 1,
      deliveryZoneId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f13',
      deliveryAddress: { label: null, addressLine: 'Main St 1', latitude: 50.85, longitude: 4.35 },
      expectedTotal: 23.5,
    };
    expect(validate(pickup)).toBe(true);
    expect(validate({ ...pickup, deliveryZoneId: null, deliveryAddress: null, customerEmail: null })).toBe(true);
    expect(validate(delivery)).toBe(true);
    expect(validate({ ...delivery, deliveryZoneId: undefined })).toBe(false);
    expect(validate({ ...delivery, deliveryAddress: null })).toBe(false);
    expect(validate({ ...pickup, deliveryZoneId: delivery.deliveryZoneId })).toBe(false);
    expect(validate({ ...delivery, deliveryAddress: { addressLine: 'x', latitude: 1, longitude: 2 } })).toBe(false); // label required
    expect(validate({ ...pickup, orderMode: 3 })).toBe(false);
    expect(validate({ ...pickup, paymentMethod: 3 })).toBe(false);
    const { externalOrderId: _omitted, ...noExternalId } = pickup;
    expect(validate(noExternalId)).toBe(false);
  });

  it('describes the delivery update requests', () => {
    expect(validator('DeliveryDriverUpdateRequest')({ driverName: null, driverPhone: null })).toBe(true);
    expect(validator('DeliveryDriverUpdateRequest')({ driverName: 'Bo' })).toBe(false);
    expect(validator('DeliveryEtaUpdateRequest')({ etaUtc: '2030-01-01T10:00:00Z' })).toBe(true);
    expect(validator('DeliveryEtaUpdateRequest')({})).toBe(false);
    const tracking = validator('DeliveryTrackingUpdateRequest');
    expect(tracking({ trackingUrl: 'https://track.example/1' })).toBe(true);
    expect(tracking({ trackingUrl: null })).toBe(true);
    expect(tracking({ trackingUrl: 'http://track.example/1' })).toBe(false);
    expect(tracking({})).toBe(false);
    expect(validator('DeliveryStatusUpdateRequest')({ targetStatus: 4 })).toBe(true);
    expect(validator('DeliveryStatusUpdateRequest')({ targetStatus: 2 })).toBe(false);
  });

  describe('delivery operations', () => {
    const deliveryOps = ops.filter(({ path }) => path.startsWith('/api/partner/v1/deliveries/'));
    const CONFLICTS: Record<string, string> = {
      acceptDelivery: 'delivery.accept_not_allowed',
      rejectDelivery: 'delivery.reject_not_allowed',
      cancelDelivery: 'delivery.cancel_not_allowed',
      updateDeliveryStatus: 'delivery.transition_not_allowed',
      updateDeliveryDriver: 'delivery.update_not_allowed',
      updateDeliveryEta: 'delivery.update_not_allowed',
      updateDeliveryTracking: 'delivery.update_not_allowed',
    };

    it('each names its own state conflict (with status_detail) and the idempotency conflicts', () => {
      expect(deliveryOps.map(({ op }) => op.operationId).sort()).toEqual(Object.keys(CONFLICTS).sort());
      const validate = validator('Problem');
      for (const { op } of deliveryOps) {
        const code = CONFLICTS[op.operationId as string]!;
        const conflict = deref(partner, obj(op.responses)['409']);
        const description = String(conflict.description);
        for (const c of [code, 'idempotency.key_reused', 'idempotency.request_in_progress'])
          expect(description).toContain(`\`${c}\``);
        expect(description).toContain('status_detail.status');
        for (const other of new Set(Object.values(CONFLICTS)))
          if (other !== code) expect(description).not.toContain(other);
        expect(String(op.description)).toContain(`\`${code}\``);
        const examples = obj(obj(obj(conflict.content)['application/problem+json']).examples);
        const example = obj(obj(Object.values(examples)[0]).value);
        expect(example).toMatchObject({ status: 409, code, status_detail: { status: expect.any(String) } });
        expect(validate(example)).toBe(true);
      }
    });

    it('say which states allow them and answer 404 to a caller not holding the live assignment', () => {
      const description = (id: string) => String(deliveryOps.find(({ op }) => op.operationId === id)!.op.description);
      expect(description('acceptDelivery')).toMatch(/Allowed only while Assigned/);
      expect(description('rejectDelivery')).toMatch(/Allowed only while Assigned/);
      expect(description('cancelDelivery')).toMatch(/Allowed only while Accepted or InTransit/);
      expect(description('updateDeliveryStatus')).toMatch(/only from Accepted.*only from InTransit/s);
      expect(description('updateDeliveryStatus')).toContain('Completed (6)');
      for (const id of ['updateDeliveryDriver', 'updateDeliveryEta', 'updateDeliveryTracking'])
        expect(description(id)).toContain('Allowed only while Accepted (2) or InTransit (4)');
      for (const { op } of deliveryOps) {
        expect(String(op.description)).toContain('404 `resource.not_found`');
        expect(String(deref(partner, obj(op.responses)['404']).description)).toContain('live');
      }
    });

    it('state the field limits the service enforces', () => {
      const description = (id: string) => String(deliveryOps.find(({ op }) => op.operationId === id)!.op.description);
      expect(description('updateDeliveryDriver')).toMatch(/1 to 100 characters, not only spaces/);
      expect(description('updateDeliveryDriver')).toMatch(/at most 32 characters/);
      expect(description('updateDeliveryEta')).toMatch(/at most 5 minutes in the past and at most 7 days ahead/);
      expect(description('updateDeliveryTracking')).toMatch(/absolute `https:\/\/` URL with a host, at most 2048/);
      const driver = validator('DeliveryDriverUpdateRequest');
      expect(driver({ driverName: 'x'.repeat(100), driverPhone: '+49 30 1234567' })).toBe(true);
      expect(driver({ driverName: 'x'.repeat(101), driverPhone: null })).toBe(false);
      expect(driver({ driverName: '   ', driverPhone: null })).toBe(false);
      expect(driver({ driverName: 'Bo', driverPhone: '1'.repeat(33) })).toBe(false);
      const tracking = validator('DeliveryTrackingUpdateRequest');
      expect(tracking({ trackingUrl: `https://t.example/${'x'.repeat(2048)}` })).toBe(false);
    });
  });

  it('nests modifier groups recursively', () => {
    const group = (childGroups: unknown[]) => ({
      id: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f10',
      name: 'Size',
      minSelections: 0,
      maxSelections: 1,
      isRequired: false,
      sortOrder: 1,
      options: [
        {
          id: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f11',
          name: 'L',
          price: 1,
          isDefault: false,
          availability: 0,
          childGroups,
        },
      ],
    });
    expect(validator('ModifierGroup')(group([group([])]))).toBe(true);
    expect(validator('ModifierGroup')(group([{ bogus: true }]))).toBe(false);
  });

  it('describes the Problem body', () => {
    const validate = validator('Problem');
    expect(
      validate({
        type: '/docs/problems/c',
        title: 'Conflict',
        status: 409,
        detail: 'x',
        code: 'c',
        status_detail: { status: 'Accepted' },
      }),
    ).toBe(true);
    expect(
      validate({
        title: 'Bad Request',
        status: 400,
        detail: 'x',
        code: 'request.invalid',
        errors: { 'lines[0].quantity': ['is required'] },
      }),
    ).toBe(true);
    expect(validate({ title: 'Bad Request', status: 400, detail: 'x', code: 'c', errors: { a: 'not an array' } })).toBe(
      false,
    );
    expect(validate({ title: 'Bad Request', status: 400, detail: 'x' })).toBe(false);
  });

  it('documents the webhooks, their envelope and signature headers', () => {
    const webhooks = obj(partner.webhooks);
    expect(Object.keys(webhooks).sort()).toEqual([
      'delivery.assigned',
      'delivery.cancelled',
      'delivery.superseded',
      'orders.cancelled',
      'orders.created',
      'payment.completed',
      'system.test',
    ]);
    for (const item of Object.values(webhooks)) {
      const post = obj(obj(item).post);
      const headers = (post.parameters as unknown[]).map((p) => deref(partner, p).name);
      expect(headers).toEqual([
        'X-Marketplace-Event-Id',
        'X-Marketplace-Timestamp',
        'X-Marketplace-Signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
    const data = validator('DeliveryEventData');
    const ids = {
      orderId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f10',
      orderNumber: '1001',
      assignmentId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f11',
    };
    expect(data(ids)).toBe(true);
    expect(data({ ...ids, status: 'Assigned' })).toBe(false); // identifiers only
    for (const type of ['delivery.assigned', 'delivery.cancelled', 'delivery.superseded'])
      expect(String(obj(obj(webhooks[type]).post).description)).toContain('Identifiers only');
    const envelope = validator('WebhookEnvelope');
    const event = { id: 'd-1', type: 'delivery.assigned', version: 1, occurredAt: '2030-01-01T10:00:00Z', data: {} };
    expect(envelope(event)).toBe(true);
    expect(envelope({ ...event, version: 2 })).toBe(false);
  });

  it('documents the decisions the specification leaves open', () => {
    const description = String(obj(partner.info).description);
    for (const code of [
      'request.malformed',
      'request.invalid',
      'request.too_large',
      'request.unsupported_media_type',
      'idempotency.key_missing',
      'idempotency.key_invalid',
      'auth.unauthenticated',
      'auth.insufficient_scope',
      'resource.not_found',
      'request.method_not_allowed',
      'idempotency.key_reused',
      'idempotency.request_in_progress',
      'tenancy.partner_api.external_order_id_conflict',
      'tenancy.order.price_mismatch',
      'tenancy.partner_api.order_not_cancellable',
      'delivery.accept_not_allowed',
      'delivery.reject_not_allowed',
      'delivery.cancel_not_allowed',
      'delivery.transition_not_allowed',
      'delivery.update_not_allowed',
      'rate_limit.exceeded',
      'upstream.bad_response',
      'upstream.unavailable',
      'upstream.timeout',
    ]) {
      expect(description).toContain(`\`${code}\``);
    }
    for (const text of [
      '120 requests per client IP',
      '60 requests per installation',
      'exactly 60 seconds',
      '24 hours',
      'Idempotent-Replayed: true',
    ]) {
      expect(description).toContain(text);
    }
    expect(obj(obj(obj(partner.components).securitySchemes).partnerApiKey)).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Marketplace API
// ---------------------------------------------------------------------------------------------

describe('Marketplace API document', () => {
  const ops = operations(marketplace);
  const validator = compiler(marketplace);
  const EXPECTED: Array<[string, string, string]> = [
    ['POST', '/api/admin/v1/tenants', 'adminToken'],
    ['GET', '/api/admin/v1/tenants', 'adminToken'],
    ['GET', '/api/admin/v1/tenants/{tenantId}', 'adminToken'],
    ['POST', '/api/admin/v1/tenants/{tenantId}/tokens', 'adminToken'],
    ['GET', '/api/admin/v1/tenants/{tenantId}/tokens', 'adminToken'],
    ['POST', '/api/admin/v1/tenants/{tenantId}/tokens/{tokenId}/revoke', 'adminToken'],
    ['GET', '/api/admin/v1/audit-events', 'adminToken'],
    ['POST', '/api/admin/v1/apps', 'adminToken'],
    ['GET', '/api/admin/v1/apps', 'adminToken'],
    ['GET', '/api/admin/v1/apps/{appId}', 'adminToken'],
    ['POST', '/api/admin/v1/apps/{appId}/versions', 'adminToken'],
    ['GET', '/api/admin/v1/apps/{appId}/versions/{version}', 'adminToken'],
    ['PUT', '/api/admin/v1/apps/{appId}/versions/{version}', 'adminToken'],
    ['POST', '/api/admin/v1/apps/{appId}/versions/{version}/publish', 'adminToken'],
    ['GET', '/api/tenant/v1/apps', 'tenantToken'],
    ['POST', '/api/tenant/v1/installations', 'tenantToken'],
    ['GET', '/api/tenant/v1/installations', 'tenantToken'],
    ['GET', '/api/tenant/v1/installations/{installationId}', 'tenantToken'],
    ['DELETE', '/api/tenant/v1/installations/{installationId}', 'tenantToken'],
    ['POST', '/api/tenant/v1/installations/{installationId}/connect', 'tenantToken'],
    ['POST', '/api/tenant/v1/installations/{installationId}/reconnect', 'tenantToken'],
    ['POST', '/api/tenant/v1/installations/{installationId}/api-key/rotate', 'tenantToken'],
    ['POST', '/api/tenant/v1/installations/{installationId}/webhook-secret/rotate', 'tenantToken'],
    ['POST', '/api/tenant/v1/installations/{installationId}/disconnect', 'tenantToken'],
    ['GET', '/api/marketplace/oauth/callback', 'none'],
    ['GET', '/api/tenant/v1/payment-processor', 'tenantToken'],
    ['POST', '/api/tenant/v1/payment-processor/secret/rotate', 'tenantToken'],
    ['DELETE', '/api/tenant/v1/payment-processor/secret', 'tenantToken'],
    ['POST', '/api/payments/v1/tenants/{tenantId}/notifications', 'processorSignature'],
  ];

  it('has exactly the expected operations, each with its bearer scheme', () => {
    const actual = ops.map(({ method, path, op }) => {
      const security = op.security as Json[];
      return [method, path, security.length === 0 ? 'none' : Object.keys(security[0]!)[0]];
    });
    expect(actual.sort()).toEqual([...EXPECTED].sort());
    const schemes = obj(obj(marketplace.components).securitySchemes);
    expect(schemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.tenantToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { op, path } of ops)
      if (path.startsWith('/api/admin') || path.startsWith('/api/tenant'))
        expect(obj(op.responses)['401']).toBeDefined();
  });

  it('documents the success and conflict statuses', () => {
    const codes = (method: string, path: string) =>
      Object.keys(obj(ops.find((o) => o.method === method && o.path === path)!.op.responses));
    expect(codes('POST', '/api/admin/v1/tenants')).toEqual(['201', '400', '401', '409']);
    expect(codes('PUT', '/api/admin/v1/apps/{appId}/versions/{version}')).toEqual([
      '200',
      '400',
      '401',
      '404',
      '409',
      '503',
    ]);
    expect(codes('POST', '/api/tenant/v1/installations')).toEqual(['201', '400', '401', '404', '409']);
    expect(codes('DELETE', '/api/tenant/v1/installations/{installationId}')).toEqual([
      '204',
      '400',
      '401',
      '404',
      '503',
    ]);
    expect(codes('GET', '/api/marketplace/oauth/callback')).toEqual(['200', '400', '502', '504']);
  });

  it('sends Cache-Control: no-store with every response carrying credentials', () => {
    const carrying = [
      '/api/tenant/v1/installations/{installationId}/connect',
      '/api/tenant/v1/installations/{installationId}/reconnect',
      '/api/tenant/v1/installations/{installationId}/api-key/rotate',
      '/api/tenant/v1/installations/{installationId}/webhook-secret/rotate',
      '/api/tenant/v1/payment-processor/secret/rotate',
      '/api/marketplace/oauth/callback',
    ];
    for (const path of carrying) {
      const { op } = ops.find((o) => o.path === path)!;
      const ok = deref(marketplace, obj(op.responses)['200']);
      expect(deref(marketplace, obj(ok.headers)['Cache-Control'])).toMatchObject({
        required: true,
        schema: { const: 'no-store' },
      });
    }
  });

  it('lists the scope codes and subscribable events', () => {
    expect(schemaOf(marketplace, 'ScopeCode').enum).toEqual([
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
      'Delivery.Read',
      'Payments.Read',
    ]);
    expect(schemaOf(marketplace, 'EventType').enum).toEqual([
      'orders.created',
      'orders.cancelled',
      'payment.completed',
      'delivery.assigned',
      'delivery.cancelled',
      'delivery.superseded',
      'orders.updated',
      'catalog.updated',
    ]);
  });

  it('validates contract version input', () => {
    const validate = validator('ContractVersionInput');
    const apiKey = {
      authType: 'ApiKey',
      scopes: ['Orders.Create', 'Catalog.Read'],
      subscribedEvents: ['orders.cancelled'],
      webhookUrl: 'https://partner.example/hooks',
    };
    const oauth2 = {
      authorizationEndpoint: 'https://partner.example/authorize',
      tokenEndpoint: 'https://partner.example/token',
      clientId: 'client',
      clientSecret: 'secret',
    };
    expect(validate(apiKey)).toBe(true);
    expect(validate({ ...apiKey, oauth2: null })).toBe(true);
    expect(validate({ authType: 'ApiKey', scopes: [], subscribedEvents: [] })).toBe(true);
    expect(validate({ ...apiKey, webhookUrl: null })).toBe(false); // events need a webhook URL
    expect(validate({ ...apiKey, webhookUrl: undefined })).toBe(false);
    expect(validate({ ...apiKey, scopes: ['Orders.Create', 'Orders.Create'] })).toBe(false);
    expect(validate({ ...apiKey, scopes: ['Orders.Delete'] })).toBe(false);
    expect(validate({ ...apiKey, subscribedEvents: ['system.test'] })).toBe(false);
    expect(validate({ ...apiKey, oauth2 })).toBe(false); // oauth2 only with OAuth2
    expect(validate({ ...apiKey, authType: 'OAuth2' })).toBe(false); // OAuth2 needs oauth2
    expect(validate({ ...apiKey, authType: 'OAuth2', oauth2 })).toBe(true);
    expect(
      validate({ ...apiKey, authType: 'OAuth2', oauth2: { ...oauth2, tokenEndpointAuthMethod: 'client_secret_jwt' } }),
    ).toBe(false);
    expect(validate({ ...apiKey, authType: 'OAuth2', oauth2: { ...oauth2, clientSecret: undefined } })).toBe(false);
    const versionRef = obj(obj(schemaOf(marketplace, 'OAuth2Input').properties).clientSecret);
    expect(versionRef.writeOnly).toBe(true);
    expect(obj(schemaOf(marketplace, 'OAuth2Config').properties).clientSecret).toBeUndefined();
  });

  it('validates tenant and app input', () => {
    const tenantInput = validator('TenantInput');
    const tenantOk = { slug: 'pizza-roma', name: 'Pizza Roma', currencyCode: 'EUR', defaultLanguage: 'en-GB' };
    expect(tenantInput(tenantOk)).toBe(true);
    expect(tenantInput({ ...tenantOk, slug: '-bad' })).toBe(false);
    expect(tenantInput({ ...tenantOk, slug: 'A' })).toBe(false);
    expect(tenantInput({ ...tenantOk, currencyCode: 'eur' })).toBe(false);
    expect(tenantInput({ ...tenantOk, defaultLanguage: 'english!' })).toBe(false);
    expect(tenantInput({ ...tenantOk, name: '' })).toBe(false);
    expect(validator('TenantTokenRequest')({})).toBe(true);
    expect(validator('TenantTokenRequest')({ expiresInSeconds: 59 })).toBe(false);
    expect(validator('TenantTokenRequest')({ expiresInSeconds: 31536001 })).toBe(false);
    // More than 30 days only with allowLongerThan30Days: true; never more than 365.
    expect(validator('TenantTokenRequest')({ expiresInSeconds: 2592000 })).toBe(true);
    expect(validator('TenantTokenRequest')({ expiresInSeconds: 2592001 })).toBe(false);
    expect(validator('TenantTokenRequest')({ expiresInSeconds: 2592001, allowLongerThan30Days: false })).toBe(false);
    expect(validator('TenantTokenRequest')({ expiresInSeconds: 31536000, allowLongerThan30Days: true })).toBe(true);
    expect(validator('TenantTokenRequest')({ expiresInSeconds: 31536001, allowLongerThan30Days: true })).toBe(false);
    expect(validator('TenantTokenRequest')({ allowLongerThan30Days: 'yes' })).toBe(false);
    expect(validator('InstallationApiKeyRotateRequest')({})).toBe(true);
    expect(validator('InstallationApiKeyRotateRequest')({ overlapSeconds: 0 })).toBe(true);
    expect(validator('InstallationApiKeyRotateRequest')({ overlapSeconds: 604800 })).toBe(true);
    expect(validator('InstallationApiKeyRotateRequest')({ overlapSeconds: 604801 })).toBe(false);
    expect(validator('InstallationApiKeyRotateRequest')({ overlapSeconds: -1 })).toBe(false);
    expect(validator('InstallationApiKeyRotateRequest')({ overlapSeconds: 1.5 })).toBe(false);
    expect(validator('AppInput')({ slug: 'courier-co', name: 'Courier Co' })).toBe(true);
    expect(validator('InstallationInput')({ appId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f10', contractVersion: 0 })).toBe(
      false,
    );
  });

  it('describes credentials and connect results', () => {
    const installation = {
      id: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f10',
      tenantId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f11',
      appId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f12',
      appName: 'Courier Co',
      contractVersion: 1,
      authType: 'OAuth2',
      status: 'Connecting',
      scopes: [],
      subscribedEvents: ['delivery.assigned'],
      webhookUrl: 'https://partner.example/hooks',
      apiKeyId: null,
      webhookSecretSet: false,
      oauthConnected: false,
      installedAt: '2030-01-01T10:00:00Z',
      connectedAt: null,
      updatedAt: '2030-01-01T10:00:00Z',
    };
    expect(validator('Installation')(installation)).toBe(true);
    expect(validator('Installation')({ ...installation, status: 'Pending' })).toBe(false);
    const connect = validator('ConnectResult');
    expect(
      connect({ installation, credentials: null, authorizationUrl: 'https://partner.example/authorize?state=s' }),
    ).toBe(true);
    expect(
      connect({ installation, credentials: { apiKey: 'mpk_x.y', webhookSigningSecret: null }, authorizationUrl: null }),
    ).toBe(true);
    expect(
      validator('ApiKeyRotationResult')({
        installation,
        credentials: { apiKey: 'mpk_x.y', webhookSigningSecret: null },
        previousKeyExpiresAt: null,
      }),
    ).toBe(true);
    expect(
      validator('ApiKeyRotationResult')({
        installation,
        credentials: { apiKey: 'mpk_x.y', webhookSigningSecret: null },
        previousKeyExpiresAt: '2030-01-01T10:00:02Z',
      }),
    ).toBe(true);
    expect(
      validator('ApiKeyRotationResult')({
        installation,
        credentials: { apiKey: 'mpk_x.y', webhookSigningSecret: 'whsec_z' },
        previousKeyExpiresAt: null,
      }),
    ).toBe(false);
    expect(
      validator('WebhookSecretRotationResult')({
        installation,
        credentials: { apiKey: null, webhookSigningSecret: 'whsec_z' },
      }),
    ).toBe(true);
  });

  it('lists its error codes', () => {
    const description = String(obj(marketplace.info).description);
    for (const code of [
      'auth.unauthenticated',
      'resource.not_found',
      'request.invalid',
      'request.malformed',
      'marketplace.tenant.slug_taken',
      'marketplace.app.slug_taken',
      'marketplace.contract_version.published',
      'marketplace.installation.exists',
      'marketplace.installation.already_connected',
      'marketplace.installation.not_connected',
      'marketplace.installation.no_events',
      'oauth.state_invalid',
      'oauth.authorization_denied',
      'oauth.token_exchange_failed',
      'oauth.token_exchange_timeout',
      'service.unavailable',
    ]) {
      expect(description).toContain(`\`${code}\``);
    }
  });
});
