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

describe('webhookOf, deliveries topic', () => {
  const pickup = {
    branchId: 'b1',
    name: 'Mitte',
    address: 'Hauptstr. 1, 10115 Berlin',
    latitude: 52.5,
    longitude: 13.4,
    externalLocationId: null,
  };
  /** A delivery event about assignment a1 of installation i1, the order live with another installation. */
  const delivery = {
    tenantId: 't1',
    orderId: 'o1',
    orderNumber: '1001',
    assignmentId: 'a1',
    installationId: 'i1',
    status: 'Assigned',
    previousStatus: null,
    live: { assignmentId: 'a2', installationId: 'i2', status: 'Assigned', pickup },
    revision: 3,
    changedAt: '2026-11-23T10:00:00.000Z',
  } as const;

  it.each([
    ['delivery.assigned', 'Assigned'],
    ['delivery.superseded', 'Superseded'],
    ['delivery.cancelled', 'Terminated'],
  ] as const)('%s goes to the installation of the assignment it is about, identifiers only', (type, status) => {
    const webhook = webhookOf({ topic: 'deliveries', type, data: { ...delivery, status } });
    expect(webhook).toEqual({
      tenantId: 't1',
      type,
      audience: { kind: 'installation', installationId: 'i1' },
      data: { orderId: 'o1', orderNumber: '1001', assignmentId: 'a1' },
    });
    // The contract's DeliveryEventData is closed: nothing else (status, live, pickup) may leak.
    expect(Object.keys(webhook!.data)).toEqual(['orderId', 'orderNumber', 'assignmentId']);
  });

  it("sends nothing for delivery.status-changed (the installation's own accept, reject, cancel or progress)", () => {
    for (const [previousStatus, status] of [
      ['Assigned', 'Accepted'],
      ['Assigned', 'Rejected'],
      ['Accepted', 'Cancelled'],
      ['InTransit', 'Delivered'],
    ] as const)
      expect(
        webhookOf({
          topic: 'deliveries',
          type: 'delivery.status-changed',
          data: { ...delivery, previousStatus, status },
        }),
      ).toBeUndefined();
  });

  it('keeps the bytes partners receive', () => {
    const webhook = webhookOf({ topic: 'deliveries', type: 'delivery.cancelled', data: { ...delivery, live: null } });
    expect(envelopeBody('d1', webhook!.type, 't', webhook!.data)).toBe(
      '{"id":"d1","type":"delivery.cancelled","version":1,"occurredAt":"t","data":{"orderId":"o1","orderNumber":"1001","assignmentId":"a1"}}',
    );
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
