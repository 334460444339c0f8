import { createKafka, headerText, kafkaConnectionFromEnv } from '@marketplace/events';
import {
  paymentSucceeded,
  postProcessorNotification,
  processorSignatureOf,
  quietLogger,
  readTopic,
  stackEnv,
  waitFor,
  type RawTopicReader,
} from '@marketplace/testing';
import {
  pickupOrder,
  restaurant,
  startOrderingCluster,
  type OrderingCluster,
  type Restaurant,
} from './support/cluster';
import { paymentProcessor, type TestProcessor } from './support/processor';

// Payments: a tenant's payment processor confirms card-on-delivery payments with a signed
// notification through the gateway (payment.completed, once per order); the tenant may record a
// payment by hand, an audited override that sends nothing.
let cluster: OrderingCluster;
let r: Restaurant;
let processor: TestProcessor;
let topic: RawTopicReader;
const GRAND_TOTAL_MINOR = 1795;

const create = async (overrides: Record<string, unknown> = {}, restaurantOf: Restaurant = r) => {
  const res = await restaurantOf.partner(
    'POST',
    '/orders',
    pickupOrder(restaurantOf.menu, { paymentMethod: 2, ...overrides }),
  );
  if (res.status !== 201) throw new Error(`create order: ${res.status} ${res.text}`);
  return res.body as { orderId: string; orderNumber: string };
};
const typesOf = (orderId: string) =>
  topic.messages.filter((m) => m.key?.toString() === orderId).map((m) => headerText(m.headers, 'event-type') ?? '');
/** The order's events, once a later one (from an action taken after everything under test) has arrived. */
async function eventsAfterMarker(orderId: string, marker: 'accept' | 'cancel' = 'accept'): Promise<string[]> {
  expect((await r.manage('POST', `/orders/${orderId}/${marker}`)).status).toBe(200);
  const wanted = marker === 'accept' ? 'orders.status-changed' : 'orders.cancelled';
  return waitFor(`the ${wanted} event of ${orderId}`, () =>
    typesOf(orderId).includes(wanted) ? typesOf(orderId) : undefined,
  );
}

beforeAll(async () => {
  cluster = await startOrderingCluster();
  r = await restaurant(cluster);
  processor = await paymentProcessor(cluster, r);
  topic = await readTopic(
    createKafka({ connection: kafkaConnectionFromEnv(stackEnv()), clientId: 'payments-it', logger: quietLogger() }),
    'orders',
  );
}, 180_000);
afterAll(async () => {
  await topic?.stop();
  await cluster?.stop();
});

