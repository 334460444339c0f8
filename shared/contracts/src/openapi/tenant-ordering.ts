/**
 * OpenAPI 3.1 description of ordering's part of the tenant API, served at
 * `GET /api/tenant/v1/orders/openapi.json` (through the gateway, with a tenant token). Request
 * bodies are the very schemas the routes validate with (../http); ordering-pricing serves it, the
 * gateway shows it at /docs, and ordering's unit test checks that it lists exactly the routes served.
 */
import { type Json, closed, dateTime, json, money, nullable, problem, ref, uuid } from './parts';
import { problemWith } from '../http/problem';
import { requestSchemas } from '../http';

const PREFIX = '/api/tenant/v1';
const text: Json = { type: 'string' };
const currencyCode: Json = { type: 'string', description: "ISO 4217 code of the tenant's currency." };
const stamps: Json = { createdAt: dateTime, updatedAt: dateTime };

const STATUS_NAMES = ['Pending', 'Accepted', 'Completed', 'Rejected', 'Cancelled'];
const STATUSES = 'Order status: 1 Pending, 2 Accepted, 6 Completed, 7 Rejected, 8 Cancelled (3 to 5 are unused).';
const PAYMENT_STATUSES = 'Payment status: 1 Unpaid (every new order), 2 Paid.';
const TRANSITIONS = [
  '| From | Action | To | Event |',
  '|---|---|---|---|',
  '| Pending | accept | Accepted | `orders.status-changed` |',
  '| Pending | reject | Rejected | `orders.status-changed` |',
  '| Accepted | complete | Completed | `orders.status-changed` |',
  '| Pending, Accepted, Completed, Rejected | cancel | Cancelled | `orders.cancelled` (to the source installation); a live delivery assignment is terminated (`delivery.cancelled` to its installation) |',
  '| Pending, Accepted, Completed (Unpaid) | record payment by hand (with a reason) | paymentStatus Paid | none: an audited override, not a gateway confirmation |',
  "| any (card on delivery) | the tenant's payment processor confirms the grand total | paymentStatus Paid | `payment.completed`, on the first confirmation |",
].join('\n');

const CANCEL =
  'Pending, Accepted, Completed or Rejected → Cancelled (the Partner API spec lets the tenant cancel from any status). ' +
  '`orders.cancelled` goes to the source installation, with `previousStatus`, whatever the previous status was; ' +
  'a live delivery assignment (Assigned, Accepted or InTransit) is terminated and its installation receives `delivery.cancelled` ' +
  '(a Delivered one stays as it is). The payment stays as recorded: a Paid order keeps `paymentStatus` 2 and shows the amount ' +
  'to give back in `refundDue`; the platform moves no money, the refund happens outside it. ' +
  'An order that is already Cancelled is refused with 409 `order.invalid_transition` (`status_detail.status` Cancelled), ' +
  'like every repeated tenant action, and nothing is sent again.';

const idParam: Json = { name: 'id', in: 'path', required: true, schema: uuid };

const COMMON_ERRORS: Json = {
  '401': problem('No valid tenant token.', '`auth.unauthenticated`'),
};
const WRITE_ERRORS: Json = {
  '400': problem('The body breaks a rule; `errors` names each field.', '`request.invalid`, `request.malformed`'),
  '415': problem('The body is not JSON.', '`request.unsupported_media_type`'),
};
const QUERY_ERRORS: Json = {
  '400': problem('The query breaks a rule; `errors` names each parameter.', '`request.invalid`, `request.malformed`'),
};
const NOT_FOUND: Json = { '404': problem("Missing, deleted or another tenant's.", '`resource.not_found`') };
const BUSY: Json = {
  '503': {
    description: 'Another change of the same order held its lock too long. Code: `resource.busy`.',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    content: { 'application/problem+json': { schema: ref('Problem') } },
  },
};

const op = (tag: string, operationId: string, summary: string, rest: Json): Json => ({
  tags: [tag],
  operationId,
  summary,
  security: [{ tenantToken: [] }],
  ...rest,
  responses: { ...(rest.responses as Json), ...COMMON_ERRORS },
});

interface Resource {
  path: string;
  tag: string;
  /** For operation ids. */
  noun: string;
  plural: string;
  singular: string;
  input: string;
  output: string;
  listParameters?: Json[];
  createConflicts?: Json;
  replaceDescription?: string;
}

