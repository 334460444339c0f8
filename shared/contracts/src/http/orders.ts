import { type JsonSchema, nullable, object, text, uuid } from '../json-schema';

/** Documented limits of an order (the specification leaves them to the service). */
export const ORDER_LIMITS = {
  lines: 50,
  quantity: 99,
  selectionsPerLine: 100,
  customerName: 100,
  customerEmail: 254,
  customerNotes: 500,
  lineNote: 200,
  externalOrderId: 128,
  promotionCode: 50,
  addressLine: 300,
  addressLabel: 100,
  addressNotes: 500,
} as const;

/**
 * Phone numbers: an optional leading `+`, then digits with optional spaces, dashes, dots or
 * parentheses between them; 6 to 15 digits in all (E.164 allows at most 15).
 */
export const PHONE_PATTERN = '^\\+?[0-9](?:[ .()-]*[0-9]){5,14}$';

const L = ORDER_LIMITS;
const DELIVERY = 1;

/** Self-contained (no `$ref`): ordering-pricing validates with it and the gateway documents it. */
export const CreateOrderRequest: JsonSchema = {
  ...object(
    {
      branchId: uuid(),
      orderMode: {
        type: 'integer',
        format: 'int32',
        enum: [1, 2],
        'x-enum-varnames': ['Delivery', 'Pickup'],
        description: '1 Delivery, 2 Pickup (DineIn exists in the service but cannot be created here).',
      },
      customerName: {
        type: 'string',
        minLength: 1,
        maxLength: L.customerName,
        pattern: '\\S',
        description: 'At least one character that is not whitespace.',
      },
      customerPhone: {
        type: 'string',
        pattern: PHONE_PATTERN,
        description:
          'An optional `+`, then 6 to 15 digits, which may be separated by spaces, dashes, dots or parentheses.',
      },
      paymentMethod: {
        type: 'integer',
        format: 'int32',
        enum: [1, 2],
        'x-enum-varnames': ['Cash', 'CardOnDelivery'],
        description: '1 Cash, 2 CardOnDelivery (CardOnline exists in the service but cannot be used here).',
      },
      lines: {
        type: 'array',
        minItems: 1,
        maxItems: L.lines,
        items: { ...OrderLineRequest(), title: 'OrderLineRequest' },
      },
      externalOrderId: {
        type: 'string',
        minLength: 1,
        maxLength: L.externalOrderId,
        pattern: '^[^\\u0000-\\u001f\\u007f]+$',
        description: "The partner's own permanent order identifier, unique per installation; no control characters.",
      },
      customerEmail: nullable({ type: 'string', format: 'email', maxLength: L.customerEmail }),
      customerNotes: nullable({ type: 'string', maxLength: L.customerNotes }),
      promotionCode: nullable(text(L.promotionCode)),
      deliveryZoneId: nullable(uuid(), 'Required for Delivery; absent or null for Pickup.'),
      deliveryAddress: nullable(
        {
          ...object(
            {
              label: nullable({ type: 'string', maxLength: L.addressLabel }, 'Required, but may be null.'),
              addressLine: text(L.addressLine),
              latitude: { type: 'number', minimum: -90, maximum: 90 },
              longitude: { type: 'number', minimum: -180, maximum: 180 },
              notes: nullable({ type: 'string', maxLength: L.addressNotes }),
            },
            { optional: ['notes'], description: 'Must lie inside the polygon of the delivery zone.' },
          ),
          title: 'DeliveryAddressRequest',
        },
        'Required for Delivery; absent or null for Pickup.',
      ),
      expectedTotal: nullable(
        { type: 'number', minimum: 0, maximum: 1_000_000_000 },
        "Non-authoritative guard compared with the computed `grandTotal` (409 `tenancy.order.price_mismatch` when different); at most the currency's decimals.",
      ),
    },
    {
      optional: [
        'customerEmail',
        'customerNotes',
        'promotionCode',
        'deliveryZoneId',
        'deliveryAddress',
        'expectedTotal',
      ],
      description:
        'Status, orderNumber, paymentStatus and every amount are computed by the service and cannot be submitted.',
    },
  ),
  // Delivery (1) needs both delivery fields; Pickup (2) has neither (absent or null).
  if: { required: ['orderMode'], properties: { orderMode: { const: DELIVERY } } },
  then: {
    required: ['deliveryZoneId', 'deliveryAddress'],
    properties: { deliveryZoneId: { type: 'string' }, deliveryAddress: { type: 'object' } },
  },
  else: { properties: { deliveryZoneId: { type: 'null' }, deliveryAddress: { type: 'null' } } },
};

function OrderLineRequest(): JsonSchema {
  const selection = object(
    {
      selectionId: uuid(),
      modifierGroupId: uuid(),
      modifierOptionId: uuid(),
      parentSelectionId: nullable(uuid(), 'Links a nested selection to its parent selection.'),
    },
    { optional: ['parentSelectionId'] },
  );
  return object(
    {
      productId: uuid(),
      variantId: uuid(),
      quantity: { type: 'integer', minimum: 1, maximum: L.quantity },
      modifierSelections: {
        type: 'array',
        maxItems: L.selectionsPerLine,
        items: { ...selection, title: 'ModifierSelectionRequest' },
        description: 'May be empty.',
      },
      customerNote: nullable({ type: 'string', maxLength: L.lineNote }),
    },
    { optional: ['customerNote'] },
  );
}
