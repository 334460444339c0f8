import { AppError } from '@marketplace/errors';
import { bodyValidator } from '@marketplace/http';
import { componentValidator, validateOpenApi } from '@marketplace/testing';
import {
  PROVIDER_CONTRACT,
  PROVIDER_EVENTS,
  PROVIDER_EVENT_TYPES,
  PROVIDER_LIMITS,
  PROVIDER_STATUSES,
  PROVIDER_TRANSITIONS,
  PROVIDER_WEBHOOK_RETRY,
  TERMINAL_STATUSES,
  isTerminalStatus,
  providerApiDocument,
  requestSchemas,
} from './index';

type Body = Record<string, unknown>;

/** The field errors a request schema reports for a body, or undefined when the body passes. */
function errorsOf(name: keyof typeof requestSchemas, body: unknown): Record<string, string[]> | undefined {
  const validate = bodyValidator<unknown>(requestSchemas[name]);
  try {
    validate(body);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).fieldErrors;
  }
}

const L = PROVIDER_LIMITS;
const chars = (n: number) => 'x'.repeat(n);

const validCreate = (): Body => ({
  platformReference: 'ord-1',
  idempotencyKey: 'ord-1',
  pickupAddress: '1 Pickup Street',
  pickupLat: 52.52,
  pickupLng: 13.405,
  customerName: 'Ada Lovelace',
  customerPhone: '+49 30 1234567',
  dropoffAddress: '2 Dropoff Street',
  dropoffLat: 52.5,
  dropoffLng: 13.4,
  paymentMethod: 'cash',
  amount: 19.99,
  deliveryFeeAmount: 2.5,
  currency: 'EUR',
  notes: 'Ring twice',
  preparationTimeMinutes: 15,
  scheduledDeliveryAtUtc: null,
  webhook: { url: 'https://platform.example/hooks/provider/tok_123?b=brand' },
});

