import { randomUUID } from 'node:crypto';
import { createAjv, createKafka, headerText, loadTopicCatalog, kafkaConnectionFromEnv } from '@marketplace/events';
import {
  connectedApp,
  quietLogger,
  readTopic,
  stackEnv,
  waitFor,
  type ConnectedApp,
  type RawTopicReader,
} from '@marketplace/testing';
import {
  pickupOrder,
  restaurant,
  startOrderingCluster,
  type OrderingCluster,
  type Restaurant,
} from './support/cluster';
import { paymentProcessor } from './support/processor';

// Reading, cancelling and acting on orders, and the events each step publishes on `orders`.
let cluster: OrderingCluster;
let r: Restaurant;
let topic: RawTopicReader;
const validate = createAjv().compile(loadTopicCatalog().get('orders').schema);

const create = async (overrides: Record<string, unknown> = {}) => {
  const res = await r.partner('POST', '/orders', pickupOrder(r.menu, overrides));
  if (res.status !== 201) throw new Error(`create order: ${res.status} ${res.text}`);
  return res.body;
};
const eventsOf = (orderId: string) =>
  topic.messages
    .filter((m) => m.key?.toString() === orderId)
    .map((m) => ({
      type: headerText(m.headers, 'event-type'),
      data: JSON.parse(m.value!.subarray(5).toString('utf8')),
    }));

beforeAll(async () => {
  cluster = await startOrderingCluster();
  r = await restaurant(cluster);
  topic = await readTopic(
    createKafka({ connection: kafkaConnectionFromEnv(stackEnv()), clientId: 'orders-it', logger: quietLogger() }),
    'orders',
  );
}, 180_000);
afterAll(async () => {
  await topic?.stop();
  await cluster?.stop();
});

