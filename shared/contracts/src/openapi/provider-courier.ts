/**
 * OpenAPI 3.1 description of provider-delivery's courier API, served at `GET
 * /courier/v1/openapi.json`: what a driver app calls with the driver's own credential. The request
 * bodies are the very schemas the routes validate with; the service's unit test checks that it
 * lists exactly the routes served.
 */
import { type Json, json, uuid } from './parts';
import { providerCourierSchemas, providerSchemas, requestSchemas } from '../http';

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const envelope = (description: string, codes: string[]): Json => ({
  description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
  content: { 'application/json': { schema: ref('ProviderError') } },
});
const body = (name: string): Json => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const deliveryId: Json = {
  name: 'providerDeliveryId',
  in: 'path',
  required: true,
  schema: uuid,
  description: 'The delivery.',
};

const COMMON: Json = {
  '401': envelope('No valid courier token: missing, malformed, unknown, or replaced.', ['auth.unauthenticated']),
  '500': envelope('An unexpected failure.', ['internal']),
};
const INVALID: Json = {
  '400': envelope('The body is not JSON or breaks the schema; `fieldErrors` names each field.', [
    'request.invalid',
    'request.malformed',
  ]),
  '415': envelope('The body is not `application/json`.', ['request.unsupported_media_type']),
};
const OFFER_GONE: Json = {
  '409': envelope('The offer is not the driver’s any more: it ran out, was answered, or the delivery moved on.', [
    'offer.not_available',
  ]),
};
const NOT_FOUND: Json = {
  '404': envelope('No such delivery carried by this driver (another driver’s is not found either).', [
    'delivery.not_found',
  ]),
};
const BUSY: Json = {
  '503': envelope('Another change of the same delivery holds it; try again in a second.', ['resource.busy']),
};

const op = (operationId: string, summary: string, extra: Json, responses: Json, description?: string): Json => ({
  operationId,
  summary,
  ...(description ? { description } : {}),
  ...extra,
  responses: { ...responses, ...COMMON },
});

const DESCRIPTION = [
  'What a driver app calls. A driver is registered by an administrator of the delivery provider, who hands the app ' +
    'its courier token (`pdd_…`); the app sends `Authorization: Bearer <courierToken>`. Replacing a token ends the ' +
    'previous one at once.',
  '**Offers**: a driver who is online, on shift and free is offered deliveries by the dispatcher, nearest first, ' +
    'timed so that they reach the restaurant when the food is ready. An offer runs 45 seconds (on the delivery’s ' +
    'clock); declined or run out, it goes to the next driver. A driver holds one offer and carries one delivery at a time.',
  '**Moves**: each report moves the delivery through the provider contract’s statuses and sends the contract’s event ' +
    'to the platform (`driver.assigned` on accepting, then `driver.arrived_at_pickup`, `delivery.picked_up`, ' +
    '`delivery.on_the_way`, `delivery.delivered`, or `delivery.failed` with a reason; during a return the platform ' +
    'asked for, `delivery.returning_to_origin` and `delivery.returned_to_origin` or `delivery.return_failed`). A move ' +
    'the table of moves refuses is 409 `delivery.transition_not_allowed`.',
  '**Location**: the app reports the driver’s position as often as it likes; the platform gets ' +
    '`driver.location_updated` at most every 5 seconds and only for a move of 10 metres or more, and `eta.updated` ' +
    'when the estimate moved by more than 2 minutes.',
  '**Rate limits** (defaults; each deployment sets its own): 2,400 requests a minute per client address, counted ' +
    'before the token is checked, and 240 per driver; over either, 429 `request.rate_limited` with `Retry-After` in ' +
    'seconds. Answers counted per driver carry `RateLimit-Limit` and `RateLimit-Remaining`.',
  '**Errors** use the provider contract’s envelope `{ code, message, retryable, fieldErrors? }`.',
].join('\n\n');

export const providerCourierApiDocument: Json = {
  openapi: '3.1.0',
  info: { title: 'Delivery provider: courier API', version: '1.0.0', description: DESCRIPTION },
  servers: [{ url: '/courier/v1' }],
  security: [{ courierToken: [] }],
  paths: {
    '/me': {
      get: op(
        'getCourierState',
        'The driver, their running offer and the delivery they carry',
        {},
        {
          '200': json('What the app shows.', ref('CourierState')),
        },
      ),
    },
    '/me/availability': {
      post: op(
        'setCourierAvailability',
        'Go online or offline',
        { requestBody: body('CourierAvailability') },
        { '200': json('What the app shows.', ref('CourierState')), ...INVALID },
      ),
    },
    '/me/location': {
      post: op(
        'reportCourierLocation',
        'Report where the driver is',
        { requestBody: body('CourierLocation') },
        {
          '200': json('Recorded; the events sent for the delivery carried.', ref('CourierLocationRecorded')),
          ...INVALID,
          ...BUSY,
        },
      ),
    },
    '/offers/{providerDeliveryId}/accept': {
      post: op(
        'acceptOffer',
        'Take the delivery offered',
        { parameters: [deliveryId] },
        {
          '200': json('The delivery, now the driver’s (driver.assigned sent).', ref('CourierDelivery')),
          ...OFFER_GONE,
          ...BUSY,
        },
      ),
    },
    '/offers/{providerDeliveryId}/decline': {
      post: op(
        'declineOffer',
        'Give the offer back',
        { parameters: [deliveryId] },
        { '200': json('Declined.', ref('CourierOfferDeclined')), ...OFFER_GONE, ...BUSY },
      ),
    },
    '/deliveries/{providerDeliveryId}': {
      get: op(
        'getCourierDelivery',
        'A delivery the driver carries or carried',
        { parameters: [deliveryId] },
        { '200': json('The delivery.', ref('CourierDelivery')), ...NOT_FOUND },
      ),
    },
    '/deliveries/{providerDeliveryId}/events': {
      post: op(
        'reportCourierEvent',
        'Report a move of the delivery carried',
        { parameters: [deliveryId], requestBody: body('CourierEventReport') },
        {
          '200': json('The status after the move and the events sent.', ref('CourierEventsSent')),
          '409': envelope('The table of moves refuses this move in the current status.', [
            'delivery.transition_not_allowed',
          ]),
          ...INVALID,
          ...NOT_FOUND,
          ...BUSY,
        },
      ),
    },
    '/openapi.json': {
      get: op(
        'getCourierOpenApi',
        'This document (no token needed)',
        { security: [] },
        {
          '200': json('OpenAPI 3.1.', { type: 'object' }),
        },
      ),
    },
  },
  components: {
    securitySchemes: {
      courierToken: { type: 'http', scheme: 'bearer', description: 'The driver’s courier token, `pdd_<id>.<secret>`.' },
    },
    schemas: {
      CourierAvailability: requestSchemas.CourierAvailability,
      CourierLocation: requestSchemas.CourierLocation,
      CourierEventReport: requestSchemas.CourierEventReport,
      ...providerCourierSchemas,
      ProviderError: providerSchemas.ProviderError,
    },
  },
};