describe('provider contract', () => {
  it('is version 1.1.0, revision 2026-09-19', () => {
    expect(PROVIDER_CONTRACT).toEqual({ version: '1.1.0', revision: '2026-09-19' });
    expect(PROVIDER_STATUSES).toHaveLength(13);
    expect(TERMINAL_STATUSES).toEqual(['delivered', 'cancelled', 'failed', 'returned_to_origin', 'return_failed']);
  });

  it.each([
    'ProviderCreateDeliveryRequest',
    'ProviderUpdateDeliveryRequest',
    'ProviderCancelRequest',
    'ProviderReturnRequest',
    'ProviderWebhookTestRequest',
  ] as const)('%s compiles under ajv strict, self-contained', (name) => {
    expect(() => bodyValidator(requestSchemas[name])).not.toThrow();
    expect(JSON.stringify(requestSchemas[name])).not.toContain('$ref');
  });

  it('retries webhooks at least 6 times over at least 15 minutes, even at the shortest jitter', () => {
    const R = PROVIDER_WEBHOOK_RETRY;
    expect(R.attempts).toBeGreaterThanOrEqual(6);
    let seconds = 0;
    for (let k = 0; k < R.attempts - 1; k++)
      seconds += Math.min(R.firstDelaySeconds * R.factor ** k, R.maxDelaySeconds) * (1 - R.jitter);
    expect(seconds).toBeGreaterThanOrEqual(15 * 60);
  });

  describe('transitions and events', () => {
    it('terminal statuses move nowhere, and every move stays in the vocabulary', () => {
      for (const status of PROVIDER_STATUSES) {
        if (isTerminalStatus(status)) expect(PROVIDER_TRANSITIONS[status]).toEqual([]);
        else expect(PROVIDER_TRANSITIONS[status].length).toBeGreaterThan(0);
        for (const next of PROVIDER_TRANSITIONS[status]) expect(PROVIDER_STATUSES).toContain(next);
      }
    });

    it('every status but sent_to_provider is announced by exactly one event type', () => {
      for (const status of PROVIDER_STATUSES.filter((s) => s !== 'sent_to_provider'))
        expect(PROVIDER_EVENT_TYPES.filter((type) => PROVIDER_EVENTS[type].status === status)).toHaveLength(1);
    });

    it('keeps the spec’s nine event types first and marks the others as ours', () => {
      expect(PROVIDER_EVENT_TYPES.slice(0, 9)).toEqual([
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
      expect(PROVIDER_EVENT_TYPES.filter((type) => PROVIDER_EVENTS[type].ours)).toEqual(PROVIDER_EVENT_TYPES.slice(9));
    });
  });

  describe('ProviderCreateDeliveryRequest', () => {
    it('accepts a full valid request, one with only the required fields, and the limits themselves', () => {
      expect(errorsOf('ProviderCreateDeliveryRequest', validCreate())).toBeUndefined();
      const minimal = validCreate();
      for (const optional of ['deliveryFeeAmount', 'notes', 'scheduledDeliveryAtUtc', 'webhook'])
        delete minimal[optional];
      expect(errorsOf('ProviderCreateDeliveryRequest', minimal)).toBeUndefined();
      const atLimits: Body = {
        ...validCreate(),
        platformReference: chars(L.platformReferenceMaxLength),
        idempotencyKey: chars(L.idempotencyKeyMaxLength),
        pickupAddress: chars(L.addressMaxLength),
        dropoffAddress: chars(L.addressMaxLength),
        customerName: chars(L.customerNameMaxLength),
        customerPhone: chars(L.customerPhoneMaxLength),
        paymentMethod: chars(L.paymentMethodMaxLength),
        notes: chars(L.notesMaxLength),
        pickupLat: -90,
        pickupLng: 180,
        dropoffLat: 90,
        dropoffLng: -180,
        amount: 9_999_999_999.99,
        deliveryFeeAmount: 0,
        preparationTimeMinutes: 0,
        scheduledDeliveryAtUtc: '2026-09-20T12:00:00Z',
        webhook: { url: `https://platform.example:443/${chars(L.callbackUrlMaxLength - 29)}` },
      };
      expect((atLimits.webhook as Body).url).toHaveLength(L.callbackUrlMaxLength);
      expect(errorsOf('ProviderCreateDeliveryRequest', atLimits)).toBeUndefined();
      expect(errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), webhook: null })).toBeUndefined();
      expect(errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), webhook: { url: null } })).toBeUndefined();
      expect(errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), webhook: {} })).toBeUndefined();
    });

    it.each([
      { field: 'platformReference', value: chars(201), path: 'platformReference' },
      { field: 'platformReference', value: '', path: 'platformReference' },
      { field: 'platformReference', value: '   ', path: 'platformReference' },
      { field: 'idempotencyKey', value: chars(201), path: 'idempotencyKey' },
      { field: 'pickupAddress', value: chars(501), path: 'pickupAddress' },
      { field: 'dropoffAddress', value: chars(501), path: 'dropoffAddress' },
      { field: 'pickupLat', value: 90.0001, path: 'pickupLat' },
      { field: 'pickupLng', value: -180.5, path: 'pickupLng' },
      { field: 'dropoffLat', value: -91, path: 'dropoffLat' },
      { field: 'dropoffLng', value: 181, path: 'dropoffLng' },
      { field: 'dropoffLat', value: '52.5', path: 'dropoffLat' },
      { field: 'customerName', value: chars(201), path: 'customerName' },
      { field: 'customerPhone', value: chars(51), path: 'customerPhone' },
      { field: 'paymentMethod', value: chars(101), path: 'paymentMethod' },
      { field: 'notes', value: chars(2001), path: 'notes' },
      { field: 'amount', value: -0.01, path: 'amount' },
      { field: 'amount', value: 10_000_000_000, path: 'amount' },
      { field: 'amount', value: null, path: 'amount' },
      { field: 'deliveryFeeAmount', value: 10_000_000_000, path: 'deliveryFeeAmount' },
      { field: 'currency', value: 'eur', path: 'currency' },
      { field: 'currency', value: 'EURO', path: 'currency' },
      { field: 'preparationTimeMinutes', value: -1, path: 'preparationTimeMinutes' },
      { field: 'preparationTimeMinutes', value: 1.5, path: 'preparationTimeMinutes' },
      { field: 'scheduledDeliveryAtUtc', value: 'tomorrow', path: 'scheduledDeliveryAtUtc' },
      { field: 'webhook', value: { url: 'http://platform.example/hook' }, path: 'webhook.url' },
      { field: 'webhook', value: { url: 'https://user:pw@platform.example/hook' }, path: 'webhook.url' },
      { field: 'webhook', value: { url: 'https://platform.example/hook#top' }, path: 'webhook.url' },
      { field: 'webhook', value: { url: 'https://platform.example:8443/hook' }, path: 'webhook.url' },
      // Plain http only to the loopback names (local and test deployments; production refuses it too).
      { field: 'webhook', value: { url: 'http://127.0.0.2/hook' }, path: 'webhook.url' },
      { field: 'webhook', value: { url: 'hook' }, path: 'webhook.url' },
      { field: 'webhook', value: { url: `https://platform.example/${chars(2030)}` }, path: 'webhook.url' },
    ])('refuses $field = $value at $path', ({ field, value, path }) => {
      const errors = errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), [field]: value });
      expect(Object.keys(errors ?? {})).toEqual([path]);
    });

    it('names each missing required field', () => {
      const required = Object.keys(validCreate()).filter(
        (f) => !['deliveryFeeAmount', 'notes', 'scheduledDeliveryAtUtc', 'webhook'].includes(f),
      );
      for (const field of required) {
        const body = validCreate();
        delete body[field];
        expect(errorsOf('ProviderCreateDeliveryRequest', body)).toEqual({ [field]: ['is required'] });
      }
    });
  });

  describe('ProviderUpdateDeliveryRequest', () => {
    it('accepts any subset, the empty one, and explicit nulls (which mean unchanged)', () => {
      expect(errorsOf('ProviderUpdateDeliveryRequest', {})).toBeUndefined();
      expect(errorsOf('ProviderUpdateDeliveryRequest', { customerPhone: '+1 555 0100' })).toBeUndefined();
      expect(
        errorsOf('ProviderUpdateDeliveryRequest', {
          dropoffAddress: null,
          dropoffLat: null,
          dropoffLng: null,
          customerPhone: null,
          scheduledDeliveryAtUtc: null,
          notes: null,
          customerName: null,
          customerEmail: null,
          amount: null,
          currency: null,
          paymentMethod: null,
          deliveryFeeAmount: null,
          preparationTimeMinutes: null,
        }),
      ).toBeUndefined();
      expect(
        errorsOf('ProviderUpdateDeliveryRequest', {
          dropoffAddress: '3 New Street',
          dropoffLat: 1,
          dropoffLng: 2,
          customerEmail: chars(L.customerEmailMaxLength),
        }),
      ).toBeUndefined();
      // A null trio member with the others null too: nothing of the drop-off changes.
      expect(errorsOf('ProviderUpdateDeliveryRequest', { dropoffAddress: null, customerName: 'Bo' })).toBeUndefined();
    });

    it.each([
      { body: { dropoffAddress: 'x' }, errors: { dropoffLat: ['is required'], dropoffLng: ['is required'] } },
      { body: { dropoffLat: 1 }, errors: { dropoffAddress: ['is required'], dropoffLng: ['is required'] } },
      { body: { dropoffLat: 1, dropoffLng: 2 }, errors: { dropoffAddress: ['is required'] } },
      { body: { dropoffAddress: 'x', dropoffLat: 1, dropoffLng: null }, errors: { dropoffLng: ['must be number'] } },
      { body: { dropoffAddress: null, dropoffLat: 1, dropoffLng: 2 }, errors: { dropoffAddress: ['must be string'] } },
    ])('refuses a partial drop-off trio $body', ({ body, errors }) => {
      expect(errorsOf('ProviderUpdateDeliveryRequest', body)).toEqual(errors);
    });

    it.each([
      { field: 'customerEmail', value: chars(255) },
      { field: 'customerPhone', value: chars(51) },
      { field: 'customerName', value: '' },
      { field: 'notes', value: chars(2001) },
      { field: 'amount', value: 10_000_000_000 },
      { field: 'deliveryFeeAmount', value: -1 },
      { field: 'currency', value: 'usd' },
      { field: 'paymentMethod', value: chars(101) },
      { field: 'preparationTimeMinutes', value: -5 },
      { field: 'scheduledDeliveryAtUtc', value: '12:00' },
    ])('refuses $field = $value at its own path', ({ field, value }) => {
      expect(Object.keys(errorsOf('ProviderUpdateDeliveryRequest', { [field]: value }) ?? {})).toEqual([field]);
    });
  });

  // Versioning rule 1: a new optional request property is a backward-compatible change, so every
  // request body takes properties it does not know, at any level, and the service ignores them
  // (the validator projects the body onto the schema: nothing unknown is stored).
  describe('unknown properties (accepted, ignored)', () => {
    const extra = { futureField: 'x', nested: { deep: [1, 2] } };
    const open = bodyValidator<unknown>;
    it.each([
      [
        'ProviderCreateDeliveryRequest',
        { ...validCreate(), ...extra, webhook: { url: 'https://platform.example/h', secret: 's', ...extra } },
      ],
      ['ProviderCreateDeliveryRequest', { ...validCreate(), tenantId: 'x', webhook: { ...extra } }],
      ['ProviderUpdateDeliveryRequest', { ...extra, platformReference: 'x', notes: 'n' }],
      ['ProviderUpdateDeliveryRequest', { ...extra }],
      ['ProviderCancelRequest', { stage: 'before_pickup', ...extra }],
      ['ProviderReturnRequest', { reasonCode: 'customer_absent', ...extra }],
      ['ProviderWebhookTestRequest', { url: null, ...extra }],
    ] as const)('%s takes unknown properties (case %#) and drops them', (name, body) => {
      expect(errorsOf(name, body)).toBeUndefined();
      const kept = open(requestSchemas[name], { status: 422, dropUnknown: true })(body) as Body;
      const names = Object.keys(requestSchemas[name].properties as object);
      expect(Object.keys(kept).every((key) => names.includes(key))).toBe(true);
      expect(Object.keys(kept)).toEqual(Object.keys(body).filter((key) => names.includes(key)));
      if ('webhook' in kept) expect(Object.keys(kept.webhook as object).every((key) => key === 'url')).toBe(true);
    });

    it('still refuses known fields that break their rules, next to unknown ones', () => {
      expect(errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), ...extra, pickupLat: 91 })).toEqual({
        pickupLat: ['must be <= 90'],
      });
      expect(
        Object.keys(
          errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), webhook: { url: 'hook', x: 1 } }) ?? {},
        ),
      ).toEqual(['webhook.url']);
      expect(
        Object.keys(errorsOf('ProviderUpdateDeliveryRequest', { customerEmail: chars(255), ...extra }) ?? {}),
      ).toEqual(['customerEmail']);
      expect(Object.keys(errorsOf('ProviderCancelRequest', { ...extra }) ?? {})).toEqual(['stage']);
    });
  });

  it('blank strings: refused in the required text fields, kept in notes; an empty callback is not an absent one', () => {
    const blank = ['', ' ', '\t\n'];
    for (const field of [
      'platformReference',
      'idempotencyKey',
      'pickupAddress',
      'dropoffAddress',
      'customerName',
      'customerPhone',
      'paymentMethod',
    ])
      for (const value of blank)
        expect(
          Object.keys(errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), [field]: value }) ?? {}),
        ).toEqual([field]);
    for (const field of ['customerName', 'customerPhone', 'customerEmail', 'paymentMethod'])
      expect(Object.keys(errorsOf('ProviderUpdateDeliveryRequest', { [field]: ' ' }) ?? {})).toEqual([field]);
    expect(Object.keys(errorsOf('ProviderReturnRequest', { reasonCode: ' ' }) ?? {})).toEqual(['reasonCode']);
    for (const value of blank) {
      expect(errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), notes: value })).toBeUndefined();
      expect(errorsOf('ProviderUpdateDeliveryRequest', { notes: value })).toBeUndefined();
      expect(
        Object.keys(errorsOf('ProviderCreateDeliveryRequest', { ...validCreate(), webhook: { url: value } }) ?? {}),
      ).toEqual(['webhook.url']);
      expect(Object.keys(errorsOf('ProviderWebhookTestRequest', { url: value }) ?? {})).toEqual(['url']);
    }
  });

  it('cancel, return and webhook test bodies', () => {
    expect(errorsOf('ProviderCancelRequest', { stage: 'before_pickup' })).toBeUndefined();
    expect(errorsOf('ProviderCancelRequest', { stage: 'after_pickup' })).toBeUndefined();
    expect(errorsOf('ProviderCancelRequest', { stage: 'later' })).toEqual({
      stage: ['must be one of "before_pickup", "after_pickup"'],
    });
    expect(errorsOf('ProviderCancelRequest', {})).toEqual({ stage: ['is required'] });

    expect(errorsOf('ProviderReturnRequest', { reasonCode: 'customer_absent' })).toBeUndefined();
    expect(Object.keys(errorsOf('ProviderReturnRequest', { reasonCode: '' }) ?? {})).toEqual(['reasonCode']);
    expect(Object.keys(errorsOf('ProviderReturnRequest', { reasonCode: chars(101) }) ?? {})).toEqual(['reasonCode']);

    expect(errorsOf('ProviderWebhookTestRequest', {})).toBeUndefined();
    expect(errorsOf('ProviderWebhookTestRequest', { url: null, eventType: 'webhook.test', other: 1 })).toBeUndefined();
    expect(errorsOf('ProviderWebhookTestRequest', { url: 'https://platform.example/hooks/t' })).toBeUndefined();
    expect(Object.keys(errorsOf('ProviderWebhookTestRequest', { url: 'http://10.0.0.1/' }) ?? {})).toEqual(['url']);
    expect(Object.keys(errorsOf('ProviderWebhookTestRequest', { eventType: 'delivery.accepted' }) ?? {})).toEqual([
      'eventType',
    ]);
  });
});

