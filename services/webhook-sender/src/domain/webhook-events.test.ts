import { envelopeBody, webhookOf } from './webhook-events';

const base = { tenantId: 't1', orderId: 'o1', orderNumber: '1001', sourceInstallationId: 'i1', externalOrderId: 'ext-1' };

describe('webhookOf', () => {
  it('broadcasts orders.created with an order summary, status by name and money in major units', () => {
    const webhook = webhookOf('orders', 'orders.created', { ...base, status: 'Pending', branchId: 'b1', orderMode: 1, paymentStatus: 'Unpaid', currencyCode: 'EUR', grandTotalMinor: 1795, createdAt: '2026-11-23T10:00:00.000Z' });
    expect(webhook).toEqual({
      tenantId: 't1',
      type: 'orders.created',
      audience: { kind: 'broadcast' },
      data: { orderId: 'o1', orderNumber: '1001', status: 'Pending', branchId: 'b1', orderMode: 1, paymentStatus: 'Unpaid', currencyCode: 'EUR', grandTotal: 17.95, createdAt: '2026-11-23T10:00:00.000Z' },
    });
  });

  it('sends orders.cancelled to the source installation only, with identifiers and status only', () => {
    const webhook = webhookOf('orders', 'orders.cancelled', { ...base, status: 'Cancelled', previousStatus: 'Pending', cancelledBy: 'tenant', liveAssignment: null, changedAt: 'x' });
    expect(webhook).toEqual({ tenantId: 't1', type: 'orders.cancelled', audience: { kind: 'installation', installationId: 'i1' }, data: { orderId: 'o1', orderNumber: '1001', externalOrderId: 'ext-1', status: 'Cancelled' } });
  });

  it('broadcasts payment.completed; JPY has no decimals', () => {
    const webhook = webhookOf('orders', 'payment.completed', { ...base, status: 'Accepted', paymentStatus: 'Paid', paymentMethod: 1, currencyCode: 'JPY', grandTotalMinor: 1500, changedAt: 't' });
    expect(webhook?.audience).toEqual({ kind: 'broadcast' });
    expect(webhook?.data).toMatchObject({ paymentStatus: 'Paid', grandTotal: 1500, paidAt: 't' });
  });

  it('sends nothing for other events', () => {
    expect(webhookOf('orders', 'orders.status-changed', { ...base, status: 'Accepted' })).toBeUndefined();
    expect(webhookOf('catalog', 'catalog.product.changed', {})).toBeUndefined();
  });
});

describe('envelopeBody', () => {
  it('is the spec envelope, version 1', () => {
    expect(JSON.parse(envelopeBody('d1', 'system.test', '2026-11-23T10:00:00.000Z', {}))).toEqual({ id: 'd1', type: 'system.test', version: 1, occurredAt: '2026-11-23T10:00:00.000Z', data: {} });
  });
});
