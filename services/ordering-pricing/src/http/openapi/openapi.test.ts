import { componentValidator, tenantDocumentOperationIds } from '@marketplace/testing';
import { tenantOrderingApiDocument } from '@marketplace/contracts';

const validator = (name: string) => componentValidator(tenantOrderingApiDocument, name);

it('is valid OpenAPI 3.1 and plain JSON, every operation with a unique id, the tenant token and a 401', () => {
  expect(tenantDocumentOperationIds(tenantOrderingApiDocument)).toHaveLength(20);
});

const ids = {
  zone: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a11',
  branch: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a12',
  promotion: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a13',
  order: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a14',
};
const at = '2026-11-22T10:00:00.000Z';

it('describes zones and promotions the way the service answers them', () => {
  const zone = {
    id: ids.zone,
    branchId: ids.branch,
    name: 'Centre',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [13.3, 52.5],
          [13.5, 52.5],
          [13.5, 52.6],
          [13.3, 52.5],
        ],
      ],
    },
    isActive: true,
    fee: 2.5,
    minimumOrder: null,
    currencyCode: 'EUR',
    createdAt: at,
    updatedAt: at,
  };
  expect(validator('DeliveryZone')(zone)).toBe(true);
  expect(validator('DeliveryZone')({ ...zone, extra: 1 })).toBe(false);
  expect(
    validator('DeliveryZoneInput')({ branchId: ids.branch, name: 'Centre', geometry: zone.geometry, fee: 2.5 }),
  ).toBe(true);

  const promotion = {
    id: ids.promotion,
    code: 'SUMMER10',
    description: null,
    type: 'percentage',
    percent: 10,
    amount: null,
    minimumSubtotal: 0,
    validFrom: null,
    validUntil: '2026-12-31T23:00:00.000Z',
    branchIds: null,
    usageLimit: 100,
    timesUsed: 3,
    isActive: true,
    currencyCode: 'EUR',
    createdAt: at,
    updatedAt: at,
  };
  expect(validator('Promotion')(promotion)).toBe(true);
  expect(validator('Promotion')({ ...promotion, extra: 1 })).toBe(false);
  expect(validator('PromotionInput')({ code: 'SUMMER10', type: 'percentage', percent: 10 })).toBe(true);
  expect(validator('PromotionInput')({ code: 'SUMMER 10', type: 'percentage', percent: 10 })).toBe(false);
  expect(validator('ServiceFee')({ currencyCode: 'EUR', fixed: 0.49, percent: 2 })).toBe(true);
});

it('describes an order the way the service answers it', () => {
  const order = {
    orderId: ids.order,
    orderNumber: 'A-1001',
    status: 2,
    orderMode: 1,
    tableNumber: null,
    customerName: 'Ada',
    customerPhone: '+49 30 1234567',
    grandTotal: 19.47,
    currencyCode: 'EUR',
    items: [
      {
        productName: 'Margherita',
        variantName: 'Large',
        quantity: 1,
        lineTotal: 12,
        modifiers: [{ modifierGroupName: 'Extras', modifierOptionName: 'Basil', quantity: 1, totalPrice: 0 }],
      },
    ],
    deliveryAddress: {
      label: null,
      addressLine: 'Hauptstr. 1, Berlin',
      latitude: 52.52,
      longitude: 13.4,
      instructions: null,
    },
    branch: {
      name: 'Mitte',
      address: 'Torstr. 2, 10119 Berlin, DE',
      latitude: 52.53,
      longitude: 13.4,
      externalLocationId: null,
    },
    paymentStatus: 1,
    externalOrderId: 'ext-1',
    subtotal: 17,
    discountTotal: 1.7,
    taxTotal: 1.57,
    deliveryFee: 2.5,
    serviceFee: 0.81,
    statusName: 'Accepted',
    paymentStatusName: 'Unpaid',
    refundDue: 0,
    paymentMethod: 1,
    branchId: ids.branch,
    deliveryZoneId: ids.zone,
    customerEmail: null,
    customerNotes: null,
    promotionCode: 'SUMMER10',
    sourceInstallationId: 'inst-1',
    history: [
      { status: 'Pending', at, by: 'source' },
      { status: 'Accepted', at, by: 'tenant' },
    ],
    paymentRecords: [
      { by: 'tenant', at, reason: 'cash at the door' },
      { by: 'processor', at, eventId: 'evt_1', paymentReference: 'pay_1', amount: 19.47, occurredAt: at },
    ],
    createdAt: at,
    updatedAt: at,
  };
  expect(validator('TenantOrder')(order)).toBe(true);
  expect(validator('TenantOrder')({ ...order, extra: 1 })).toBe(false);
  expect(validator('TenantOrder')({ ...order, paymentRecords: [{ by: 'tenant', at }] })).toBe(false);
  expect(validator('TenantOrder')({ ...order, status: 3 })).toBe(false);
  expect(validator('TenantOrder')({ ...order, status: 8, paymentStatus: 2, refundDue: 19.47 })).toBe(true);
  const { refundDue: _refundDue, ...withoutRefund } = order;
  expect(validator('TenantOrder')(withoutRefund)).toBe(false);
  const { history: _history, ...withoutHistory } = order;
  expect(validator('TenantOrder')(withoutHistory)).toBe(false);
});
