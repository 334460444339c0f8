/**
 * OpenAPI 3.1 description of the marketplace as a platform of the Standard Delivery Provider
 * Contract (delivery-assignment): the tenant's and the administrator's provider connections, an
 * order's dispatch, and the callback route providers POST their events to. Served at
 * `GET /api/tenant/v1/provider-connections/openapi.json` (through the gateway, with a tenant
 * token); the request bodies are the very schemas the routes validate with; the service's unit
 * test checks that it lists exactly the routes the service serves.
 */
import { type Json, json, problem, ref, uuid } from './parts';
import { problemWith } from '../http/problem';
import { requestSchemas, tenantDeliverySchemas } from '../http';
import { partnerDeliverySchemas } from '../http/partner-deliveries';
import { providerConnectionSchemas } from '../http/provider-connections';
import { providerSchemas } from '../http/provider';

const TENANT = '/api/tenant/v1/provider-connections';
const ADMIN = '/api/admin/v1/provider-connections';
const connectionId: Json = { name: 'connectionId', in: 'path', required: true, schema: uuid };
const orderId: Json = { name: 'orderId', in: 'path', required: true, schema: uuid, description: 'The order.' };

const tenant = [{ tenantToken: [] }];
const admin = [{ adminToken: [] }];
const UNAUTHENTICATED = { '401': problem('No valid token.', '`auth.unauthenticated`') };
const NOT_FOUND = {
  '404': problem(
    "No such connection, or one this caller does not see (another tenant's: the same answer).",
    '`resource.not_found`',
  ),
};
const INVALID = {
  '400': problem('The body breaks a rule; `errors` names each field.', '`request.invalid`, `request.malformed`'),
  '415': problem('The body is not JSON.', '`request.unsupported_media_type`'),
};
const CERTIFICATE_REFUSED = {
  '422': problem(
    'The certificate is not signed by a trusted key, or does not fit this connection.',
    '`connection.certificate_untrusted`, `connection.certificate_mismatch`',
  ),
};
const BUSY = {
  '503': {
    description: 'Other changes of the connection kept it busy (`resource.busy`). Try again.',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    content: { 'application/problem+json': { schema: ref('Problem') } },
  },
};
const connection = (description: string) => json(description, ref('ProviderConnection'));
const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });

const STATUS_TABLE = [
  '| Provider status | Assignment |',
  '|---|---|',
  '| `sent_to_provider` | Assigned |',
  '| `provider_accepted`, `driver_assigned`, `arrived_at_pickup` | Accepted (driver, ETA, tracking URL from the events) |',
  '| `picked_up`, `on_the_way`, `return_requested`, `returning_to_origin` | InTransit |',
  '| `delivered` | Delivered (the order completes) |',
  '| `cancelled`, `failed`, `returned_to_origin`, `return_failed` | Cancelled (the assignment ends) |',
].join('\n');

const OVERVIEW =
  'A provider connection is a delivery provider implementing the Standard Delivery Provider Contract that the ' +
  "marketplace calls as its platform. A tenant's connection comes with an installation (`installationId`); " +
  'assigning a Delivery order to that installation (`POST /api/tenant/v1/deliveries/{orderId}/assign`) creates the ' +
  "delivery with the provider: `platformReference` and `idempotencyKey` are the assignment's id (a retry after a " +
  "timeout never makes a second delivery), pickup from the branch's snapshot, drop-off and amount from the order, " +
  "and a per-delivery callback URL with an unguessable token. The provider's events move the assignment:\n\n" +
  `${STATUS_TABLE}\n\n` +
  'A connection takes deliveries once its `core` is enabled: by a conformance certificate (`certificate.json` of ' +
  '`sdp-conformance --signing-key`, signed by a key the marketplace trusts) or by an administrator with a recorded ' +
  'reason. Polling (convergence when callbacks go quiet or fail their signature), tracking reads and cancels need ' +
  'their capabilities enabled too.';

