/**
 * OpenAPI 3.1 description of provider-delivery's administrator API, served at
 * `GET /admin/v1/openapi.json`: the platform accounts that call the provider contract, their API
 * keys and webhook secrets. The request bodies are the very schemas the routes validate with; the
 * service's unit test checks that it lists exactly the routes served.
 */
import { type Json, json, uuid } from './parts';
import {
  PLATFORM_RATE_LIMIT,
  providerAdminSchemas,
  providerCourierSchemas,
  providerOperationsSchemas,
  providerSchemas,
  requestSchemas,
} from '../http';

const PREFIX = '/admin/v1/platform-accounts';
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const envelope = (description: string, codes: string[]): Json => ({
  description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
  content: { 'application/json': { schema: ref('ProviderError') } },
});
const accountId: Json = { name: 'accountId', in: 'path', required: true, schema: uuid, description: 'The account.' };
const keyId: Json = {
  name: 'keyId',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^pdk_[A-Za-z0-9_-]{22}$' },
  description: 'The key id (`pdk_…`).',
};
const body = (name: string, required = true): Json => ({
  required,
  content: { 'application/json': { schema: ref(name) } },
});

const COMMON: Json = {
  '401': envelope(
    'No valid administrator token: missing, expired, signed with another key, or not role admin (a tenant token, ' +
      'a platform API key).',
    ['auth.unauthenticated'],
  ),
  '500': envelope('An unexpected failure.', ['internal']),
};
const deliveryId: Json = {
  name: 'providerDeliveryId',
  in: 'path',
  required: true,
  schema: uuid,
  description: 'The delivery.',
};
const DELIVERY_NOT_FOUND: Json = {
  '404': envelope('No such delivery of this account (or no such account).', ['delivery.not_found']),
};
const driverId: Json = { name: 'driverId', in: 'path', required: true, schema: uuid, description: 'The driver.' };
const DRIVER_NOT_FOUND: Json = {
  '404': envelope('No such driver of this account (or no such account).', ['driver.not_found', 'resource.not_found']),
};
const NOT_FOUND: Json = { '404': envelope('No such account (or key of the account).', ['resource.not_found']) };
const INVALID: Json = {
  '400': envelope(
    'The body is not JSON, or breaks the schema or a rule (the service area’s rings, the webhook URL’s safety, proof ' +
      'of delivery); `fieldErrors` names each field. The administrator API answers 400 for an invalid body, where ' +
      'the platform API (/v1) answers 422.',
    ['request.invalid', 'request.malformed'],
  ),
  '415': envelope('The body is not `application/json`.', ['request.unsupported_media_type']),
};

const op = (
  operationId: string,
  summary: string,
  extra: Json,
  responses: Json,
  description?: string,
  tag = 'Platform accounts',
): Json => ({
  tags: [tag],
  operationId,
  summary,
  ...(description ? { description } : {}),
  ...extra,
  responses: { ...responses, ...COMMON },
});

