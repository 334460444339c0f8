import { componentValidator, tenantDocumentOperationIds } from '@marketplace/testing';
import { tenantWebhooksApiDocument } from '@marketplace/contracts';

const validator = (name: string) => componentValidator(tenantWebhooksApiDocument, name);

it('is valid OpenAPI 3.1 with a unique id, the tenant token and a 401 on every operation', () => {
  expect(tenantDocumentOperationIds(tenantWebhooksApiDocument)).toHaveLength(5);
});

it('describes deliveries the way the service answers them', () => {
  const delivery = {
    id: '7f0c1a52-8a43-8f55-9d2b-0b1f4b9c7a11',
    installationId: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a12',
    type: 'orders.created',
    status: 'dead_lettered',
    reason: 'no success after 8 attempts',
    round: 1,
    attemptCount: 1,
    nextAttemptAt: null,
    occurredAt: '2026-11-23T10:00:00.000Z',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    attempts: [
      {
        round: 1,
        attempt: 1,
        at: '2026-11-23T10:00:00.000Z',
        statusCode: 503,
        latencyMs: 12,
        errorClass: null,
        verdict: 'retry',
      },
    ],
  };
  expect(validator('Delivery')(delivery)).toBe(true);
  expect(validator('Delivery')({ ...delivery, secret: 'x' })).toBe(false);
  const payload = {
    id: delivery.id,
    type: 'orders.created',
    version: 1,
    occurredAt: delivery.occurredAt,
    data: { orderId: 'o' },
  };
  expect(validator('DeliveryWithPayload')({ ...delivery, payload })).toBe(true);
  expect(validator('DeliveryWithPayload')({ ...delivery, payload: { ...payload, version: 2 } })).toBe(false);
});
