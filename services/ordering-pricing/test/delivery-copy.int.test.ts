import { randomUUID } from 'node:crypto';
import type { DeliveryEvent, EventTypeOf } from '@marketplace/contracts';
import {
  createKafka,
  EventPublisher,
  EventSchemas,
  headerText,
  loadTopicCatalog,
  SchemaValidator,
  type OutgoingEvent,
  type PlatformTopics,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
} from '@marketplace/events';
import {
  connectedApp,
  quietLogger,
  readTopic,
  sleep,
  stackEnv,
  waitFor,
  type ConnectedApp,
  type RawTopicReader,
} from '@marketplace/testing';
import {
  INSIDE,
  MITTE_SQUARE,
  pickupOrder,
  restaurant,
  startOrderingCluster,
  type OrderingCluster,
  type Restaurant,
} from './support/cluster';

// Ordering's copy of the `deliveries` topic (delivery-assignment's events, published here as it
// will publish them): each order's live assignment with its pickup snapshot and revision, and a
// Delivered delivery completing its order. The provider's read of the order, which follows
// delivery-assignment itself, is tested with it running (delivery-assignment's assignments test).
let cluster: OrderingCluster;
let r: Restaurant;
let provider: ConnectedApp;
let otherProvider: ConnectedApp;
let zoneId: string;
let publisher: EventPublisher;
let ordersTopic: RawTopicReader;

const kafka = () =>
  createKafka({ connection: kafkaConnectionFromEnv(stackEnv()), clientId: 'delivery-copy-it', logger: quietLogger() });

beforeAll(async () => {
  cluster = await startOrderingCluster();
  r = await restaurant(cluster);
  const zone = await r.manage('POST', '/delivery-zones', {
    branchId: r.menu.branchId,
    name: 'Mitte',
    geometry: MITTE_SQUARE,
    fee: 2.5,
  });
  if (zone.status !== 201) throw new Error(`zone: ${zone.status} ${JSON.stringify(zone.body)}`);
  zoneId = zone.body.id;
  const tenant = { tenantId: r.tenantId, tenant: r.tenant };
  [provider, otherProvider] = await Promise.all([
    connectedApp(cluster.gateway, ['Orders.Read'], [], tenant),
    connectedApp(cluster.gateway, ['Orders.Read'], [], tenant),
  ]);
  const catalog = loadTopicCatalog();
  publisher = new EventPublisher(
    kafka(),
    catalog,
    new EventSchemas(registryConnectionFromEnv(stackEnv()), catalog),
    new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])),
    'delivery-copy-it',
  );
  await publisher.connect();
  ordersTopic = await readTopic(kafka(), 'orders');
}, 180_000);
afterAll(async () => {
  await ordersTopic?.stop();
  await publisher?.disconnect();
  await cluster?.stop();
});

/** A Delivery order placed by the source, as the gateway answers it. */
const deliveryOrder = async () => {
  const res = await r.partner(
    'POST',
    '/orders',
    pickupOrder(r.menu, {
      orderMode: 1,
      deliveryZoneId: zoneId,
      deliveryAddress: { label: 'Home', addressLine: 'Torstrasse 5', ...INSIDE },
    }),
  );
  if (res.status !== 201) throw new Error(`create order: ${res.status} ${res.text}`);
  return res.body as { orderId: string; orderNumber: string };
};

/** The branch as delivery-assignment snapshots it at assignment: other than the order's own. */
const pickup = () => ({
  branchId: r.menu.branchId,
  name: 'Mitte (pickup at the back)',
  address: 'Torstrasse 1a, 10119 Berlin, DE',
  latitude: 52.5301,
  longitude: 13.4002,
  externalLocationId: 'loc-mitte-2',
});

type Status = DeliveryEvent['status'];
const assignmentIds = new Map<string, string>();
const assignmentOf = (app: ConnectedApp) => {
  if (!assignmentIds.has(app.installationId)) assignmentIds.set(app.installationId, randomUUID());
  return assignmentIds.get(app.installationId)!;
};

const LIVE: Status[] = ['Assigned', 'Accepted', 'InTransit', 'Delivered'];

/**
 * A deliveries event about `app`'s assignment of the order, in `status`; `live` is the order's
 * live assignment after it (by default that same assignment, while its status is live).
 */
