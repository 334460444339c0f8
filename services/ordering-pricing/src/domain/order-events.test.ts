import type { Order } from './order';
import { orderCancelled } from './order-events';
import { ORDER_STATUS, PAYMENT_STATUS } from './order-status';

const at = new Date('2026-11-22T10:00:00.000Z');
const order: Order = {
  _id: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a01',
  tenantId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a02',
  branchId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a03',
  orderNumber: '1001',
  status: ORDER_STATUS.Cancelled,
  paymentStatus: PAYMENT_STATUS.Unpaid,
  orderMode: 1,
  paymentMethod: 1,
  source: {
    installationId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a04',
    appId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a05',
    externalOrderId: 'ext-1',
    idempotencyKey: 'key-1',
  },
  customer: { name: 'Ada', phone: '+49 30 1234567', email: null, notes: null },
  deliveryZoneId: null,
  deliveryAddress: null,
  branch: { name: 'Mitte', address: 'Torstrasse 1', latitude: 52.53, longitude: 13.4, externalLocationId: null },
  currencyCode: 'EUR',
  decimals: 2,
  lines: [],
  promotion: null,
  totals: {
    subtotalMinor: 0,
    discountMinor: 0,
    inclusiveTaxMinor: 0,
    exclusiveTaxMinor: 0,
    taxTotalMinor: 0,
    deliveryFeeMinor: 0,
    serviceFeeMinor: 0,
    grandTotalMinor: 0,
  },
  liveAssignment: {
    assignmentId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a06',
    installationId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a07',
    status: 'InTransit',
    pickup: {
      branchId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a03',
      name: 'Mitte',
      address: 'Torstrasse 1',
      latitude: 52.53,
      longitude: 13.4,
      externalLocationId: null,
    },
    revision: 4,
  },
  deliveryRevision: 4,
  cancellation: { by: 'tenant', idempotencyKey: null, at },
  history: [],
  createdAt: at,
  updatedAt: at,
};

describe('orders.cancelled', () => {
  it('names the live assignment by its installation and id only (the orders schema’s closed object)', () => {
    const event = orderCancelled(order, ORDER_STATUS.Accepted, 'tenant', at);
    expect(event.data.liveAssignment).toEqual({
      installationId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a07',
      assignmentId: '6b0c1a52-8a43-4f55-9d2b-0b1f4b9c7a06',
    });
  });

  it('carries null without a live assignment', () => {
    expect(orderCancelled({ ...order, liveAssignment: null }, ORDER_STATUS.Pending, 'source', at).data).toMatchObject({
      liveAssignment: null,
      previousStatus: 'Pending',
      cancelledBy: 'source',
    });
  });
});
