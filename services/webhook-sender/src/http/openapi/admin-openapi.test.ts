import { componentValidator, validateOpenApi } from '@marketplace/testing';
import { providerCallbacksAdminApiDocument } from '@marketplace/contracts';
import { providerCallbackView } from '../views';
import type { ProviderCallbackDelivery } from '../../domain/delivery';

const validator = (name: string) => componentValidator(providerCallbacksAdminApiDocument, name);

it('is valid OpenAPI 3.1, every operation with a unique id, the administrator token and a 401', () => {
  expect(validateOpenApi(providerCallbacksAdminApiDocument)).toMatchObject({ valid: true });
  const operations = Object.values(providerCallbacksAdminApiDocument.paths as Record<string, Record<string, any>>)
    .flatMap((item) => Object.values(item))
    .filter((op) => typeof op === 'object' && op.operationId);
  expect(new Set(operations.map((op) => op.operationId)).size).toBe(4);
  for (const op of operations) {
    expect(op.security).toEqual([{ adminToken: [] }]);
    expect(op.responses['401']).toBeDefined();
  }
});

const body = {
  eventType: 'driver.location_updated',
  platformReference: 'order-4711',
  providerDeliveryId: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a13',
  status: 'on_the_way',
  eventTimeUtc: '2026-11-23T10:00:00.000Z',
  driverName: 'Max',
  driverPhone: '+49 170 1234567',
  driverLat: 52.52,
  driverLng: 13.4,
  trackingUrl: null,
  estimatedDeliveryAtUtc: null,
};
const delivery: ProviderCallbackDelivery = {
  _id: '7f0c1a52-8a43-8f55-9d2b-0b1f4b9c7a11',
  kind: 'provider-callback',
  accountId: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a12',
  providerDeliveryId: body.providerDeliveryId,
  callbackUrlSealed: 'v1.sealed-url-stays-here',
  terminal: false,
  type: body.eventType,
  sourceEventId: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a14',
  occurredAt: '2026-11-23T10:00:00.000Z',
  body: JSON.stringify(body),
  status: 'cancelled',
  round: 1,
  nextAttempt: 2,
  nextAttemptAt: null,
  attempts: [
    {
      round: 1,
      attempt: 1,
      at: new Date('2026-11-23T10:00:01.000Z'),
      statusCode: 503,
      latencyMs: 12,
      errorClass: null,
      verdict: 'retry',
    },
  ],
  reason: 'superseded: a terminal event of the delivery was sent',
  createdAt: new Date('2026-11-23T10:00:00.000Z'),
  updatedAt: new Date('2026-11-23T10:00:02.000Z'),
};

it('describes provider callbacks the way the service answers them, without the sealed URL', () => {
  const record = { delivery, callbackOrigin: 'https://platform.example' };
  const listed = providerCallbackView(record, false);
  expect(validator('ProviderCallback')(listed)).toBe(true);
  expect(validator('ProviderCallback')({ ...listed, callbackUrl: 'https://platform.example/cb/tok' })).toBe(false);
  expect(JSON.stringify(listed)).not.toContain('sealed-url-stays-here');
  const one = providerCallbackView({ ...record, callbackOrigin: null }, true);
  expect(validator('ProviderCallbackWithBody')(one)).toBe(true);
  expect(one.body).toEqual(body);
  expect(validator('ProviderCallbackWithBody')({ ...one, body: { eventType: 'x' } })).toBe(false);
});