function deliveryEvent(
  order: { orderId: string; orderNumber: string },
  revision: number,
  type: EventTypeOf<'deliveries'>,
  app: ConnectedApp,
  status: Status,
  live: { app: ConnectedApp; status: Status } | null = LIVE.includes(status) ? { app, status } : null,
): OutgoingEvent<PlatformTopics, 'deliveries'> {
  return {
    topic: 'deliveries',
    key: order.orderId,
    type,
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    data: {
      tenantId: r.tenantId,
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      assignmentId: assignmentOf(app),
      installationId: app.installationId,
      status,
      previousStatus: null,
      live: live && {
        assignmentId: assignmentOf(live.app),
        installationId: live.app.installationId,
        status: live.status,
        pickup: pickup(),
      },
      revision,
      changedAt: new Date().toISOString(),
    },
  };
}

/** Publishes one deliveries event (see `deliveryEvent`). */
async function publish(...args: Parameters<typeof deliveryEvent>): Promise<void> {
  await publisher.publish([deliveryEvent(...args)]);
}

const stored = (orderId: string) => cluster.db.collection('orders').findOne({ _id: orderId as never });
/**
 * Returns once the copy has handled every event of the order published so far: it publishes the
 * same Delivered report again at `revision` (one key, one partition: handled after the others; a
 * repeated Delivered changes nothing) and waits for the order to hold that revision.
 */
const handledThrough = async (order: { orderId: string; orderNumber: string }, revision: number) => {
  await publish(order, revision, 'delivery.status-changed', provider, 'Delivered');
  await storedAt(order.orderId, revision);
};
/** Waits for the copy to hold the order at `revision`; the stored order then. */
const storedAt = async (orderId: string, revision: number) => {
  await waitFor(`order ${orderId} at delivery revision ${revision}`, async () => {
    return (await stored(orderId))?.deliveryRevision === revision;
  });
  return stored(orderId);
};

describe('the copy of each order’s live assignment', () => {
  it('keeps the live assignment with its pickup snapshot; it grants no read by itself', async () => {
    const order = await deliveryOrder();
    await publish(order, 1, 'delivery.assigned', provider, 'Assigned');
    expect(await storedAt(order.orderId, 1)).toMatchObject({
      liveAssignment: {
        assignmentId: assignmentOf(provider),
        installationId: provider.installationId,
        status: 'Assigned',
        pickup: pickup(),
        revision: 1,
      },
    });
    // Who may read the order as its provider is delivery-assignment's to say, per read (the
    // gateway asks it): an event on the topic alone, with no assignment there, grants nothing.
    expect((await r.partner('GET', `/orders/${order.orderId}`, undefined, {}, provider)).status).not.toBe(200);
    // The source still reads the branch as it was when the order was placed, and every figure.
    expect((await r.partner('GET', `/orders/${order.orderId}`)).body).toMatchObject({
      branch: { name: 'Mitte', address: 'Torstrasse 1, 10119 Berlin, DE', externalLocationId: 'loc-mitte' },
      deliveryFee: 2.5,
    });
  });

  it('applies a backlog of the order’s events in turn, ending at the newest', async () => {
    const order = await deliveryOrder();
    const backlog = Array.from({ length: 40 }, (_, i) =>
      deliveryEvent(order, i + 1, 'delivery.assigned', otherProvider, 'Assigned'),
    );
    await publisher.publish([...backlog, deliveryEvent(order, 41, 'delivery.assigned', provider, 'Assigned')]);
    expect(await storedAt(order.orderId, 41)).toMatchObject({
      liveAssignment: { installationId: provider.installationId, revision: 41 },
    });
  });

  it('ends with the live assignment; a stale or repeated event changes nothing', async () => {
    const order = await deliveryOrder();
    await publish(order, 1, 'delivery.assigned', provider, 'Assigned');
    await publish(order, 2, 'delivery.status-changed', provider, 'Accepted');
    expect(await storedAt(order.orderId, 2)).toMatchObject({ liveAssignment: { status: 'Accepted' } });
    // The provider cancelled the delivery: nothing is live any more.
    await publish(order, 4, 'delivery.status-changed', provider, 'Cancelled');
    expect(await storedAt(order.orderId, 4)).toMatchObject({ liveAssignment: null });
    // Revision 3 (it gave the order to the other provider) comes late, and revision 2 again; then
    // revision 5, so that the stale ones have surely been handled before it (one partition).
    await publish(order, 3, 'delivery.assigned', otherProvider, 'Assigned');
    await publish(order, 2, 'delivery.status-changed', provider, 'Accepted');
    await publish(order, 5, 'delivery.assigned', otherProvider, 'Assigned');
    expect(await storedAt(order.orderId, 5)).toMatchObject({
      liveAssignment: { installationId: otherProvider.installationId, status: 'Assigned', revision: 5 },
      deliveryRevision: 5,
    });
  });

  it('follows a reassignment: the superseded provider’s assignment is replaced by the new one', async () => {
    const order = await deliveryOrder();
    await publish(order, 1, 'delivery.assigned', provider, 'Assigned');
    await publish(order, 2, 'delivery.superseded', provider, 'Superseded', { app: otherProvider, status: 'Assigned' });
    expect(await storedAt(order.orderId, 2)).toMatchObject({
      liveAssignment: { installationId: otherProvider.installationId, status: 'Assigned' },
    });
  });
});

