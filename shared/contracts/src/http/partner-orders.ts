import {
  type JsonSchema,
  arrayOf,
  double,
  int32,
  nullableDouble,
  nullableRef,
  nullableStr,
  object,
  ref,
  str,
  uuid,
} from '../json-schema';

/** Partner API order reads and cancellation (owner: ordering-pricing); the request is in orders.ts. */
export const partnerOrderSchemas: Record<string, JsonSchema> = {
  OrderMode: {
    type: 'integer',
    format: 'int32',
    enum: [1, 2],
    'x-enum-varnames': ['Delivery', 'Pickup'],
    description:
      '1 Delivery, 2 Pickup. (DineIn exists in the service but is rejected on order creation and is not part of this contract.)',
  },
  PaymentMethod: {
    type: 'integer',
    format: 'int32',
    enum: [1, 2],
    'x-enum-varnames': ['Cash', 'CardOnDelivery'],
    description:
      '1 Cash, 2 CardOnDelivery. (CardOnline exists in the service but is rejected on order creation and is not part of this contract.)',
  },
  OrderStatus: int32(
    'Order status, an integer. Known values: 1 Pending, 6 Completed, 7 Rejected, 8 Cancelled. A status Accepted also ' +
      'exists (this service gives it 2); other values are not part of this contract: tolerate unknown values. ' +
      '(Webhook payloads carry the status by name.)',
  ),
  PaymentStatus: int32(
    "Payment status, an integer: 1 Unpaid (every new order), 2 Paid (confirmed by the restaurant's payment processor, which sends `payment.completed`, or recorded by the restaurant by hand, which sends nothing).",
  ),

  // Order creation: the request is CreateOrderRequest (orders.ts) ------------------------------
  CreateOrderResponse: object({
    orderId: uuid(),
    orderNumber: str(),
    status: ref('OrderStatus'),
    paymentStatus: ref('PaymentStatus'),
    currencyCode: str(),
    subtotal: double(),
    discountTotal: double(),
    taxTotal: double(),
    deliveryFee: double(),
    serviceFee: double(),
    grandTotal: double(),
    externalOrderId: str(),
  }),

  // Order read ---------------------------------------------------------------------------------
  OrderResponse: object(
    {
      orderId: uuid(),
      orderNumber: str(),
      status: ref('OrderStatus'),
      orderMode: ref('OrderMode'),
      tableNumber: nullableStr(),
      customerName: str(),
      customerPhone: str(),
      grandTotal: double(),
      currencyCode: str(),
      items: arrayOf(ref('OrderItem')),
      deliveryAddress: { ...nullableRef('AddressResponse'), description: 'Null for Pickup.' },
      branch: ref('BranchPickupInfo'),
      paymentStatus: {
        type: ['integer', 'null'],
        format: 'int32',
        description: 'See PaymentStatus. Null for delivery-assignment-owned reads.',
      },
      externalOrderId: nullableStr('Null for delivery-assignment-owned reads.'),
      subtotal: nullableDouble('Null for delivery-assignment-owned reads.'),
      discountTotal: nullableDouble('Null for delivery-assignment-owned reads.'),
      taxTotal: nullableDouble('Null for delivery-assignment-owned reads.'),
      deliveryFee: nullableDouble('Null for delivery-assignment-owned reads.'),
      serviceFee: nullableDouble('Null for delivery-assignment-owned reads.'),
    },
    'paymentStatus, externalOrderId, subtotal, discountTotal, taxTotal, deliveryFee and serviceFee are null for ' +
      'delivery-assignment-owned reads.',
  ),
  OrderItem: object({
    productName: str(),
    variantName: nullableStr(),
    quantity: int32(),
    lineTotal: double(),
    modifiers: arrayOf(ref('OrderItemModifier')),
  }),
  OrderItemModifier: object({
    modifierGroupName: str(),
    modifierOptionName: str(),
    quantity: int32(),
    totalPrice: double(),
  }),
  AddressResponse: object({
    label: nullableStr(),
    addressLine: str(),
    latitude: double(),
    longitude: double(),
    instructions: nullableStr(),
  }),
  BranchPickupInfo: object({
    name: str(),
    address: str(),
    latitude: double(),
    longitude: double(),
    externalLocationId: nullableStr(
      'Snapshotted at assignment time and unchanged during an active delivery even if the tenant later changes the mapping.',
    ),
  }),
  OrderCancellationResponse: object({
    orderId: uuid(),
    orderNumber: str(),
    status: ref('OrderStatus'),
    externalOrderId: nullableStr(),
  }),
};
