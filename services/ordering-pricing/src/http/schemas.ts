import { bodyValidator } from '@marketplace/http';
import type { OrderRequest } from '../domain/order-request';
import { ORDER_LIMITS as L, PHONE_PATTERN } from '../domain/order-request';
import type { PromotionInput } from '../usecases/promotions';
import type { ZoneInput } from '../usecases/zones';

/**
 * Request shapes. The rules that need stored data (catalog, zones, promotions) are checked by the
 * use cases; both answer 400 `order.validation_failed` with `errors` keyed by field path.
 */
const VALIDATION = 'order.validation_failed';
const uuid = { type: 'string', format: 'uuid' };
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });
// A union type rather than anyOf: a wrong value then gets one clear message at its own path.
const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: [schema.type, 'null'] });
const object = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required, properties });
const amount = { type: 'number', minimum: 0, maximum: 1_000_000 };

/** Fields the service computes: named so that a partner sending them learns why they are refused. */
const SERVER_OWNED = ['status', 'orderNumber', 'paymentStatus', 'subtotal', 'discountTotal', 'taxTotal', 'deliveryFee', 'serviceFee', 'grandTotal', 'currencyCode', 'orderId'];

const selection = object(['selectionId', 'modifierGroupId', 'modifierOptionId'], { selectionId: uuid, modifierGroupId: uuid, modifierOptionId: uuid, parentSelectionId: nullable(uuid) });
const line = object(['productId', 'variantId', 'quantity', 'modifierSelections'], {
  productId: uuid,
  variantId: uuid,
  quantity: { type: 'integer', minimum: 1, maximum: L.quantity },
  modifierSelections: { type: 'array', maxItems: L.selectionsPerLine, items: selection },
  customerNote: nullable({ type: 'string', maxLength: L.lineNote }),
});

export const orderRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['branchId', 'orderMode', 'customerName', 'customerPhone', 'paymentMethod', 'lines', 'externalOrderId'],
  properties: {
    branchId: uuid,
    orderMode: { type: 'integer', description: '1 Delivery, 2 Pickup (DineIn is refused).' },
    customerName: { type: 'string', minLength: 1, maxLength: L.customerName, pattern: '\\S' },
    customerPhone: { type: 'string', pattern: PHONE_PATTERN },
    paymentMethod: { type: 'integer', description: '1 Cash, 2 CardOnDelivery (CardOnline is refused).' },
    lines: { type: 'array', minItems: 1, maxItems: L.lines, items: line },
    externalOrderId: { type: 'string', minLength: 1, maxLength: L.externalOrderId, pattern: '^[^\\u0000-\\u001f\\u007f]+$' },
    customerEmail: nullable({ type: 'string', format: 'email', maxLength: L.customerEmail }),
    customerNotes: nullable({ type: 'string', maxLength: L.customerNotes }),
    promotionCode: nullable(text(L.promotionCode)),
    deliveryZoneId: nullable(uuid),
    deliveryAddress: nullable(
      object(['label', 'addressLine', 'latitude', 'longitude'], {
        label: nullable({ type: 'string', maxLength: L.addressLabel }),
        addressLine: text(L.addressLine),
        latitude: { type: 'number', minimum: -90, maximum: 90 },
        longitude: { type: 'number', minimum: -180, maximum: 180 },
        notes: nullable({ type: 'string', maxLength: L.addressNotes }),
      }),
    ),
    expectedTotal: nullable({ type: 'number', minimum: 0 }),
  },
};

const validateShape = bodyValidator<OrderRequest>(orderRequestSchema, 'request.invalid');

/** The create-order body, with a clear word for server-owned fields a partner tried to set. */
export function validateOrderRequest(body: unknown): OrderRequest {
  try {
    return validateShape(body);
  } catch (error) {
    const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors;
    for (const field of SERVER_OWNED) if (fieldErrors?.[field]) fieldErrors[field] = ['is computed by the service and cannot be submitted'];
    throw error;
  }
}

export const zoneInput = object(['branchId', 'name', 'geometry', 'fee'], {
  branchId: uuid,
  name: text(200),
  geometry: { type: 'object', description: 'GeoJSON Polygon or MultiPolygon ([longitude, latitude] positions).' },
  isActive: { type: 'boolean' },
  fee: amount,
  minimumOrder: nullable(amount),
});

export const promotionInput = object(['code', 'type'], {
  code: { type: 'string', minLength: 1, maxLength: L.promotionCode, pattern: '^[A-Za-z0-9_-]+$' },
  description: nullable({ type: 'string', maxLength: 500 }),
  type: { enum: ['percentage', 'fixed'] },
  percent: { type: 'number' },
  amount,
  minimumSubtotal: amount,
  validFrom: nullable({ type: 'string', format: 'date-time' }),
  validUntil: nullable({ type: 'string', format: 'date-time' }),
  branchIds: nullable({ type: 'array', maxItems: 1000, uniqueItems: true, items: uuid }),
  usageLimit: nullable({ type: 'integer', minimum: 1, maximum: 100_000_000 }),
  isActive: { type: 'boolean' },
});

export const serviceFeeInput = object(['fixed', 'percent'], {
  fixed: amount,
  percent: { type: 'number', minimum: 0, maximum: 100, description: 'Percent of the discounted subtotal, at most 2 decimals.' },
});

export const validateZone = bodyValidator<ZoneInput>(zoneInput, VALIDATION);
export const validatePromotion = bodyValidator<PromotionInput>(promotionInput, VALIDATION);
export const validateServiceFeeInput = bodyValidator<{ fixed: number; percent: number }>(serviceFeeInput, VALIDATION);
