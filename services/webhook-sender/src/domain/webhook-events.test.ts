import { envelopeBody, webhookOf } from './webhook-events';

const base = {
  tenantId: 't1',
  orderId: 'o1',
  orderNumber: '1001',
  sourceInstallationId: 'i1',
  externalOrderId: 'ext-1',
};

describe('webhookOf', () => {
  it('broadcasts orders.created with an order summary, status by name and money in major units', () => {
    const webhook = webhookOf({
      topic: 'orders',
      type: 'orders.created',
      data: {
        ...base,
        status: 'Pending',
        branchId: 'b1',
        orderMode: 1,
        paymentStatus: 'Unpaid',
        currencyCode: 'EUR',
        grandTotalMinor: 1795,
        createdAt: '2026-11-23T10:00:00.000Z',
      },
    });
    expect(webhook).toEqual({
      tenantId: 't1',
      type: 'orders.created',
      audience: { kind: 'broadcast' },
      data: {
        orderId: 'o1',
        orderNumber: '1001',
        status: 'Pending',
        branchId: 'b1',
        orderMode: 1,
        paymentStatus: 'Unpaid',
        currencyCode: 'EUR',
        grandTotal: 17.95,
        createdAt: '2026-11-23T10:00:00.000Z',
      },
    });
  });

  it('sends orders.cancelled to the source installation only, with identifiers and status only', () => {
    const webhook = webhookOf({
      topic: 'orders',
      type: 'orders.cancelled',
      data: {
        ...base,
        status: 'Cancelled',
        previousStatus: 'Pending',
        cancelledBy: 'tenant',
        liveAssignment: null,
        changedAt: 'x',
      },
    });
    expect(webhook).toEqual({
      tenantId: 't1',
      type: 'orders.cancelled',
      audience: { kind: 'installation', installationId: 'i1' },
      data: { orderId: 'o1', orderNumber: '1001', externalOrderId: 'ext-1', status: 'Cancelled' },
    });
  });

  it('broadcasts payment.completed; JPY has no decimals', () => {
    const webhook = webhookOf({
      topic: 'orders',
      type: 'payment.completed',
      data: {
        ...base,
        status: 'Accepted',
        paymentStatus: 'Paid',
        paymentMethod: 1,
        currencyCode: 'JPY',
        grandTotalMinor: 1500,
        changedAt: 't',
      },
    });
    expect(webhook?.audience).toEqual({ kind: 'broadcast' });
    expect(webhook?.data).toMatchObject({ paymentStatus: 'Paid', grandTotal: 1500, paidAt: 't' });
  });

  it('sends nothing for other events', () => {
    expect(
      webhookOf({ topic: 'orders', type: 'orders.status-changed', data: { ...base, status: 'Accepted' } }),
    ).toBeUndefined();
  });
});

describe('envelopeBody', () => {
  it('keeps the bytes partners receive: keys in order, absent fields left out, a missing amount as null', () => {
    const created = webhookOf({
      topic: 'orders',
      type: 'orders.created',
      data: { ...base, status: 'Pending', currencyCode: 'EUR', grandTotalMinor: 1795, createdAt: 'c' },
    });
    expect(envelopeBody('d1', created!.type, 't', created!.data)).toBe(
      '{"id":"d1","type":"orders.created","version":1,"occurredAt":"t","data":{"orderId":"o1","orderNumber":"1001","status":"Pending","currencyCode":"EUR","grandTotal":17.95,"createdAt":"c"}}',
    );
    const paid = webhookOf({ topic: 'orders', type: 'payment.completed', data: { ...base, status: 'Accepted' } });
    expect(JSON.stringify(paid!.data)).toBe(
      '{"orderId":"o1","orderNumber":"1001","status":"Accepted","grandTotal":null}',
    );
  });

  it('is the spec envelope, version 1', () => {
    expect(JSON.parse(envelopeBody('d1', 'system.test', '2026-11-23T10:00:00.000Z', {}))).toEqual({
      id: 'd1',
      type: 'system.test',
      version: 1,
      occurredAt: '2026-11-23T10:00:00.000Z',
      data: {},
    });
  });
});