const RESOURCES: Resource[] = [
  {
    path: 'delivery-zones',
    tag: 'Delivery zones',
    noun: 'DeliveryZone',
    plural: 'DeliveryZones',
    singular: 'delivery zone',
    input: 'DeliveryZoneInput',
    output: 'DeliveryZone',
    listParameters: [
      { name: 'branchId', in: 'query', required: false, schema: uuid, description: 'Only the zones of this branch.' },
    ],
    replaceDescription: 'Orders keep their zone id and fee; a change applies to new orders only.',
  },
  {
    path: 'promotions',
    tag: 'Promotions',
    noun: 'Promotion',
    plural: 'Promotions',
    singular: 'promotion',
    input: 'PromotionInput',
    output: 'Promotion',
    createConflicts: {
      '409': problem(
        'The restaurant already has a promotion with this code (matched case-insensitively).',
        '`promotion.code_taken`',
      ),
    },
    replaceDescription: 'Replaces everything but `code`, which must be sent unchanged (400 otherwise).',
  },
];

function resourcePaths(r: Resource): Record<string, Json> {
  const body = { required: true, content: { 'application/json': { schema: ref(r.input) } } };
  return {
    [`${PREFIX}/${r.path}`]: {
      post: op(r.tag, `create${r.noun}`, `Create a ${r.singular}`, {
        requestBody: body,
        responses: { '201': json('Created.', ref(r.output)), ...WRITE_ERRORS, ...(r.createConflicts ?? {}) },
      }),
      get: op(r.tag, `list${r.plural}`, `List ${r.tag.toLowerCase()}`, {
        ...(r.listParameters ? { parameters: r.listParameters } : {}),
        responses: {
          '200': json('Every one of the tenant.', { type: 'array', items: ref(r.output) }),
          ...(r.listParameters ? QUERY_ERRORS : {}),
        },
      }),
    },
    [`${PREFIX}/${r.path}/{id}`]: {
      parameters: [idParam],
      get: op(r.tag, `get${r.noun}`, 'Read one', {
        responses: { '200': json('The resource.', ref(r.output)), ...NOT_FOUND },
      }),
      put: op(r.tag, `replace${r.noun}`, 'Replace it whole', {
        ...(r.replaceDescription ? { description: r.replaceDescription } : {}),
        requestBody: body,
        responses: { '200': json('Replaced.', ref(r.output)), ...WRITE_ERRORS, ...NOT_FOUND },
      }),
      delete: op(r.tag, `delete${r.noun}`, 'Delete it', {
        responses: { '204': { description: 'Deleted.' }, ...NOT_FOUND },
      }),
    },
  };
}

const ORDER_ACTIONS: Array<{
  action: string;
  operationId: string;
  summary: string;
  description: string;
  conflict: Json;
  requestBody?: Json;
}> = [
  ['accept', 'Accept a Pending order', 'Pending → Accepted.'],
  ['reject', 'Reject a Pending order', 'Pending → Rejected.'],
  ['complete', 'Complete an Accepted order', 'Accepted → Completed.'],
  ['cancel', 'Cancel an order, from any status', CANCEL],
].map(([action, summary, description]) => ({
  action: action!,
  operationId: `${action}Order`,
  summary: summary!,
  description: `${description} ${STATUSES}\n\n${TRANSITIONS}`,
  conflict: {
    '409': problem(
      "The action is not allowed in the order's status, given in `status_detail.status`.",
      '`order.invalid_transition`',
    ),
  },
}));
ORDER_ACTIONS.push({
  action: 'payment',
  operationId: 'recordOrderPayment',
  summary: 'Record by hand that the order was paid',
  description:
    'Unpaid → Paid, on a Pending, Accepted or Completed order: cash, or a card payment the processor did not confirm. ' +
    'An audited override: the reason is kept in `paymentRecords` (and the request in the audit log), and no ' +
    '`payment.completed` is sent, since that webhook means a payment confirmed by the payment processor ' +
    '(`POST /api/payments/v1/tenants/{tenantId}/notifications`, in the marketplace API document); a later confirmation ' +
    `of the same order by the processor sends it. ${PAYMENT_STATUSES}\n\n${TRANSITIONS}`,
  requestBody: { required: true, content: { 'application/json': { schema: ref('ManualPaymentRecord') } } },
  conflict: {
    '409': problem(
      'Already paid, or the order is Rejected or Cancelled; its status is in `status_detail.status`.',
      '`order.payment_not_recordable`',
    ),
  },
});

