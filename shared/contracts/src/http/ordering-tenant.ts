import { type JsonSchema, bool, dateTime, nullable, object, text, uuid } from '../json-schema';
import { areaGeometry } from './geometry';
import { ORDER_LIMITS } from './orders';

/**
 * Request bodies of ordering-pricing's tenant API. Rules that need stored data or the tenant's
 * currency (decimals of an amount, a polygon's validity) are checked by the use cases; both answer
 * 400 `request.invalid` with `errors` keyed by field path.
 */
/** Decimals are the tenant currency's (EUR 2, JPY 0, KWD 3): the use cases check them, no schema can. */
const amount: JsonSchema = {
  type: 'number',
  minimum: 0,
  maximum: 1_000_000,
  description: "In the tenant currency's major unit, with at most its decimals.",
};

const geometry = areaGeometry('The zone.');

export const DeliveryZoneInput = object(
  {
    branchId: uuid(),
    name: text(200),
    geometry,
    isActive: bool(),
    fee: amount,
    minimumOrder: nullable(amount),
  },
  { optional: ['isActive', 'minimumOrder'] },
);

export const PromotionInput: JsonSchema = {
  ...object(
    {
      code: { type: 'string', minLength: 1, maxLength: ORDER_LIMITS.promotionCode, pattern: '^[A-Za-z0-9_-]+$' },
      description: nullable({ type: 'string', maxLength: 500 }),
      type: { enum: ['percentage', 'fixed'] },
      percent: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 100,
        description: 'percentage only: percent off the subtotal (0.01 to 100, at most 2 decimals).',
      },
      amount: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 1_000_000,
        description: "fixed only: amount off, in the tenant currency's major unit, with at most its decimals.",
      },
      minimumSubtotal: amount,
      validFrom: nullable(dateTime()),
      validUntil: nullable(dateTime()),
      branchIds: nullable({ type: 'array', maxItems: 1000, uniqueItems: true, items: uuid() }),
      usageLimit: nullable({ type: 'integer', minimum: 1, maximum: 100_000_000 }),
      isActive: bool(),
    },
    {
      optional: [
        'description',
        'percent',
        'amount',
        'minimumSubtotal',
        'validFrom',
        'validUntil',
        'branchIds',
        'usageLimit',
        'isActive',
      ],
    },
  ),
  // A percentage promotion has a percent and no amount; a fixed one an amount and no percent.
  if: { required: ['type'], properties: { type: { const: 'percentage' } } },
  then: { required: ['percent'], properties: { percent: { type: 'number' }, amount: false } },
  else: { required: ['amount'], properties: { amount: { type: 'number' }, percent: false } },
};

export const ServiceFeeInput = object({
  fixed: amount,
  percent: {
    type: 'number',
    minimum: 0,
    maximum: 100,
    description: 'Percent of the discounted subtotal, at most 2 decimals.',
  },
});

/**
 * The tenant's record of a payment by hand (cash, or a card payment its processor never confirmed):
 * an audited override. It marks the order Paid and never claims a gateway confirmation, so it sends
 * no `payment.completed`.
 */
export const ManualPaymentRecord = object({
  reason: {
    type: 'string',
    minLength: 1,
    maxLength: 500,
    pattern: '\\S',
    description: 'Why the payment is recorded by hand (kept with the order, shown in its payment records).',
  },
});

/** The event type of a processor notification that confirms a payment; every other type is acknowledged and ignored. */
export const PAYMENT_SUCCEEDED = 'payment.succeeded';

/**
 * What a tenant's payment processor (the processor of its card-on-delivery terminals) posts to the
 * gateway, signed with the tenant's processor secret. Open to properties added later: a processor
 * sends more than we read.
 */
export const ProcessorNotification = object(
  {
    eventId: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[\\x21-\\x7e]+$',
      description: "The processor's own event id: a notification sent again with it is answered as the first time.",
    },
    type: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: `\`${PAYMENT_SUCCEEDED}\` confirms a payment; any other type is acknowledged (200, result \`ignored\`) and changes nothing.`,
    },
    orderId: uuid('The order paid for (its `orderId`).'),
    amountMinor: {
      type: 'integer',
      minimum: 0,
      maximum: 100_000_000_000,
      description: "The amount captured, in integer minor units of currencyCode: must be the order's grand total.",
    },
    currencyCode: { type: 'string', pattern: '^[A-Z]{3}$', description: "ISO 4217; must be the order's currency." },
    paymentReference: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "The processor's id of the payment (kept with the order for reconciliation).",
    },
    occurredAt: dateTime('When the processor captured the payment.'),
  },
  { closed: false },
);