describe('a Delivered delivery', () => {
  const tenantView = async (orderId: string) => (await r.manage('GET', `/orders/${orderId}`)).body;
  const eventsOf = (orderId: string) =>
    ordersTopic.messages
      .filter((m) => m.key?.toString() === orderId)
      .map((m) => ({
        type: headerText(m.headers, 'event-type'),
        data: JSON.parse(m.value!.subarray(5).toString('utf8')),
      }));

  it('completes its Accepted order (by delivery, orders.status-changed), once', async () => {
    const order = await deliveryOrder();
    expect((await r.manage('POST', `/orders/${order.orderId}/accept`)).status).toBe(200);
    await publish(order, 1, 'delivery.assigned', provider, 'Assigned');
    await publish(order, 2, 'delivery.status-changed', provider, 'Accepted');
    await publish(order, 3, 'delivery.status-changed', provider, 'InTransit');
    await publish(order, 4, 'delivery.status-changed', provider, 'Delivered');
    const completed = await waitFor('the order completed', async () => {
      const view = await tenantView(order.orderId);
      return view.status === 6 ? view : undefined;
    });
    expect(completed).toMatchObject({ statusName: 'Completed', paymentStatus: 1 });
    expect(completed.history.map((h: any) => [h.status, h.by])).toEqual([
      ['Pending', 'source'],
      ['Accepted', 'tenant'],
      ['Completed', 'delivery'],
    ]);
    // A Delivered assignment is still live.
    expect(await storedAt(order.orderId, 4)).toMatchObject({ liveAssignment: { status: 'Delivered' } });
    const events = await waitFor('orders.status-changed to Completed', () => {
      const found = eventsOf(order.orderId);
      return found.some((e) => e.data.status === 'Completed') ? found : undefined;
    });
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ['orders.created', 'Pending'],
      ['orders.status-changed', 'Accepted'],
      ['orders.status-changed', 'Completed'],
    ]);
    expect(events[2]!.data).toMatchObject({ previousStatus: 'Accepted' });

    // The same event again (a replay): nothing changes, nothing is published.
    await publish(order, 4, 'delivery.status-changed', provider, 'Delivered');
    await handledThrough(order, 5);
    expect((await tenantView(order.orderId)).history).toHaveLength(3);
    await sleep(1000); // what the outbox would have published by now
    expect(eventsOf(order.orderId)).toHaveLength(3);
  });

  it('completes a Pending order too, and leaves a cancelled one as it is', async () => {
    const pending = await deliveryOrder();
    await publish(pending, 1, 'delivery.assigned', provider, 'Assigned');
    await publish(pending, 2, 'delivery.status-changed', provider, 'Delivered');
    await waitFor('the pending order completed', async () => (await tenantView(pending.orderId)).status === 6);

    const cancelled = await deliveryOrder();
    await publish(cancelled, 1, 'delivery.assigned', provider, 'Assigned');
    expect((await r.manage('POST', `/orders/${cancelled.orderId}/cancel`)).status).toBe(200);
    await publish(cancelled, 2, 'delivery.status-changed', provider, 'Delivered');
    await handledThrough(cancelled, 3);
    expect(await tenantView(cancelled.orderId)).toMatchObject({ status: 8 });
    expect((await tenantView(cancelled.orderId)).history).toHaveLength(2);
  });
});