const DESCRIPTION = [
  'The platforms that call our provider contract (`/v1`), each a platform account: its API keys, its webhook signing ' +
    'secret, its global webhook URL, its capabilities and its service area. Staging and production are separate ' +
    'deployments, each with its own accounts, keys and secrets.',
  '**Authentication**: `Authorization: Bearer <token>`, an HS256 JWT with `role: "admin"`, `sub` and `exp`, signed ' +
    'with this deployment’s `PROVIDER_ADMIN_TOKEN_SECRET` (not the marketplace’s token key: a marketplace ' +
    'administrator or tenant token is refused). Answers carry `Cache-Control: no-store`.',
  '**Secrets are shown once**: the webhook secret at create and at its rotation, an API key at mint and at rotation. ' +
    'Only a keyed hash of a key’s secret is stored; the webhook secret is stored encrypted (signing needs it). No read ' +
    'returns either.',
  '**Key rotation**: `POST …/api-keys/rotate` mints a key and sets every other live key of the account to expire ' +
    '`overlapSeconds` later (never later than its own expiry): during the overlap old and new both work. `DELETE ' +
    '…/api-keys/{keyId}` revokes one key at once. An account may hold several live keys.',
  `**Rate limit**: each account’s authenticated \`/v1\` requests, every key and endpoint together, are counted over a ` +
    `sliding ${PLATFORM_RATE_LIMIT.windowSeconds}-second window; more than \`rateLimit.requestsPerMinute\` ` +
    `(${PLATFORM_RATE_LIMIT.minRequestsPerMinute} to ${PLATFORM_RATE_LIMIT.maxRequestsPerMinute}, ` +
    `${PLATFORM_RATE_LIMIT.defaultRequestsPerMinute} unless set) is 429 \`request.rate_limited\` with Retry-After. A ` +
    'change applies within 5 seconds; requests already counted in the window stay counted.',
  '**Event types** (`eventTypes`, ours: the spec has no such setting): the event types an account’s platform ' +
    'receives. Unless chosen (and for an account stored before the choice existed) exactly the spec’s event table; our ' +
    'own types (`driver.arrived_at_pickup`, `delivery.on_the_way`, `delivery.return_requested`, ' +
    '`delivery.returning_to_origin`, `delivery.returned_to_origin`, `delivery.return_failed`) are opt-in, since a ' +
    'platform built against the table may answer them 4xx, which is permanent. Set at create or by `PATCH` (the whole ' +
    'list is replaced; answered in the order of the known types, each once); an unknown name or a repeated one is 400 ' +
    '`request.invalid` with `fieldErrors`. A type not chosen is not sent (the delivery’s status still moves); a change ' +
    'applies to the next event of every delivery of the account, within 5 seconds.',
  '**Operations on deliveries**: beside the drivers, who report through the courier API, an operator reads an ' +
    'account’s delivery (status, driver, tracking; no customer data) and records what happened to it. Each report goes through the one ' +
    'table of moves of the contract document and sends its event to the platform; a move the table refuses (any event ' +
    'after a terminal status among them) is 409 `delivery.transition_not_allowed`.',
  '**Drivers**: each account has a registry of the drivers of its operating area (name, phone, vehicle, shift, ' +
    'online or not). Registering a driver mints their courier token (`pdd_…`, shown once, stored as a keyed hash): ' +
    'the driver app calls the courier API (`/courier/v1`, its own document at `/courier/v1/openapi.json`) with it. ' +
    'Dispatch offers each accepted delivery to the nearest free driver.',
  '**Limits of this API** (defaults; each deployment sets its own): 600 requests a minute per client address, ' +
    'counted before the token is checked, and 300 per administrator (`sub`); over either, 429 ' +
    '`request.rate_limited` with `Retry-After` in seconds.',
  '**Errors** use the provider contract’s envelope `{ code, message, retryable, fieldErrors? }` (`application/json`).',
].join('\n\n');