const orderActionPaths = (): Record<string, Json> =>
  Object.fromEntries(
    ORDER_ACTIONS.map((a) => [
      `${PREFIX}/orders/{id}/${a.action}`,
      {
        parameters: [idParam],
        post: op('Orders', a.operationId, a.summary, {
          description: a.description,
          ...(a.requestBody ? { requestBody: a.requestBody } : {}),
          responses: {
            '200': json('The order after the change.', ref('TenantOrder')),
            ...(a.requestBody ? WRITE_ERRORS : {}),
            ...NOT_FOUND,
            ...a.conflict,
            ...BUSY,
          },
        }),
      },
    ]),
  );

export const tenantOrderingApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Marketplace tenant API: ordering',
    version: '1.0.0',
    description:
      "A restaurant's delivery zones, promotions and service fee, and its orders with their actions (accept, reject, complete, cancel, record payment). " +
      'Everything is scoped to the tenant of the token. Money is given in the major unit of the tenant currency, with at most its decimals.\n\n' +
      `${STATUSES} ${PAYMENT_STATUSES}\n\n${TRANSITIONS}\n\n` +
      'Everything else is refused with 409 `order.invalid_transition` (or `order.payment_not_recordable` for a payment), with `status_detail: { status: <name> }`.',
  },
  servers: [{ url: '/' }],
  tags: ['Delivery zones', 'Promotions', 'Service fee', 'Orders', 'Description'].map((name) => ({ name })),
  paths: {
    ...Object.assign({}, ...RESOURCES.map(resourcePaths)),
    [`${PREFIX}/service-fee`]: {
      get: op('Service fee', 'getServiceFee', "Read the tenant's service fee", {
        description: 'Zero (fixed 0, percent 0) until the tenant sets one.',
        responses: { '200': json('The service fee.', ref('ServiceFee')) },
      }),
      put: op('Service fee', 'replaceServiceFee', 'Set the service fee', {
        description:
          'Applies to new orders: the fixed amount plus the percentage of the discounted subtotal, rounded once, half up. Fees are not taxed.',
        requestBody: { required: true, content: { 'application/json': { schema: ref('ServiceFeeInput') } } },
        responses: { '200': json('The service fee after the change.', ref('ServiceFee')), ...WRITE_ERRORS },
      }),
    },
    [`${PREFIX}/orders`]: {
      get: op('Orders', 'listOrders', "List the tenant's orders, newest first", {
        parameters: [
          {
            name: 'status',
            in: 'query',
            required: false,
            schema: { type: 'integer' },
            description: `Only orders in this status. ${STATUSES}`,
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            description: 'At most this many orders.',
          },
        ],
        responses: { '200': json('The orders.', { type: 'array', items: ref('TenantOrder') }), ...QUERY_ERRORS },
      }),
    },
    [`${PREFIX}/orders/openapi.json`]: {
      get: op('Description', 'getOrderingOpenApi', 'This document', {
        responses: { '200': json('OpenAPI 3.1.', { type: 'object' }) },
      }),
    },
    [`${PREFIX}/orders/{id}`]: {
      parameters: [idParam],
      get: op('Orders', 'getOrder', 'Read one order', {
        responses: { '200': json('The order.', ref('TenantOrder')), ...NOT_FOUND },
      }),
    },
    ...orderActionPaths(),
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
      DeliveryZoneInput: requestSchemas.DeliveryZoneInput,
      PromotionInput: requestSchemas.PromotionInput,
      ServiceFeeInput: requestSchemas.ServiceFeeInput,
      ManualPaymentRecord: requestSchemas.ManualPaymentRecord,
      DeliveryZone: closed({
        id: uuid,
        branchId: uuid,
        name: text,
        geometry: { type: 'object', description: 'GeoJSON Polygon or MultiPolygon ([longitude, latitude] positions).' },
        isActive: { type: 'boolean' },
        fee: money,
        minimumOrder: nullable(money),
        currencyCode,
        ...stamps,
      }),
      Promotion: closed({
        id: uuid,
        code: { type: 'string', description: 'Stored upper-case; matched case-insensitively.' },
        description: nullable(text),
        type: { type: 'string', enum: ['percentage', 'fixed'] },
        percent: nullable({
          type: 'number',
          format: 'double',
          description: 'Percent off the subtotal (type percentage).',
        }),
        amount: nullable({ ...money, description: 'Amount off (type fixed).' }),
        minimumSubtotal: money,
        validFrom: nullable(dateTime),
        validUntil: nullable(dateTime),
        branchIds: nullable({ type: 'array', items: uuid }),
        usageLimit: nullable({ type: 'integer' }),
        timesUsed: nullable({ type: 'integer', description: 'Null when there is no usage limit.' }),
        isActive: { type: 'boolean' },
        currencyCode,
        ...stamps,
      }),
      ServiceFee: closed({
        currencyCode,
        fixed: money,
        percent: { type: 'number', format: 'double', minimum: 0, maximum: 100 },
      }),
      TenantOrder: closed({
        orderId: uuid,
        orderNumber: text,
        status: { type: 'integer', enum: [1, 2, 6, 7, 8], description: STATUSES },
        orderMode: { type: 'integer', description: '1 Delivery, 2 Pickup.' },
        tableNumber: { type: 'null' },
        customerName: text,
        customerPhone: text,
        grandTotal: money,
        currencyCode,
        items: {
          type: 'array',
          items: closed({
            productName: text,
            variantName: text,
            quantity: { type: 'integer' },
            lineTotal: money,
            modifiers: {
              type: 'array',
              items: closed({
                modifierGroupName: text,
                modifierOptionName: text,
                quantity: { type: 'integer' },
                totalPrice: money,
              }),
            },
          }),
        },
        deliveryAddress: nullable(
          closed({
            label: nullable(text),
            addressLine: text,
            latitude: { type: 'number', format: 'double' },
            longitude: { type: 'number', format: 'double' },
            instructions: nullable(text),
          }),
        ),
        branch: {
          ...closed({
            name: text,
            address: text,
            latitude: { type: 'number', format: 'double' },
            longitude: { type: 'number', format: 'double' },
            externalLocationId: nullable(text),
          }),
          description:
            'The branch as it was when the order was placed (an order is refused at a branch without coordinates).',
        },
        paymentStatus: { type: 'integer', enum: [1, 2], description: PAYMENT_STATUSES },
        externalOrderId: text,
        subtotal: money,
        discountTotal: money,
        taxTotal: money,
        deliveryFee: money,
        serviceFee: money,
        statusName: { type: 'string', enum: STATUS_NAMES },
        paymentStatusName: { type: 'string', enum: ['Unpaid', 'Paid'] },
        refundDue: {
          ...money,
          description:
            'What the restaurant owes the customer back: the grand total of a Paid order that was Cancelled or Rejected, else 0. The platform moves no money; the refund happens outside it.',
        },
        paymentMethod: { type: 'integer', description: '1 Cash, 2 CardOnDelivery.' },
        branchId: uuid,
        deliveryZoneId: nullable(uuid),
        customerEmail: nullable(text),
        customerNotes: nullable(text),
        promotionCode: nullable(text),
        sourceInstallationId: { type: 'string', description: 'The installation that created the order.' },
        history: {
          type: 'array',
          items: closed({
            status: { type: 'string', enum: STATUS_NAMES },
            at: dateTime,
            by: { type: 'string', enum: ['source', 'tenant', 'delivery'] },
          }),
        },
        paymentRecords: {
          type: 'array',
          description:
            "How the order was paid, oldest first: the payment processor's confirmations (the first one sent `payment.completed`) and the tenant's records by hand.",
          items: {
            oneOf: [
              closed({
                by: { const: 'processor' },
                at: dateTime,
                eventId: text,
                paymentReference: text,
                amount: money,
                occurredAt: dateTime,
              }),
              closed({ by: { const: 'tenant' }, at: dateTime, reason: text }),
            ],
          },
        },
        ...stamps,
      }),
      Problem: problemWith({
        status_detail: {
          type: 'object',
          properties: { status: { type: 'string', enum: STATUS_NAMES } },
          description: "The order's status name (409 order.invalid_transition, order.payment_not_recordable).",
        },
      }),
    },
  },
};