describe('a processor confirms a card-on-delivery payment', () => {
  it('marks the order Paid, with the record, and sends payment.completed once', async () => {
    const order = await create();
    const notification = paymentSucceeded(order.orderId, GRAND_TOTAL_MINOR, { paymentReference: 'pay_ref_1' });
    const res = await processor.send(notification);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eventId: notification.eventId,
      result: 'confirmed',
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      paymentStatus: 2,
    });
    const view = (await r.manage('GET', `/orders/${order.orderId}`)).body;
    expect(view).toMatchObject({ paymentStatus: 2, paymentStatusName: 'Paid' });
    expect(view.paymentRecords).toEqual([
      {
        by: 'processor',
        at: expect.any(String),
        eventId: notification.eventId,
        paymentReference: 'pay_ref_1',
        amount: 17.95,
        occurredAt: notification.occurredAt,
      },
    ]);
    expect((await r.partner('GET', `/orders/${order.orderId}`)).body.paymentStatus).toBe(2);

    // The same event again (the processor retries): the same answer, and nothing more happens.
    const again = await processor.send(notification);
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: res.body });
    // The same event id with another body: refused.
    const changed = await processor.send({ ...notification, paymentReference: 'pay_other' });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('payment.event_conflict');
    expect(await eventsAfterMarker(order.orderId)).toEqual([
      'orders.created',
      'payment.completed',
      'orders.status-changed',
    ]);
    const paid = topic.messages.find(
      (m) => m.key?.toString() === order.orderId && headerText(m.headers, 'event-type') === 'payment.completed',
    )!;
    expect(JSON.parse(paid.value!.subarray(5).toString('utf8'))).toMatchObject({
      paymentStatus: 'Paid',
      paymentMethod: 2,
      grandTotalMinor: GRAND_TOTAL_MINOR,
      currencyCode: 'EUR',
    });
  });

  it('a second capture (another event id) is kept and announced no more', async () => {
    const order = await create();
    expect((await processor.confirm(order.orderId, GRAND_TOTAL_MINOR)).body.result).toBe('confirmed');
    const second = await processor.confirm(order.orderId, GRAND_TOTAL_MINOR);
    expect(second.status).toBe(200);
    expect(second.body.result).toBe('already_confirmed');
    expect((await r.manage('GET', `/orders/${order.orderId}`)).body.paymentRecords).toHaveLength(2);
    expect(await eventsAfterMarker(order.orderId)).toEqual([
      'orders.created',
      'payment.completed',
      'orders.status-changed',
    ]);
  });

  it('answers as the first time when the answer was lost after the order was written (a crash between the two)', async () => {
    const order = await create();
    const notification = paymentSucceeded(order.orderId, GRAND_TOTAL_MINOR);
    const first = await processor.send(notification);
    expect(first.body.result).toBe('confirmed');
    // What a crash after the order's write and before the answer's leaves behind: no stored answer.
    await cluster.db.collection('payment_notifications').deleteOne({ eventId: notification.eventId });
    const again = await processor.send(notification);
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
    expect((await r.manage('GET', `/orders/${order.orderId}`)).body.paymentRecords).toHaveLength(1);
    expect(await eventsAfterMarker(order.orderId)).toEqual([
      'orders.created',
      'payment.completed',
      'orders.status-changed',
    ]);
  });

  it('confirms a Cancelled order too (the money was taken), which then shows its refund due', async () => {
    const order = await create();
    expect((await r.manage('POST', `/orders/${order.orderId}/cancel`)).status).toBe(200);
    expect((await processor.confirm(order.orderId, GRAND_TOTAL_MINOR)).body.result).toBe('confirmed');
    expect((await r.manage('GET', `/orders/${order.orderId}`)).body).toMatchObject({
      status: 8,
      paymentStatus: 2,
      refundDue: 17.95,
    });
  });

  it('acknowledges other event types and changes nothing', async () => {
    const order = await create();
    const res = await processor.send(
      paymentSucceeded(order.orderId, GRAND_TOTAL_MINOR, { type: 'payment.failed', eventId: 'evt_failed_1' }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ eventId: 'evt_failed_1', result: 'ignored' });
    expect((await r.manage('GET', `/orders/${order.orderId}`)).body).toMatchObject({
      paymentStatus: 1,
      paymentRecords: [],
    });
  });
});

describe('a notification that does not fit the order is refused, and nothing changes', () => {
  it.each([
    ['a Cash order', { paymentMethod: 1 }, {}, 'payment.method_not_card'],
    ['another amount', {}, { amountMinor: GRAND_TOTAL_MINOR - 1 }, 'payment.amount_mismatch'],
    ['another currency', {}, { currencyCode: 'USD' }, 'payment.currency_mismatch'],
  ])('%s: 422, the same again on a retry', async (_name, orderOverrides, overrides, code) => {
    const order = await create(orderOverrides);
    const notification = paymentSucceeded(order.orderId, GRAND_TOTAL_MINOR, overrides);
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await processor.send(notification);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(code);
    }
    expect((await r.manage('GET', `/orders/${order.orderId}`)).body).toMatchObject({
      paymentStatus: 1,
      paymentRecords: [],
    });
  });

  it('an unknown order, or another tenant’s: 404 alike', async () => {
    const other = await restaurant(cluster);
    const theirs = await create({}, other);
    for (const orderId of [theirs.orderId, '00000000-0000-4000-8000-000000000000']) {
      const res = await processor.confirm(orderId, GRAND_TOTAL_MINOR);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('resource.not_found');
    }
    expect((await other.manage('GET', `/orders/${theirs.orderId}`)).body.paymentStatus).toBe(1);
  });

  it('a body that is not a notification: 400 with the fields', async () => {
    const res = await processor.send({ eventId: 'evt_x', type: 'payment.succeeded', amountMinor: -1 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('request.invalid');
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['orderId', 'amountMinor']));
  });
});

