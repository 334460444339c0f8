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
