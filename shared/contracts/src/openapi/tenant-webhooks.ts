/**
 * OpenAPI 3.1 description of the webhook sender's part of the tenant API, served at
 * `GET /api/tenant/v1/webhooks/openapi.json` (through the gateway, with a tenant token); the gateway
 * shows it at /docs, and webhook-sender's unit test checks that it lists exactly the routes served.
 */
import { type Json, closed, dateTime, json, nullable, problem, ref, uuid } from './parts';
import { Problem } from '../http/problem';

const PREFIX = '/api/tenant/v1/webhooks';
const param = (name: string): Json => ({ name, in: 'path', required: true, schema: uuid });

const NOT_FOUND = problem(
  "An installation or delivery that does not exist or is another tenant's (the same answer).",
  '`resource.not_found`',
);
const op = (operationId: string, summary: string, description: string, parameters: Json[], responses: Json): Json => ({
  tags: ['Webhooks'],
  operationId,
  summary,
  description,
  security: [{ tenantToken: [] }],
  parameters,
  responses: { ...responses, '401': problem('No valid tenant token.', '`auth.unauthenticated`') },
});

const STATUSES = ['pending', 'delivered', 'failed', 'dead_lettered', 'cancelled'];

const DELIVERY: Json = {
  id: { ...uuid, description: 'The envelope id and X-Marketplace-Event-Id: stable across retries and redeliveries.' },
  installationId: uuid,
  type: { type: 'string' },
  status: { type: 'string', enum: STATUSES },
  reason: nullable({ type: 'string' }),
  round: { type: 'integer', minimum: 1 },
  attemptCount: { type: 'integer', minimum: 0 },
  nextAttemptAt: nullable(dateTime),
  occurredAt: dateTime,
  createdAt: dateTime,
  updatedAt: dateTime,
  attempts: { type: 'array', items: ref('Attempt') },
};

export const tenantWebhooksApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Marketplace tenant API: webhook deliveries',
    version: '1.0.0',
    description:
      "Every webhook sent to one of the tenant's installations, with each attempt (time, HTTP status, latency, error class; never headers or " +
      'bodies), the dead letters (deliveries that failed all 8 attempts), redelivery and the `system.test` event. Retries follow 2, 6, 18, 54, ' +
      '162 and 486 minutes, then 12 hours, with ±20 % jitter; 2xx is delivered; 5xx, 408, 429 and network errors are retried; other statuses are final.',
  },
  servers: [{ url: '/' }],
  paths: {
    [`${PREFIX}/installations/{installationId}/deliveries`]: {
      get: op(
        'listWebhookDeliveries',
        "List an installation's deliveries",
        'Newest first. `status=dead_lettered` lists the dead letters.',
        [
          param('installationId'),
          { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: STATUSES } },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
          },
        ],
        {
          '200': json('The deliveries, without their payloads.', { type: 'array', items: ref('Delivery') }),
          '400': problem('A query parameter is invalid; `errors` names it.', '`request.invalid`'),
          '404': NOT_FOUND,
        },
      ),
    },
    [`${PREFIX}/installations/{installationId}/test`]: {
      post: op(
        'sendWebhookTestEvent',
        'Send system.test',
        'Sends `system.test` (no business data) through the same signed and retried pipeline, whether or not the installation subscribed to it.',
        [param('installationId')],
        {
          '202': json('The delivery, with the payload it sends.', ref('DeliveryWithPayload')),
          '404': NOT_FOUND,
          '409': problem(
            'The installation is not connected or has no webhook URL.',
            '`webhook.installation_not_receiving`',
          ),
        },
      ),
    },
    [`${PREFIX}/deliveries/{deliveryId}`]: {
      get: op(
        'getWebhookDelivery',
        'Get a delivery',
        'With every attempt and the payload sent (the same bytes on every attempt).',
        [param('deliveryId')],
        {
          '200': json('The delivery.', ref('DeliveryWithPayload')),
          '404': NOT_FOUND,
        },
      ),
    },
    [`${PREFIX}/deliveries/{deliveryId}/redeliver`]: {
      post: op(
        'redeliverWebhook',
        'Redeliver',
        'Sends a delivery that has ended again, as a new round with the whole retry schedule: the same id and body, a fresh timestamp and signature.',
        [param('deliveryId')],
        {
          '202': json('The delivery, pending again.', ref('Delivery')),
          '404': NOT_FOUND,
          '409': problem(
            'Still being attempted, or the installation no longer receives this type.',
            '`webhook.delivery_in_progress`, `webhook.installation_not_receiving`',
          ),
          '503': problem('The delivery is being updated.', '`resource.busy`'),
        },
      ),
    },
    [`${PREFIX}/openapi.json`]: {
      get: {
        tags: ['Webhooks'],
        operationId: 'getTenantWebhooksApiDocument',
        summary: 'This document',
        security: [{ tenantToken: [] }],
        responses: {
          '200': json('OpenAPI 3.1.', { type: 'object' }),
          '401': problem('No valid tenant token.', '`auth.unauthenticated`'),
        },
      },
    },
  },
  components: {
    securitySchemes: {
      tenantToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'A tenant token issued by the platform administrator.',
      },
    },
    schemas: {
      Attempt: closed({
        round: { type: 'integer', minimum: 1 },
        attempt: { type: 'integer', minimum: 1, maximum: 8 },
        at: dateTime,
        statusCode: nullable({ type: 'integer' }),
        latencyMs: { type: 'integer', minimum: 0 },
        errorClass: nullable({
          type: 'string',
          enum: ['timeout', 'connect', 'dns', 'refused_address', 'tls', 'reset', 'other'],
        }),
        verdict: { type: 'string', enum: ['delivered', 'retry', 'permanent'] },
      }),
      Delivery: closed(DELIVERY),
      DeliveryWithPayload: closed({
        ...DELIVERY,
        payload: closed({
          id: uuid,
          type: { type: 'string' },
          version: { const: 1 },
          occurredAt: dateTime,
          data: { type: 'object' },
        }),
      }),
      Problem,
    },
  },
};
