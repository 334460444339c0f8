/**
 * OpenAPI 3.1 description of delivery-assignment's part of the tenant API, served at
 * `GET /api/tenant/v1/deliveries/openapi.json` (through the gateway, with a tenant token). The
 * request body is the very schema the route validates with; delivery-assignment serves it, the
 * gateway shows it at /docs, and the service's unit test checks that it lists exactly its routes.
 */
import { type Json, json, problem, ref, uuid } from './parts';
import { problemWith } from '../http/problem';
import { requestSchemas, tenantDeliverySchemas } from '../http';
import { partnerDeliverySchemas } from '../http/partner-deliveries';

const PREFIX = '/api/tenant/v1/deliveries';
const orderId: Json = { name: 'orderId', in: 'path', required: true, schema: uuid, description: 'The order.' };

const RULES = [
  '| The order, its live assignment | `assign` answers |',
  '|---|---|',
  '| Delivery mode, Pending or Accepted, no live assignment | 201, a new assignment (Assigned); `delivery.assigned` to the installation |',
  '| Live assignment Assigned to the same installation | 200, the same assignment; nothing sent |',
  '| Live assignment Assigned to another installation | 201, a new assignment; the old one Superseded (`delivery.superseded` to it) |',
  '| Live assignment Accepted or InTransit | 409 `delivery.assignment_in_progress` |',
  '| Live assignment Delivered | 409 `delivery.already_delivered` |',
  '| After a reject or a cancel by the installation (no live assignment) | 201, a new assignment (any installation, the same one too) |',
  '| Pickup order | 422 `delivery.order_not_deliverable` |',
  '| Order Completed, Rejected or Cancelled | 409 `delivery.order_not_assignable` (`status_detail.status`: the order status) |',
].join('\n');

const INSTALLATION_RULES =
  "The installation must be one of the tenant's (else 422 `delivery.installation_unknown`: another tenant's is the same " +
  'answer), connected (`delivery.installation_not_connected`), hold the scope `Delivery.Accept` ' +
  '(`delivery.installation_lacks_scope`) and be able to be told of the assignment: subscribed to `delivery.assigned`, ' +
  'with a webhook URL and a signing secret (`delivery.provider_not_notifiable`). ' +
  "The order's branch must have an address and coordinates " +
  '(`delivery.branch_not_locatable`): they are snapshotted as the pickup, which the installation reads on the order ' +
  'unchanged while the assignment lasts, even if the tenant edits the branch.';

const LIFECYCLE =
  'An assignment is Assigned (1) until its installation accepts (Accepted 2) or rejects (Rejected 7). After accepting it moves to ' +
  'InTransit (4) and Delivered (5), which completes the order (Pending or Accepted → Completed), or the installation cancels it ' +
  '(Cancelled 8). Reassignment while Assigned makes the old one Superseded (9). Cancelling the order (tenant or source) or ' +
  'rejecting it terminates an Assigned, Accepted or InTransit assignment (Terminated 10; `delivery.cancelled` to its installation). ' +
  'Nothing reassigns automatically.';

const BUSY: Json = {
  '503': {
    description:
      'The copies of orders, installations or branches this service decides on are behind (`delivery.copies_behind`), ' +
      'or other changes of the order kept it busy (`resource.busy`). Try again.',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    content: { 'application/problem+json': { schema: ref('Problem') } },
  },
};

const security = [{ tenantToken: [] }];
const UNAUTHENTICATED = { '401': problem('No valid tenant token.', '`auth.unauthenticated`') };
const NOT_FOUND = { '404': problem("No such order, or another tenant's (the same answer).", '`resource.not_found`') };

export const tenantDeliveriesApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Marketplace tenant API: delivery assignments',
    version: '1.0.0',
    description:
      "Hand a Delivery order to one of the tenant's delivery-provider installations, and follow it.\n\n" +
      `${LIFECYCLE}\n\n${RULES}\n\n${INSTALLATION_RULES}`,
  },
  servers: [{ url: '/' }],
  paths: {
    [`${PREFIX}/{orderId}/assign`]: {
      post: {
        tags: ['Deliveries'],
        operationId: 'assignDelivery',
        summary: "Assign (or reassign) an order's delivery",
        description: `${RULES}\n\n${INSTALLATION_RULES}`,
        security,
        parameters: [orderId],
        requestBody: { required: true, content: { 'application/json': { schema: ref('AssignDeliveryRequest') } } },
        responses: {
          '201': json('A new assignment.', ref('TenantDeliveryAssignment')),
          '200': json('The installation already held the live assignment: unchanged.', ref('TenantDeliveryAssignment')),
          '400': problem(
            'The body breaks a rule; `errors` names each field.',
            '`request.invalid`, `request.malformed`',
          ),
          ...UNAUTHENTICATED,
          ...NOT_FOUND,
          '409': problem(
            'The order or its live assignment does not allow it; `status_detail.status` names the state.',
            '`delivery.order_not_assignable`, `delivery.assignment_in_progress`, `delivery.already_delivered`',
          ),
          '415': problem('The body is not JSON.', '`request.unsupported_media_type`'),
          '422': problem(
            'The order cannot be delivered, or the installation or the branch does not qualify.',
            '`delivery.order_not_deliverable`, `delivery.installation_unknown`, `delivery.installation_not_connected`, ' +
              '`delivery.installation_lacks_scope`, `delivery.provider_not_notifiable`, `delivery.branch_not_locatable`',
          ),
          ...BUSY,
        },
      },
    },
    [`${PREFIX}/{orderId}`]: {
      get: {
        tags: ['Deliveries'],
        operationId: 'getDelivery',
        summary: "An order's delivery: the live assignment and the earlier ones",
        description: LIFECYCLE,
        security,
        parameters: [orderId],
        responses: { '200': json("The order's delivery.", ref('TenantDelivery')), ...UNAUTHENTICATED, ...NOT_FOUND },
      },
    },
    [`${PREFIX}/openapi.json`]: {
      get: {
        tags: ['Deliveries'],
        operationId: 'getTenantDeliveriesOpenApi',
        summary: 'This document',
        security,
        responses: { '200': json('OpenAPI 3.1.', { type: 'object' }), ...UNAUTHENTICATED },
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
    },
    schemas: {
      AssignDeliveryRequest: requestSchemas.AssignDeliveryRequest,
      AssignmentStatus: partnerDeliverySchemas.AssignmentStatus,
      ...tenantDeliverySchemas,
      Problem: problemWith({
        status_detail: {
          type: 'object',
          properties: { status: { type: 'string' } },
          description: 'The 409s: the status name of the order or of its live assignment.',
        },
      }),
    },
  },
};