describe('only the tenant’s processor is heard', () => {
  const notification = () => paymentSucceeded('00000000-0000-4000-8000-000000000000', GRAND_TOTAL_MINOR);

  it.each([
    [
      'no signature headers',
      async () =>
        fetch(`${cluster.gateway.url}/api/payments/v1/tenants/${r.tenantId}/notifications`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(notification()),
        }).then(async (res) => ({ status: res.status, body: await res.json() })),
    ],
    ['a wrong signature', () => processor.send(notification(), { signature: 'a'.repeat(64) })],
    ['another secret', () => processor.send(notification(), { signWith: 'ppsec_not_the_secret' })],
    [
      'a timestamp 6 minutes old',
      () => processor.send(notification(), { timestamp: Math.floor(Date.now() / 1000) - 360 }),
    ],
    [
      'a timestamp 6 minutes ahead',
      () => processor.send(notification(), { timestamp: Math.floor(Date.now() / 1000) + 360 }),
    ],
  ])('%s: 401', async (_name, send) => {
    const res = await send();
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth.unauthenticated');
  });

  it('a signature over other bytes than those sent: 401', async () => {
    const body = JSON.stringify(notification());
    const res = await processor.send(body, {
      signature: processorSignatureOf(processor.secret, Math.floor(Date.now() / 1000), `${body} `),
    });
    expect(res.status).toBe(401);
  });

  it('a rotation keeps the previous secret for its overlap; a revocation ends every secret; another tenant’s secret is no key', async () => {
    const other = await restaurant(cluster);
    const settings = await other.manage('GET', '/payment-processor');
    expect(settings.body).toEqual({
      configured: false,
      notificationUrl: expect.stringMatching(new RegExp(`/api/payments/v1/tenants/${other.tenantId}/notifications$`)),
      rotatedAt: null,
      previousValidUntil: null,
    });
    const order = await create({}, other);
    // Before the first rotation, nothing authenticates at its address.
    expect(
      (await fetchSigned(other.tenantId, processor.secret, paymentSucceeded(order.orderId, GRAND_TOTAL_MINOR))).status,
    ).toBe(401);
    const first = (await other.manage('POST', '/payment-processor/secret/rotate')).body;
    const second = (await other.manage('POST', '/payment-processor/secret/rotate')).body;
    expect(second.secret).not.toBe(first.secret);
    expect(second.previousValidUntil).toEqual(expect.any(String));
    const shown = (await other.manage('GET', '/payment-processor')).body;
    expect(JSON.stringify(shown)).not.toContain(second.secret);
    expect(shown).toMatchObject({ configured: true, previousValidUntil: second.previousValidUntil });
    const send = (secret: string, eventId: string) =>
      fetchSigned(other.tenantId, secret, paymentSucceeded(order.orderId, GRAND_TOTAL_MINOR, { eventId }));
    expect((await send(processor.secret, 'evt_foreign')).status).toBe(401);
    expect((await send(first.secret, 'evt_previous')).body.result).toBe('confirmed');
    expect((await send(second.secret, 'evt_current')).body.result).toBe('already_confirmed');
    expect((await other.manage('DELETE', '/payment-processor/secret')).status).toBe(204);
    expect((await send(second.secret, 'evt_after_revoke')).status).toBe(401);
    expect((await other.manage('GET', '/payment-processor')).body.configured).toBe(false);
  });

  it('an unknown tenant: 401, as a wrong signature', async () => {
    const res = await fetchSigned('00000000-0000-4000-8000-00000000beef', processor.secret, notification());
    expect(res.status).toBe(401);
  });
});

describe('the tenant records a payment by hand', () => {
  it('needs a reason, marks the order Paid, keeps the record and sends nothing; a later confirmation sends payment.completed', async () => {
    const order = await create();
    const refused = await r.manage('POST', `/orders/${order.orderId}/payment`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('reason');
    expect((await r.manage('POST', `/orders/${order.orderId}/payment`, { reason: '   ' })).status).toBe(400);
    const recorded = await r.manage('POST', `/orders/${order.orderId}/payment`, {
      reason: 'terminal offline, card slip kept',
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body).toMatchObject({
      paymentStatus: 2,
      paymentRecords: [{ by: 'tenant', reason: 'terminal offline, card slip kept' }],
    });
    expect(await eventsAfterMarker(order.orderId)).toEqual(['orders.created', 'orders.status-changed']);
    // The processor's confirmation arrives later: now it is gateway-confirmed, and announced.
    expect((await processor.confirm(order.orderId, GRAND_TOTAL_MINOR)).body.result).toBe('confirmed');
    const types = await eventsAfterMarker(order.orderId, 'cancel');
    expect(types).toEqual(['orders.created', 'orders.status-changed', 'payment.completed', 'orders.cancelled']);
  });
});

async function fetchSigned(tenantId: string, secret: string, body: unknown) {
  return postProcessorNotification(cluster.gateway.url, tenantId, secret, body);
}