describe('providerApiDocument', () => {
  const doc = providerApiDocument as Record<string, any>;

  it('is valid OpenAPI 3.1 and plain JSON, at version 1.1.0 revision 2026-09-19', () => {
    expect(validateOpenApi(doc)).toMatchObject({ valid: true });
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(doc.info).toMatchObject({ version: '1.1.0', 'x-contract-revision': '2026-09-19' });
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/v1' })]);
  });

  it('lists exactly the seven endpoints of the contract, each with a unique id', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, id: op.operationId })),
    );
    expect(operations.map((o) => o.route).sort()).toEqual(
      [
        'POST /deliveries',
        'GET /deliveries/{providerDeliveryId}/status',
        'GET /deliveries/{providerDeliveryId}/tracking',
        'PATCH /deliveries/{providerDeliveryId}',
        'POST /deliveries/{providerDeliveryId}/cancel',
        'POST /deliveries/{providerDeliveryId}/return',
        'POST /webhooks/test',
      ].sort(),
    );
    expect(new Set(operations.map((o) => o.id)).size).toBe(7);
  });

  it('answers every error with the envelope as application/json, and 429 with Retry-After', () => {
    for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(item)) {
        // No 502: nothing we depend on is called within a request (services/provider-delivery error-codes.test.ts).
        for (const status of ['401', '403', '429', '500', '503']) expect(op.responses[status]).toBeDefined();
        expect(op.responses['429'].headers['Retry-After']).toBeDefined();
        for (const [status, answer] of Object.entries(op.responses as Record<string, any>)) {
          const schema = status === '200' ? expect.anything() : { $ref: '#/components/schemas/ProviderError' };
          expect(answer.content).toEqual({ 'application/json': { schema } });
        }
      }
    }
    const create = doc.paths['/deliveries'].post;
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '409', '422', '429', '500', '503']),
    );
    expect(create.responses['409'].description).toContain('idempotency.payload_mismatch');
    expect(create.responses['409'].description).toContain('idempotency.callback_mismatch');
    expect(doc.paths['/deliveries/{providerDeliveryId}/status'].get.responses['404'].description).toContain(
      'delivery.not_found',
    );
  });

  it('documents the webhook events with the signature header, and every $ref resolves', () => {
    expect(Object.keys(doc.webhooks)).toEqual(['deliveryEvent', 'webhookTest']);
    const event = doc.webhooks.deliveryEvent.post;
    expect(event.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ProviderWebhookEvent',
    });
    expect(event.parameters).toEqual([expect.objectContaining({ name: 'X-Platform-Signature', in: 'header' })]);
    const refs = (value: unknown): string[] =>
      Array.isArray(value)
        ? value.flatMap(refs)
        : value && typeof value === 'object'
          ? Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refs(v)))
          : [];
    const missing = refs(doc)
      .map((r) => r.replace('#/components/schemas/', ''))
      .filter((name) => !(name in doc.components.schemas));
    expect(missing).toEqual([]);
  });

  it('documents no request body as closed: unknown properties are ignored (versioning rule 1)', () => {
    const closed: string[] = [];
    const walk = (value: unknown, path: string): void => {
      if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}/${i}`));
      else if (value && typeof value === 'object')
        for (const [key, item] of Object.entries(value)) {
          if (key === 'additionalProperties' && item === false) closed.push(path);
          walk(item, `${path}/${key}`);
        }
    };
    for (const name of Object.keys(requestSchemas).filter((n) => n.startsWith('Provider') && n.endsWith('Request')))
      walk(doc.components.schemas[name], name);
    expect(closed).toEqual([]);
  });

  it('describes what a platform integrates from', () => {
    const text = doc.info.description as string;
    for (const needle of [
      '/v1',
      'Authorization: Bearer',
      'application/json; charset=utf-8',
      'idempotencyKey',
      'X-Platform-Signature',
      'HMAC-SHA256',
      'Retry-After',
      'at least 6 attempts',
      'return_failed',
      'delivery.return_requested',
      'request.invalid',
      'after a terminal event',
      'Unknown properties',
      'Blank strings',
      'as its UTF-8 bytes',
      'providerTrackingId` (optional in the spec) is never sent',
      `customerEmail\` (PATCH only) is at most ${L.customerEmailMaxLength} characters`,
    ])
      expect(text.toLowerCase()).toContain(needle.toLowerCase());
  });

  describe('response schemas (as OpenAPI 3.1 readers see them)', () => {
    const validator = (name: string) => componentValidator(doc, name);
    const event = (eventType: string, status: string, extra: Body = {}): Body => ({
      eventType,
      platformReference: 'ord-1',
      providerDeliveryId: 'd-1',
      status,
      eventTimeUtc: '2026-09-20T12:00:00Z',
      driverName: null,
      driverPhone: null,
      driverLat: null,
      driverLng: null,
      trackingUrl: null,
      estimatedDeliveryAtUtc: null,
      ...extra,
    });

    it('an event carries the status of its type, and the data it needs', () => {
      const valid = validator('ProviderWebhookEvent');
      for (const type of PROVIDER_EVENT_TYPES) {
        const { status, requires } = PROVIDER_EVENTS[type];
        const extra: Body = requires.length
          ? { driverLat: 1, driverLng: 2, estimatedDeliveryAtUtc: '2026-09-20T12:30:00Z' }
          : {};
        expect(valid(event(type, status === 'current' ? 'on_the_way' : status, extra))).toBe(true);
      }
      expect(valid(event('delivery.accepted', 'picked_up'))).toBe(false);
      expect(valid(event('tracking.updated', 'delivered'))).toBe(false);
      expect(valid(event('driver.location_updated', 'on_the_way'))).toBe(false);
      expect(valid(event('eta.updated', 'on_the_way'))).toBe(false);
      expect(valid(event('tracking.updated', 'on_the_way', { driverLat: 1 }))).toBe(false);
      expect(valid(event('delivery.accepted', 'provider_accepted', { status: 'unknown' }))).toBe(false);
      const { eventType: _omitted, ...withoutType } = event('delivery.delivered', 'delivered');
      expect(valid(withoutType)).toBe(false);
    });

    it('a create answer has an id exactly when accepted, and a reason exactly when not', () => {
      const valid = validator('ProviderCreateDeliveryResponse');
      expect(valid({ accepted: true, providerDeliveryId: 'd-1' })).toBe(true);
      expect(valid({ accepted: false, rejectionReason: 'outside_service_area' })).toBe(true);
      expect(valid({ accepted: true })).toBe(false);
      expect(valid({ accepted: false })).toBe(false);
      expect(valid({ accepted: false, rejectionReason: 'x', providerDeliveryId: 'd-1' })).toBe(false);
    });

    it('update, tracking and error answers', () => {
      expect(validator('ProviderUpdateDeliveryResponse')({ fieldAccepted: { notes: true, amount: false } })).toBe(true);
      expect(validator('ProviderUpdateDeliveryResponse')({ fieldAccepted: { tip: true } })).toBe(false);
      const tracking = {
        driverName: null,
        driverPhone: null,
        driverLat: null,
        driverLng: null,
        trackingUrl: null,
        estimatedDeliveryAtUtc: null,
        eventTimeUtc: '2026-09-20T12:00:00Z',
      };
      expect(validator('ProviderTrackingResponse')(tracking)).toBe(true);
      expect(validator('ProviderTrackingResponse')({ ...tracking, driverLat: 1 })).toBe(false);
      expect(validator('ProviderTrackingResponse')({ ...tracking, driverLat: 1, driverLng: 2 })).toBe(true);
      expect(
        validator('ProviderError')({
          code: 'request.invalid',
          message: 'The request is invalid.',
          retryable: false,
          fieldErrors: { dropoffLat: ['is required'] },
        }),
      ).toBe(true);
    });

    it('the drop-off trio rule holds in the 2020-12 dialect too', () => {
      const valid = validator('ProviderUpdateDeliveryRequest');
      expect(valid({ dropoffAddress: 'x', dropoffLat: 1, dropoffLng: 2 })).toBe(true);
      expect(valid({ dropoffAddress: 'x' })).toBe(false);
    });
  });
});