describe('GET /orders/{orderId}', () => {
  it('shows the source its whole order', async () => {
    const order = await create({ customerNotes: 'ring twice' });
    const res = await r.partner('GET', `/orders/${order.orderId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: 1,
      orderMode: 2,
      tableNumber: null,
      customerName: 'Ada Lovelace',
      customerPhone: '+49 30 1234567',
      grandTotal: 17.95,
      currencyCode: 'EUR',
      deliveryAddress: null,
      branch: {
        name: 'Mitte',
        address: 'Torstrasse 1, 10119 Berlin, DE',
        latitude: 52.53,
        longitude: 13.4,
        externalLocationId: 'loc-mitte',
      },
      paymentStatus: 1,
      externalOrderId: order.externalOrderId,
      subtotal: 17,
      discountTotal: 0,
      taxTotal: 1.74,
      deliveryFee: 0,
      serviceFee: 0,
    });
    expect(res.body.items).toEqual([
      {
        productName: 'Pizza',
        variantName: 'Large',
        quantity: 1,
        lineTotal: 12,
        modifiers: [{ modifierGroupName: 'Crust', modifierOptionName: 'Thin', quantity: 1, totalPrice: 0 }],
      },
      { productName: 'Cola', variantName: '0.33 l', quantity: 2, lineTotal: 5, modifiers: [] },
    ]);
  });

  // A reader with Orders.Read but no assignment: delivery-assignment's assignments test (the
  // gateway asks it who holds the order, and it does not run here).
  it('is the same 404 for another installation, another tenant and an unknown id', async () => {
    const order = await create();
    const sibling = await connectedApp(cluster.gateway, ['Orders.Create'], [], {
      tenantId: r.tenantId,
      tenant: r.tenant,
    });
    const stranger = await restaurant(cluster);
    const notFound = [
      await r.partner('GET', `/orders/${order.orderId}`, undefined, {}, sibling),
      await stranger.partner('GET', `/orders/${order.orderId}`),
      await r.partner('GET', `/orders/${randomUUID()}`),
    ];
    for (const res of notFound) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(notFound[2]!.body.code);
    }
  });
  // The delivery-assignment-owned read: delivery-assignment's assignments test, with it running.
});

describe('POST /orders/{orderId}/cancel by the source', () => {
  it('cancels a Pending order, and repeats the answer for the same key', async () => {
    const order = await create();
    const key = randomUUID();
    const res = await r.partner('POST', `/orders/${order.orderId}/cancel`, undefined, { 'idempotency-key': key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: 8,
      externalOrderId: order.externalOrderId,
    });
    expect(
      (await r.partner('POST', `/orders/${order.orderId}/cancel`, undefined, { 'idempotency-key': key })).body,
    ).toEqual(res.body);
    const again = await r.partner('POST', `/orders/${order.orderId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'tenancy.partner_api.order_not_cancellable',
      status_detail: { status: 'Cancelled' },
    });
  });

  it('refuses once the tenant accepted the order, naming the status', async () => {
    const order = await create();
    expect((await r.manage('POST', `/orders/${order.orderId}/accept`)).status).toBe(200);
    const res = await r.partner('POST', `/orders/${order.orderId}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'tenancy.partner_api.order_not_cancellable',
      status_detail: { status: 'Accepted' },
    });
  });

  it('is a 404 for any installation but the creator', async () => {
    const order = await create();
    const sibling: ConnectedApp = await connectedApp(cluster.gateway, ['Orders.Create'], [], {
      tenantId: r.tenantId,
      tenant: r.tenant,
    });
    expect((await r.partner('POST', `/orders/${order.orderId}/cancel`, undefined, {}, sibling)).status).toBe(404);
    expect((await r.partner('GET', `/orders/${order.orderId}`)).body.status).toBe(1);
  });

  it('decides a race with a tenant accept: exactly one of them wins', async () => {
    const order = await create();
    const [cancel, accept] = await Promise.all([
      r.partner('POST', `/orders/${order.orderId}/cancel`),
      r.manage('POST', `/orders/${order.orderId}/accept`),
    ]);
    expect([cancel.status, accept.status].sort()).toEqual([200, 409]);
    const final = (await r.partner('GET', `/orders/${order.orderId}`)).body.status;
    expect(final).toBe(cancel.status === 200 ? 8 : 2);
  });
});

describe('tenant order actions', () => {
  it('accept, complete and record the payment, in the tenant view with names', async () => {
    const order = await create();
    expect((await r.manage('POST', `/orders/${order.orderId}/accept`)).body).toMatchObject({
      status: 2,
      statusName: 'Accepted',
    });
    expect((await r.manage('POST', `/orders/${order.orderId}/complete`)).body).toMatchObject({
      status: 6,
      statusName: 'Completed',
    });
    const paid = await r.manage('POST', `/orders/${order.orderId}/payment`, { reason: 'paid cash at the counter' });
    expect(paid.body).toMatchObject({ paymentStatus: 2, paymentStatusName: 'Paid' });
    expect(paid.body.paymentRecords).toEqual([
      { by: 'tenant', at: expect.any(String), reason: 'paid cash at the counter' },
    ]);
    expect(paid.body.history.map((h: any) => h.status)).toEqual(['Pending', 'Accepted', 'Completed']);
    expect((await r.partner('GET', `/orders/${order.orderId}`)).body).toMatchObject({ status: 6, paymentStatus: 2 });
  });

  it.each([
    ['complete a Pending order', [], 'complete'],
    ['reject an Accepted order', ['accept'], 'reject'],
    ['accept a Rejected order', ['reject'], 'accept'],
    ['cancel a Cancelled order again', ['cancel'], 'cancel'],
    ['accept a Cancelled order', ['cancel'], 'accept'],
  ])('refuses to %s (409 with the current status)', async (_name, before, action) => {
    const order = await create();
    for (const step of before) expect((await r.manage('POST', `/orders/${order.orderId}/${step}`)).status).toBe(200);
    const res = await r.manage('POST', `/orders/${order.orderId}/${action}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('order.invalid_transition');
    expect(res.body.status_detail.status).toEqual(expect.any(String));
  });

  it('records a payment once, and never on a cancelled order', async () => {
    const paid = await create();
    const cash = { reason: 'cash' };
    expect((await r.manage('POST', `/orders/${paid.orderId}/payment`, cash)).status).toBe(200);
    expect((await r.manage('POST', `/orders/${paid.orderId}/payment`, cash)).body.code).toBe(
      'order.payment_not_recordable',
    );
    const cancelled = await create();
    await r.manage('POST', `/orders/${cancelled.orderId}/cancel`);
    expect((await r.manage('POST', `/orders/${cancelled.orderId}/payment`, cash)).status).toBe(409);
  });

  it('lists the tenant’s orders newest first, filtered by status; another tenant sees none of them', async () => {
    const order = await create();
    await r.manage('POST', `/orders/${order.orderId}/reject`);
    const rejected = await r.manage('GET', '/orders?status=7');
    expect(rejected.body[0]).toMatchObject({ orderId: order.orderId, statusName: 'Rejected' });
    expect(rejected.body.every((o: any) => o.status === 7)).toBe(true);
    const stranger = await restaurant(cluster);
    expect((await stranger.manage('GET', '/orders')).body).toEqual([]);
    expect((await stranger.manage('GET', `/orders/${order.orderId}`)).status).toBe(404);
    expect((await stranger.manage('POST', `/orders/${order.orderId}/accept`)).status).toBe(404);
  });
});

describe('the tenant cancels from any status (spec: any | tenant cancels)', () => {
  it.each([
    ['Pending', []],
    ['Accepted', ['accept']],
    ['Completed', ['accept', 'complete']],
    ['Rejected', ['reject']],
  ])('a %s order: 200 Cancelled, orders.cancelled for the source installation', async (previous, before) => {
    const order = await create();
    for (const step of before) expect((await r.manage('POST', `/orders/${order.orderId}/${step}`)).status).toBe(200);
    const res = await r.manage('POST', `/orders/${order.orderId}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 8, statusName: 'Cancelled', paymentStatus: 1, refundDue: 0 });
    expect(res.body.history.at(-1)).toMatchObject({ status: 'Cancelled', by: 'tenant' });
    const cancelled = await waitFor('orders.cancelled', () =>
      eventsOf(order.orderId).find((e) => e.type === 'orders.cancelled'),
    );
    expect(validate(cancelled.data)).toBe(true);
    expect(cancelled.data).toMatchObject({
      orderId: order.orderId,
      status: 'Cancelled',
      previousStatus: previous,
      cancelledBy: 'tenant',
      sourceInstallationId: r.source.installationId,
      externalOrderId: order.externalOrderId,
    });
    expect((await r.partner('GET', `/orders/${order.orderId}`)).body.status).toBe(8);
  });

  it('a paid Completed order keeps its payment and shows the grand total as the refund due', async () => {
    const order = await create();
    for (const step of ['accept', 'complete'])
      expect((await r.manage('POST', `/orders/${order.orderId}/${step}`)).status).toBe(200);
    expect((await r.manage('POST', `/orders/${order.orderId}/payment`, { reason: 'cash' })).status).toBe(200);
    const res = await r.manage('POST', `/orders/${order.orderId}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 8, paymentStatus: 2, paymentStatusName: 'Paid', refundDue: 17.95 });
    expect((await r.manage('GET', `/orders/${order.orderId}`)).body.refundDue).toBe(17.95);
  });
});