export const providerAdminApiDocument: Json = {
  openapi: '3.1.0',
  info: { title: 'Delivery provider: administrator API', version: '1.0.0', description: DESCRIPTION },
  servers: [{ url: '/' }],
  security: [{ adminToken: [] }],
  tags: [
    { name: 'Platform accounts', description: 'Accounts, API keys and webhook secrets.' },
    { name: 'Deliveries', description: 'An account’s deliveries as operators see them, and what happened to them.' },
    { name: 'Drivers', description: 'The drivers of an account’s operating area and their courier credentials.' },
  ],
  paths: {
    [PREFIX]: {
      post: op(
        'createPlatformAccount',
        'Create a platform account',
        { requestBody: body('PlatformAccountInput') },
        { '201': json('The account and its webhook secret (shown once).', ref('PlatformAccountCreated')), ...INVALID },
      ),
      get: op(
        'listPlatformAccounts',
        'Every platform account, oldest first (at most 1,000)',
        {},
        { '200': json('The accounts.', { type: 'array', items: ref('PlatformAccount') }) },
      ),
    },
    [`${PREFIX}/{accountId}`]: {
      get: op(
        'getPlatformAccount',
        'One platform account',
        { parameters: [accountId] },
        { '200': json('The account.', ref('PlatformAccount')), ...NOT_FOUND },
      ),
      patch: op(
        'updatePlatformAccount',
        'Change the name, webhook URL, capabilities, service area or rate limit',
        { parameters: [accountId], requestBody: body('PlatformAccountPatch') },
        { '200': json('The account as changed.', ref('PlatformAccount')), ...INVALID, ...NOT_FOUND },
        'Only the fields sent change; `webhookUrl: null` removes the global webhook URL; `capabilities` replaces the set.',
      ),
    },
    [`${PREFIX}/{accountId}/api-keys`]: {
      post: op(
        'mintPlatformApiKey',
        'Mint an API key (shown once)',
        { parameters: [accountId] },
        { '201': json('The key; only its hash is kept.', ref('PlatformApiKeyMinted')), ...NOT_FOUND },
        'The other keys keep working.',
      ),
      get: op(
        'listPlatformApiKeys',
        'The account’s keys, without secrets, newest first',
        { parameters: [accountId] },
        { '200': json('The keys.', { type: 'array', items: ref('PlatformApiKey') }), ...NOT_FOUND },
      ),
    },
    [`${PREFIX}/{accountId}/api-keys/rotate`]: {
      post: op(
        'rotatePlatformApiKeys',
        'Mint a key; the other live keys expire after the overlap',
        { parameters: [accountId], requestBody: body('ApiKeyRotateRequest', false) },
        { '201': json('The new key (shown once).', ref('PlatformApiKeyMinted')), ...INVALID, ...NOT_FOUND },
        'An empty body is `{}` (overlap 86400 seconds).',
      ),
    },
    [`${PREFIX}/{accountId}/api-keys/{keyId}`]: {
      delete: op(
        'revokePlatformApiKey',
        'Revoke a key at once',
        { parameters: [accountId, keyId] },
        { '204': { description: 'Revoked (again: still 204).' }, ...NOT_FOUND },
      ),
    },
    [`${PREFIX}/{accountId}/webhook-secret/rotate`]: {
      post: op(
        'rotatePlatformWebhookSecret',
        'Replace the webhook secret (shown once)',
        { parameters: [accountId] },
        { '200': json('The new secret; the old one no longer signs.', ref('WebhookSecretRotated')), ...NOT_FOUND },
      ),
    },
    [`${PREFIX}/{accountId}/deliveries/{providerDeliveryId}`]: {
      get: op(
        'getOperatorDelivery',
        'One delivery of the account, as the operator sees it',
        { parameters: [accountId, deliveryId] },
        { '200': json('The delivery.', ref('OperatorDelivery')), ...DELIVERY_NOT_FOUND },
        undefined,
        'Deliveries',
      ),
    },
    [`${PREFIX}/{accountId}/deliveries/{providerDeliveryId}/events`]: {
      post: op(
        'reportDeliveryEvent',
        'Record what happened to a delivery, and send its event',
        { parameters: [accountId, deliveryId], requestBody: body('DeliveryProgressReport') },
        {
          '200': json('The delivery after the report; `eventSent` names the event sent.', ref('OperatorDelivery')),
          '409': envelope('The table of moves refuses this event in the current status.', [
            'delivery.transition_not_allowed',
          ]),
          '503': envelope('Another change of the same delivery holds it; try again in a second.', ['resource.busy']),
          ...INVALID,
          ...DELIVERY_NOT_FOUND,
        },
        undefined,
        'Deliveries',
      ),
    },
    [`${PREFIX}/{accountId}/drivers`]: {
      post: op(
        'registerDriver',
        'Register a driver (their courier token is shown once)',
        { parameters: [accountId], requestBody: body('DriverInput') },
        { '201': json('The driver and their courier token.', ref('DriverRegistered')), ...INVALID, ...NOT_FOUND },
        undefined,
        'Drivers',
      ),
      get: op(
        'listDrivers',
        'The account’s drivers, newest first (at most 1,000)',
        { parameters: [accountId] },
        { '200': json('The drivers.', { type: 'array', items: ref('Driver') }), ...NOT_FOUND },
        undefined,
        'Drivers',
      ),
    },
    [`${PREFIX}/{accountId}/drivers/{driverId}`]: {
      get: op(
        'getDriver',
        'One driver',
        { parameters: [accountId, driverId] },
        { '200': json('The driver.', ref('Driver')), ...DRIVER_NOT_FOUND },
        undefined,
        'Drivers',
      ),
      patch: op(
        'updateDriver',
        'Change a driver’s name, phone, vehicle, shift or availability',
        { parameters: [accountId, driverId], requestBody: body('DriverPatch') },
        { '200': json('The driver as changed.', ref('Driver')), ...INVALID, ...DRIVER_NOT_FOUND },
        undefined,
        'Drivers',
      ),
    },
    [`${PREFIX}/{accountId}/drivers/{driverId}/token`]: {
      post: op(
        'replaceCourierToken',
        'Replace a driver’s courier token (a lost phone): the previous one stops at once',
        { parameters: [accountId, driverId] },
        { '200': json('The new token, shown once.', ref('CourierToken')), ...DRIVER_NOT_FOUND },
        undefined,
        'Drivers',
      ),
    },
    '/admin/v1/openapi.json': {
      get: op('getProviderAdminOpenApi', 'This document', {}, { '200': json('OpenAPI 3.1.', { type: 'object' }) }),
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
      PlatformAccountInput: requestSchemas.PlatformAccountInput,
      PlatformAccountPatch: requestSchemas.PlatformAccountPatch,
      ApiKeyRotateRequest: requestSchemas.ApiKeyRotateRequest,
      DeliveryProgressReport: requestSchemas.DeliveryProgressReport,
      DriverInput: requestSchemas.DriverInput,
      DriverPatch: requestSchemas.DriverPatch,
      ...providerAdminSchemas,
      ...providerCourierSchemas,
      ...providerOperationsSchemas,
      ProviderError: providerSchemas.ProviderError,
    },
  },
};