export const tenantProviderConnectionsApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Marketplace as a platform: provider connections and dispatch',
    version: '1.0.0',
    description: OVERVIEW,
  },
  servers: [{ url: '/' }],
  paths: {
    [TENANT]: {
      post: {
        tags: ['Tenant'],
        operationId: 'registerProviderConnection',
        summary: 'Connect a delivery provider',
        description: 'The API key and signing secret are sealed and never shown again. No capability is enabled yet.',
        security: tenant,
        requestBody: body('ProviderConnectionInput'),
        responses: { '201': connection('The connection, with its installation.'), ...INVALID, ...UNAUTHENTICATED },
      },
      get: {
        tags: ['Tenant'],
        operationId: 'listProviderConnections',
        summary: "The tenant's connections and those the platform offers",
        security: tenant,
        responses: {
          '200': json('Oldest first.', { type: 'array', items: ref('ProviderConnection') }),
          ...UNAUTHENTICATED,
        },
      },
    },
    [`${TENANT}/openapi.json`]: {
      get: {
        tags: ['Tenant'],
        operationId: 'getProviderConnectionsOpenApi',
        summary: 'This document',
        security: tenant,
        responses: { '200': json('OpenAPI 3.1.', { type: 'object' }), ...UNAUTHENTICATED },
      },
    },
    [`${TENANT}/{connectionId}`]: {
      get: {
        tags: ['Tenant'],
        operationId: 'getProviderConnection',
        summary: 'One connection',
        security: tenant,
        parameters: [connectionId],
        responses: { '200': connection('The connection.'), ...UNAUTHENTICATED, ...NOT_FOUND },
      },
    },
    [`${TENANT}/{connectionId}/scorecard`]: {
      get: {
        tags: ['Tenant'],
        operationId: 'getProviderScorecard',
        summary: "A connection's scorecard",
        description:
          "Acceptance rate, time to a driver, cancellations after accepting, on-time rate against the first ETA, callback lag, signature failures and unknown statuses, from the provider's answers and signed events.",
        security: tenant,
        parameters: [connectionId],
        responses: { '200': json('The scorecard.', ref('ProviderScorecard')), ...UNAUTHENTICATED, ...NOT_FOUND },
      },
    },
    [`${TENANT}/{connectionId}/install`]: {
      post: {
        tags: ['Tenant'],
        operationId: 'addOfferedProviderConnection',
        summary: 'Add a connection the platform offers',
        description: 'The tenant gets its own installation of it; a repeat answers the same one (200).',
        security: tenant,
        parameters: [connectionId],
        responses: {
          '201': connection('Added: the connection with the new installation.'),
          '200': connection('Added before: the same installation.'),
          ...UNAUTHENTICATED,
          ...NOT_FOUND,
        },
      },
    },
    [`${TENANT}/{connectionId}/credentials`]: {
      put: {
        tags: ['Tenant'],
        operationId: 'replaceProviderConnectionCredentials',
        summary: "Replace the API key and signing secret of the tenant's own connection",
        description: 'Both at once, sealed at once; used from the next call and callback on. The capabilities stay.',
        security: tenant,
        parameters: [connectionId],
        requestBody: body('ProviderConnectionCredentials'),
        responses: { '200': connection('The connection.'), ...INVALID, ...UNAUTHENTICATED, ...NOT_FOUND, ...BUSY },
      },
    },
    [`${TENANT}/{connectionId}/certifications`]: {
      post: {
        tags: ['Tenant'],
        operationId: 'certifyProviderConnection',
        summary: "Submit a conformance certificate for the tenant's own connection",
        description:
          "Every capability the certificate certifies is enabled by it; capabilities an earlier certificate enabled and this one does not are disabled; an administrator's decisions stay.",
        security: tenant,
        parameters: [connectionId],
        requestBody: body('ConformanceCertificate'),
        responses: {
          '200': connection('The connection with its capabilities.'),
          ...INVALID,
          ...UNAUTHENTICATED,
          ...NOT_FOUND,
          ...CERTIFICATE_REFUSED,
          ...BUSY,
        },
      },
    },
    '/api/tenant/v1/deliveries/{orderId}/dispatch': {
      post: {
        tags: ['Tenant'],
        operationId: 'dispatchDelivery',
        summary: "Dispatch an order's delivery by the tenant's rules",
        description:
          'The first connection of the rules, in rank, that can take the delivery gets it (an assignment, with the ' +
          "same answers for the order's state as `assign`); those passed over are logged with why. With rescue on, a " +
          'rejection, a failed create, or a cancellation or failure before pickup reassigns the delivery to the next ' +
          "connection not tried, within the rules' window.",
        security: tenant,
        parameters: [orderId],
        responses: {
          '201': json('A new assignment.', ref('TenantDeliveryAssignment')),
          '200': json(
            'The chosen installation already held the live assignment: unchanged.',
            ref('TenantDeliveryAssignment'),
          ),
          ...UNAUTHENTICATED,
          '404': problem("No such order, or another tenant's (the same answer).", '`resource.not_found`'),
          '409': problem(
            'The order or its live assignment does not allow it.',
            '`delivery.order_not_assignable`, `delivery.assignment_in_progress`, `delivery.already_delivered`',
          ),
          '422': problem(
            'No rules, no connection of them can take it, or the order cannot be delivered.',
            '`dispatch.no_rules`, `dispatch.no_connection_available`, `delivery.order_not_deliverable`, `delivery.branch_not_locatable`',
          ),
          '503': {
            description: 'The copies this service decides on are behind, or the order is busy. Try again.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
            content: { 'application/problem+json': { schema: ref('Problem') } },
          },
        },
      },
      get: {
        tags: ['Tenant'],
        operationId: 'getDeliveryDispatch',
        summary: "An order's dispatches to provider connections",
        description:
          "Oldest first: the provider's last recognised state, when the provider last said anything and how old that is now, and the log of decisions (which connection, why, what the provider answered).",
        security: tenant,
        parameters: [orderId],
        responses: {
          '200': json(
            'The plan and the dispatches (none when the order never went to a connection).',
            ref('DeliveryDispatch'),
          ),
          ...UNAUTHENTICATED,
          '404': problem("No such order, or another tenant's (the same answer).", '`resource.not_found`'),
        },
      },
    },
    '/api/tenant/v1/dispatch-rules': {
      put: {
        tags: ['Tenant'],
        operationId: 'setDispatchRules',
        summary: "Set the tenant's dispatch rules",
        security: tenant,
        requestBody: body('DispatchRulesInput'),
        responses: { '200': json('The rules.', ref('DispatchRules')), ...INVALID, ...UNAUTHENTICATED },
      },
      get: {
        tags: ['Tenant'],
        operationId: 'getDispatchRules',
        summary: "The tenant's dispatch rules",
        security: tenant,
        responses: { '200': json('The rules (empty until set).', ref('DispatchRules')), ...UNAUTHENTICATED },
      },
    },
    [ADMIN]: {
      post: {
        tags: ['Administrator'],
        operationId: 'offerProviderConnection',
        summary: 'Offer a provider connection to every tenant',
        security: admin,
        requestBody: body('ProviderConnectionInput'),
        responses: {
          '201': connection('The connection (no installation: each tenant adds it).'),
          ...INVALID,
          ...UNAUTHENTICATED,
        },
      },
      get: {
        tags: ['Administrator'],
        operationId: 'listOfferedProviderConnections',
        summary: 'The connections offered to every tenant',
        security: admin,
        responses: {
          '200': json('Oldest first.', { type: 'array', items: ref('ProviderConnection') }),
          ...UNAUTHENTICATED,
        },
      },
    },
    [`${ADMIN}/{connectionId}/scorecard`]: {
      get: {
        tags: ['Administrator'],
        operationId: 'getConnectionScorecard',
        summary: "A connection's scorecard",
        description:
          "Acceptance rate, time to a driver, cancellations after accepting, on-time rate against the first ETA, callback lag, signature failures and unknown statuses, from the provider's answers and signed events.",
        security: admin,
        parameters: [connectionId],
        responses: { '200': json('The scorecard.', ref('ProviderScorecard')), ...UNAUTHENTICATED, ...NOT_FOUND },
      },
    },
    [`${ADMIN}/{connectionId}/credentials`]: {
      put: {
        tags: ['Administrator'],
        operationId: 'replaceOfferedProviderConnectionCredentials',
        summary: 'Replace the API key and signing secret of an offered connection',
        description: 'Both at once, sealed at once; used from the next call and callback on. The capabilities stay.',
        security: admin,
        parameters: [connectionId],
        requestBody: body('ProviderConnectionCredentials'),
        responses: { '200': connection('The connection.'), ...INVALID, ...UNAUTHENTICATED, ...NOT_FOUND, ...BUSY },
      },
    },
    [`${ADMIN}/{connectionId}/certifications`]: {
      post: {
        tags: ['Administrator'],
        operationId: 'certifyOfferedProviderConnection',
        summary: 'Submit a conformance certificate for an offered connection',
        security: admin,
        parameters: [connectionId],
        requestBody: body('ConformanceCertificate'),
        responses: {
          '200': connection('The connection with its capabilities.'),
          ...INVALID,
          ...UNAUTHENTICATED,
          ...NOT_FOUND,
          ...CERTIFICATE_REFUSED,
          ...BUSY,
        },
      },
    },
    [`${ADMIN}/{connectionId}/capabilities`]: {
      post: {
        tags: ['Administrator'],
        operationId: 'decideProviderCapability',
        summary: 'Enable or disable one capability of any connection, with the reason recorded',
        security: admin,
        parameters: [connectionId],
        requestBody: body('CapabilityGrantInput'),
        responses: {
          '200': connection('The connection with its capabilities.'),
          ...INVALID,
          ...UNAUTHENTICATED,
          ...NOT_FOUND,
          ...BUSY,
        },
      },
    },
    '/api/provider-callbacks/v1/{token}': {
      post: {
        tags: ['Provider callbacks'],
        operationId: 'receiveProviderCallback',
        summary: "A provider's event for one delivery",
        description:
          "The callback URL sent on create. Checked in the contract's order: the token (unknown: 404), " +
          "`X-Platform-Signature` over the exact body bytes with the connection's secret (401: nothing recorded; the " +
          'platform reads the state instead), the body (a status outside the vocabulary: 422, the last recognised state ' +
          'kept), correlation (409), then lifecycle: a duplicate or a stale regression is answered 200 and changes ' +
          "nothing. Errors use the provider contract's envelope.",
        security: [],
        parameters: [
          {
            name: 'token',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            description: 'The URL’s routing token.',
          },
          {
            name: 'X-Platform-Signature',
            in: 'header',
            required: true,
            schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
            description: 'Lowercase hex HMAC-SHA256 of the exact body bytes with the connection’s webhook secret.',
          },
        ],
        requestBody: body('PlatformCallbackEvent'),
        responses: {
          '200': json('Taken (a duplicate or stale event too: it is not sent again).', {
            type: 'object',
            additionalProperties: false,
            required: ['received', 'applied'],
            properties: {
              received: { type: 'boolean', const: true },
              applied: { type: 'boolean', description: 'False for a duplicate or a stale regression.' },
            },
          }),
          '400': envelope(
            'The body is not JSON, or breaks the event schema.',
            '`request.malformed`, `request.invalid`',
          ),
          '401': envelope('The signature is missing or wrong.', '`auth.invalid_signature`'),
          '404': envelope('No delivery has this callback URL.', '`callback.unknown`'),
          '409': envelope(
            "The event's platformReference or providerDeliveryId is not this delivery's.",
            '`callback.reference_mismatch`',
          ),
          '422': envelope("The status is not one of the contract's vocabulary.", '`callback.status_unknown`'),
        },
      },
    },
  },
  components: {
    securitySchemes: {
      tenantToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A tenant token (role tenant).',
      },
      adminToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An administrator token.' },
    },
    schemas: {
      ProviderConnectionInput: requestSchemas.ProviderConnectionInput,
      ProviderConnectionCredentials: requestSchemas.ProviderConnectionCredentials,
      ConformanceCertificate: requestSchemas.ConformanceCertificate,
      CapabilityGrantInput: requestSchemas.CapabilityGrantInput,
      DispatchRulesInput: requestSchemas.DispatchRulesInput,
      PlatformCallbackEvent: requestSchemas.PlatformCallbackEvent,
      ...providerConnectionSchemas,
      TenantDeliveryAssignment: tenantDeliverySchemas.TenantDeliveryAssignment,
      AssignmentStatus: partnerDeliverySchemas.AssignmentStatus,
      ProviderError: providerSchemas.ProviderError,
      Problem: problemWith({}),
    },
  },
};

function envelope(description: string, codes: string): Json {
  return {
    description: `${description} Codes: ${codes}.`,
    content: { 'application/json': { schema: ref('ProviderError') } },
  };
}