describe('events on the orders topic', () => {
  it('orders.created, then orders.cancelled (source) with identifiers and status names, all valid against the schema', async () => {
    const order = await create();
    await r.partner('POST', `/orders/${order.orderId}/cancel`);
    const events = await waitFor('two events of the order', () =>
      eventsOf(order.orderId).length >= 2 ? eventsOf(order.orderId) : undefined,
    );
    expect(events.map((e) => e.type)).toEqual(['orders.created', 'orders.cancelled']);
    for (const e of events) expect(validate(e.data)).toBe(true);
    expect(events[0]!.data).toMatchObject({
      tenantId: r.tenantId,
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: 'Pending',
      sourceInstallationId: r.source.installationId,
      grandTotalMinor: 1795,
      currencyCode: 'EUR',
    });
    expect(events[1]!.data).toMatchObject({
      status: 'Cancelled',
      previousStatus: 'Pending',
      cancelledBy: 'source',
      externalOrderId: order.externalOrderId,
      liveAssignment: null,
    });
  });

  it('a tenant cancel of an accepted order, and payment.completed on the processor’s confirmation', async () => {
    const order = await create({ paymentMethod: 2 });
    const processor = await paymentProcessor(cluster, r);
    expect((await processor.confirm(order.orderId, 1795)).status).toBe(200);
    await r.manage('POST', `/orders/${order.orderId}/accept`);
    await r.manage('POST', `/orders/${order.orderId}/cancel`);
    const events = await waitFor('four events of the order', () =>
      eventsOf(order.orderId).length >= 4 ? eventsOf(order.orderId) : undefined,
    );
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ['orders.created', 'Pending'],
      ['payment.completed', 'Pending'],
      ['orders.status-changed', 'Accepted'],
      ['orders.cancelled', 'Cancelled'],
    ]);
    expect(events[1]!.data).toMatchObject({ paymentStatus: 'Paid', grandTotalMinor: 1795 });
    expect(events[3]!.data).toMatchObject({ cancelledBy: 'tenant', previousStatus: 'Accepted' });
  });

  it('nothing for a refused request', async () => {
    const before = topic.messages.length;
    expect((await r.partner('POST', '/orders', pickupOrder(r.menu, { orderMode: 3 }))).status).toBe(400);
    const order = await create();
    await waitFor('the valid order’s event', () => eventsOf(order.orderId).length === 1 || undefined);
    expect(topic.messages.length).toBe(before + 1);
  });
});
