/**
 * OpenAPI 3.1 description of the webhook sender's administrator API of provider callbacks, served
 * at `GET /admin/v1/provider-callbacks/openapi.json` (with an administrator token): the delivery
 * provider contract's callbacks that provider-delivery hands the sender on `provider-events`, with
 * their attempts and redelivery, for provider-delivery's operators. webhook-sender's unit test
 * checks that it lists exactly the routes served.
 */
import { type Json, closed, dateTime, json, nullable, problem, ref, uuid } from './parts';
import { Problem } from '../http/problem';

const PREFIX = '/admin/v1/provider-callbacks';
const STATUSES = ['pending', 'delivered', 'failed', 'dead_lettered', 'cancelled'];

const deliveryId: Json = {
  name: 'deliveryId',
  in: 'path',
  required: true,
  schema: uuid,
  description: 'The callback (`id` of a listing).',
};
const query = (name: string, required: boolean, schema: Json, description: string): Json => ({
  name,
  in: 'query',
  required,
  schema,
  description,
});

const UNAUTHENTICATED = problem(
  'No valid administrator token: missing, expired, signed with another key, or not role admin.',
  '`auth.unauthenticated`',
);
const NOT_FOUND = problem(
  'No provider callback has this id (a partner webhook’s id is not one).',
  '`resource.not_found`',
);

const op = (operationId: string, summary: string, description: string, parameters: Json[], responses: Json): Json => ({
  tags: ['Provider callbacks'],
  operationId,
  summary,
  description,
  security: [{ adminToken: [] }],
  parameters,
  responses: { ...responses, '401': UNAUTHENTICATED },
});

const CALLBACK: Json = {
  id: {
    ...uuid,
    description: 'The callback: one event of a provider delivery, stable across retries and redeliveries.',
  },
  accountId: { ...uuid, description: 'The platform account the provider delivery belongs to.' },
  providerDeliveryId: uuid,
  type: { type: 'string', description: 'The event type (`eventType` of the body), e.g. `delivery.accepted`.' },
  terminal: {
    type: 'boolean',
    description: 'Whether the event’s status is terminal: after one, no nonterminal event of the delivery is sent.',
  },
  callbackOrigin: nullable({
    type: 'string',
    description:
      'Scheme and host of the delivery’s callback URL, never its path (which holds a confidential token); null when ' +
      'the sealed URL does not open.',
  }),
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

const DESCRIPTION = [
  'The callbacks of the Standard Delivery Provider Contract that the webhook sender sends for provider-delivery: every ' +
    'event of a provider delivery with a callback URL, POSTed to that URL with `X-Platform-Signature` (lowercase-hex ' +
    'HMAC-SHA256 of the exact body bytes under the platform account’s webhook secret), each with its attempts (time, ' +
    'HTTP status, latency, error class; never headers, the URL’s path or the secret). Retries after 408, 429, 5xx and ' +
    'network errors: 30 s doubling to 10 minutes, ±20 % jitter, 8 attempts, a Retry-After on any retried answer honoured ' +
    'up to 1 hour; other statuses are final.',
  '**Terminal rule**: once a terminal event of a provider delivery was sent (or its request was about to leave), its ' +
    'nonterminal events still waiting for an attempt end as `cancelled` (reason `superseded: …`) and cannot be redelivered (409).',
  '**Authentication**: `Authorization: Bearer <token>`, an HS256 JWT with `role: "admin"`, `sub` and `exp`, signed with ' +
    '`PROVIDER_ADMIN_TOKEN_SECRET`, the key of provider-delivery’s administrator API (its operators are these ' +
    'callbacks’ audience). Answers carry `Cache-Control: no-store`. Errors are problem+json.',
  '**Rate limits** (defaults; each deployment sets its own): 600 requests a minute per client address, counted ' +
    'before the token is checked, and 300 per administrator (`sub`); over either, 429 `rate_limit.exceeded` with ' +
    '`Retry-After` in seconds.',
].join('\n\n');

export const providerCallbacksAdminApiDocument: Json = {
  openapi: '3.1.0',
  info: { title: 'Webhook sender: provider callbacks (administrator API)', version: '1.0.0', description: DESCRIPTION },
  servers: [{ url: '/' }],
  security: [{ adminToken: [] }],
  tags: [{ name: 'Provider callbacks', description: 'Callbacks to platforms, their attempts and redelivery.' }],
  paths: {
    [PREFIX]: {
      get: op(
        'listProviderCallbacks',
        'List an account’s callbacks',
        'Newest first, with their attempts, without their bodies. `status=dead_lettered` lists the dead letters.',
        [
          query('accountId', true, uuid, 'The platform account.'),
          query('providerDeliveryId', false, uuid, 'Only the events of this provider delivery.'),
          query('status', false, { type: 'string', enum: STATUSES }, 'Only the callbacks with this status.'),
          query('limit', false, { type: 'integer', minimum: 1, maximum: 200, default: 50 }, 'At most this many.'),
        ],
        {
          '200': json('The callbacks.', { type: 'array', items: ref('ProviderCallback') }),
          '400': problem('A query parameter is missing or invalid; `errors` names it.', '`request.invalid`'),
        },
      ),
    },
    [`${PREFIX}/{deliveryId}`]: {
      get: op(
        'getProviderCallback',
        'Get a callback',
        'With every attempt and the body sent (the same bytes on every attempt).',
        [deliveryId],
        { '200': json('The callback.', ref('ProviderCallbackWithBody')), '404': NOT_FOUND },
      ),
    },
    [`${PREFIX}/{deliveryId}/redeliver`]: {
      post: op(
        'redeliverProviderCallback',
        'Redeliver',
        'Sends a callback that has ended again, as a new round with the whole retry schedule: the same id and body, ' +
          'signed with the account’s current secret.',
        [deliveryId],
        {
          '202': json('The callback, pending again.', ref('ProviderCallback')),
          '404': NOT_FOUND,
          '409': problem(
            'Still being attempted, or a nonterminal event of a provider delivery whose terminal event was sent.',
            '`webhook.delivery_in_progress`, `provider_callback.superseded`',
          ),
          '503': problem('The callback is being updated.', '`resource.busy`'),
        },
      ),
    },
    [`${PREFIX}/openapi.json`]: {
      get: op('getProviderCallbacksAdminApiDocument', 'This document', 'OpenAPI 3.1.', [], {
        '200': json('OpenAPI 3.1.', { type: 'object' }),
      }),
    },
  },
  components: {
    securitySchemes: {
      adminToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'HS256 JWT, role admin, signed with PROVIDER_ADMIN_TOKEN_SECRET.',
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
      ProviderCallback: closed(CALLBACK),
      ProviderCallbackWithBody: closed({
        ...CALLBACK,
        body: {
          type: 'object',
          required: ['eventType', 'platformReference', 'providerDeliveryId', 'status', 'eventTimeUtc'],
          description:
            'The flat event as sent (`ProviderWebhookEvent` of the provider contract), with the driver’s data it ' +
            'carries.',
        },
      }),
      Problem,
    },
  },
};
