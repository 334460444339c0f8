import { randomUUID } from 'node:crypto';
import { sleep, verifySignature, waitFor } from '@marketplace/testing';
import {
  legacyProvider,
  restaurant,
  startDeliveryCluster,
  webhooksFor,
  type DeliveryCluster,
  type Provider,
  type Restaurant,
} from './support/cluster';

// Every row of the spec's delivery-assignment table and every 409, through the gateway against
// the running services: who may do what in which state, what each answers, what the order read
// shows before and after, and which installation each delivery.* webhook reaches.

let cluster: DeliveryCluster;
let r: Restaurant;

beforeAll(async () => {
  cluster = await startDeliveryCluster();
  r = await restaurant(cluster);
}, 240_000);
afterAll(async () => cluster?.stop());

const ASSIGNMENT_FIELDS = [
  'assignmentId',
  'orderId',
  'appInstallationId',
  'status',
  'assignedAtUtc',
  'respondedAtUtc',
  'driverName',
  'driverPhone',
  'etaUtc',
  'trackingUrl',
].sort();

/** A Delivery order assigned to `provider` (201). */
async function assigned(provider: Provider = r.providerA) {
  const order = await r.deliveryOrder();
  const res = await r.assign(order.orderId, provider.installationId);
  expect(res.status).toBe(201);
  return { ...order, assignmentId: res.body.assignmentId as string };
}

/** …and accepted by it (200, status 2). */
async function accepted(provider: Provider = r.providerA) {
  const order = await assigned(provider);
  const res = await provider.call('POST', `/deliveries/${order.orderId}/accept`);
  expect(res.status).toBe(200);
  return order;
}

async function inTransit(provider: Provider = r.providerA) {
  const order = await accepted(provider);
  expect((await provider.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 4 })).status).toBe(200);
  return order;
}

const conflict = (res: { status: number; body: any }, code: string, status: string) => {
  expect(res.status).toBe(409);
  expect(res.body).toMatchObject({ code, status_detail: { status } });
};

describe('assign (tenant)', () => {
  it('assigns a Delivery order: 201 with the pickup snapshot; delivery.assigned, signed, to that installation only', async () => {
    const order = await r.deliveryOrder();
    const res = await r.assign(order.orderId, r.providerA.installationId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      orderId: order.orderId,
      appInstallationId: r.providerA.installationId,
      status: 1,
      statusName: 'Assigned',
      respondedAtUtc: null,
      endedAtUtc: null,
      driverName: null,
      pickup: {
        name: 'Mitte',
        address: 'Torstrasse 1, 10119 Berlin, DE',
        latitude: 52.53,
        longitude: 13.4,
        externalLocationId: 'loc-mitte',
      },
    });
    const [hook] = await webhooksFor(cluster, r.providerA, 'delivery.assigned', order.orderId);
    expect(hook!.envelope.data).toEqual({
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      assignmentId: res.body.assignmentId,
    });
    expect(verifySignature(hook!.request, r.providerA.webhookSecret!)).toBe(true);
    expect(hook!.request.headers['x-marketplace-event-id']).toBe(hook!.envelope.id);
    const read = await r.delivery(order.orderId);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ orderId: order.orderId, orderNumber: order.orderNumber, history: [] });
    expect(read.body.live.assignmentId).toBe(res.body.assignmentId);
  }, 120_000);

  it('the same installation again while Assigned: 200, the same assignment, nothing new sent', async () => {
    const order = await assigned();
    const again = await r.assign(order.orderId, r.providerA.installationId);
    expect(again.status).toBe(200);
    expect(again.body.assignmentId).toBe(order.assignmentId);
    await webhooksFor(cluster, r.providerA, 'delivery.assigned', order.orderId);
    await sleep(500);
    // At least once: a webhook may come twice, but always with the same event id.
    const events = cluster.receiver
      .at(r.providerA.hookPath)
      .map((q) => JSON.parse(q.body.toString()))
      .filter((e) => e.data.orderId === order.orderId);
    expect(new Set(events.map((e) => `${e.type} ${e.id}`)).size).toBe(1);
  });

  it('another installation while Assigned reassigns: the old one is Superseded and told; the new one is told', async () => {
    const order = await assigned(r.providerA);
    const res = await r.assign(order.orderId, r.providerB.installationId);
    expect(res.status).toBe(201);
    expect(res.body.assignmentId).not.toBe(order.assignmentId);
    const [superseded] = await webhooksFor(cluster, r.providerA, 'delivery.superseded', order.orderId);
    expect(superseded!.envelope.data).toEqual({ ...order, assignmentId: order.assignmentId });
    expect(verifySignature(superseded!.request, r.providerA.webhookSecret!)).toBe(true);
    const [assignedB] = await webhooksFor(cluster, r.providerB, 'delivery.assigned', order.orderId);
    expect(assignedB!.envelope.data.assignmentId).toBe(res.body.assignmentId);
    // The superseded installation is a stranger now.
    expect((await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`)).status).toBe(404);
    expect((await r.providerA.call('GET', `/orders/${order.orderId}`)).status).toBe(404);
    const read = await r.delivery(order.orderId);
    expect(read.body.live).toMatchObject({ appInstallationId: r.providerB.installationId, status: 1 });
    expect(read.body.history).toEqual([
      expect.objectContaining({ assignmentId: order.assignmentId, status: 9, statusName: 'Superseded' }),
    ]);
    expect(read.body.history[0].endedAtUtc).toEqual(expect.any(String));
    // Only A heard of the supersede; B never heard of A's assignment.
    const heardByB = cluster.receiver
      .at(r.providerB.hookPath)
      .map((q) => JSON.parse(q.body.toString()))
      .filter((e) => e.data.orderId === order.orderId)
      .map((e) => e.type);
    expect([...new Set(heardByB)]).toEqual(['delivery.assigned']);
  });

  it('refuses after acceptance (409 delivery.assignment_in_progress) and after delivery (409 delivery.already_delivered)', async () => {
    const order = await accepted();
    conflict(await r.assign(order.orderId, r.providerB.installationId), 'delivery.assignment_in_progress', 'Accepted');
    conflict(await r.assign(order.orderId, r.providerA.installationId), 'delivery.assignment_in_progress', 'Accepted');
    await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 4 });
    conflict(await r.assign(order.orderId, r.providerB.installationId), 'delivery.assignment_in_progress', 'InTransit');
    await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 5 });
    const after = await r.assign(order.orderId, r.providerB.installationId);
    // Delivered completes the order; whichever the service sees first, the answer is a 409.
    expect(after.status).toBe(409);
    expect(['delivery.already_delivered', 'delivery.order_not_assignable']).toContain(after.body.code);
  });

  it('after a reject or a cancel by the installation, the tenant may assign again (any installation)', async () => {
    const rejected = await assigned();
    expect((await r.providerA.call('POST', `/deliveries/${rejected.orderId}/reject`)).status).toBe(200);
    const again = await r.assign(rejected.orderId, r.providerA.installationId);
    expect(again.status).toBe(201);
    expect(again.body.assignmentId).not.toBe(rejected.assignmentId);

    const cancelled = await accepted();
    expect((await r.providerA.call('POST', `/deliveries/${cancelled.orderId}/cancel`)).status).toBe(200);
    expect((await r.assign(cancelled.orderId, r.providerB.installationId)).status).toBe(201);
    const read = await r.delivery(cancelled.orderId);
    expect(read.body.history.map((a: any) => a.statusName)).toEqual(['Cancelled']);
    expect(read.body.live.appInstallationId).toBe(r.providerB.installationId);
  });

  it('a Pickup order is 422 delivery.order_not_deliverable; a cancelled order is 409 delivery.order_not_assignable', async () => {
    const pickup = await r.pickupOrder();
    const res = await r.assign(pickup.orderId, r.providerA.installationId);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('delivery.order_not_deliverable');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const order = await r.deliveryOrder();
    expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${order.orderId}/cancel`)).status).toBe(200);
    const cancelled = await r.assign(order.orderId, r.providerA.installationId);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body).toMatchObject({
      code: 'delivery.order_not_assignable',
      status_detail: { status: 'Cancelled' },
    });
  });

  it('the installation: unknown, another tenant’s, disconnected, without Delivery.Accept are 422 with their codes', async () => {
    const order = await r.deliveryOrder();
    const refused = async (installationId: string) => {
      const res = await r.assign(order.orderId, installationId);
      expect(res.status).toBe(422);
      return res.body.code as string;
    };
    const stranger = await restaurant(cluster);
    expect(await refused(randomUUID())).toBe('delivery.installation_unknown');
    expect(await refused(stranger.providerA.installationId)).toBe('delivery.installation_unknown');
    expect(await refused(r.disconnected.installationId)).toBe('delivery.installation_not_connected');
    expect(await refused(r.noAccept.installationId)).toBe('delivery.installation_lacks_scope');
    expect(await refused(r.source.installationId)).toBe('delivery.installation_lacks_scope');
    // Another tenant's order, or none, is the generic 404; a bad body is 400.
    expect((await stranger.assign(order.orderId, stranger.providerA.installationId)).status).toBe(404);
    expect((await stranger.delivery(order.orderId)).status).toBe(404);
    expect((await r.assign(randomUUID(), r.providerA.installationId)).status).toBe(404);
    const bad = await r.tenant.call('POST', `/api/tenant/v1/deliveries/${order.orderId}/assign`, {
      installationId: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('installationId');
  });

  it('an installation that cannot be told of the assignment (no delivery.assigned, no webhook URL) is 422 delivery.provider_not_notifiable; nothing is assigned', async () => {
    // Versions published before the gateway required delivery.assigned of a delivery provider.
    const [unsubscribed, noWebhooks] = await Promise.all([
      legacyProvider(cluster, r, {
        subscribedEvents: ['delivery.cancelled', 'delivery.superseded'],
        webhookUrl: `${cluster.receiver.url}/hooks/${randomUUID()}`,
      }),
      legacyProvider(cluster, r, { subscribedEvents: [], webhookUrl: null }),
    ]);
    expect(noWebhooks.webhookSecret).toBeNull();
    const order = await r.deliveryOrder();
    for (const installation of [unsubscribed, noWebhooks]) {
      const res = await r.assign(order.orderId, installation.installationId);
      expect({ status: res.status, code: res.body?.code }).toEqual({
        status: 422,
        code: 'delivery.provider_not_notifiable',
      });
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await r.delivery(order.orderId)).body).toMatchObject({ live: null, history: [] });
    // The same order goes to an installation that can be told.
    expect((await r.assign(order.orderId, r.providerA.installationId)).status).toBe(201);
    await webhooksFor(cluster, r.providerA, 'delivery.assigned', order.orderId);
  }, 120_000);
});

describe('the installation acts (Partner API)', () => {
  it('accept: Assigned → Accepted (2) with respondedAtUtc; the answer has exactly the ten fields', async () => {
    const order = await assigned();
    const res = await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(ASSIGNMENT_FIELDS);
    expect(res.body).toMatchObject({
      assignmentId: order.assignmentId,
      orderId: order.orderId,
      appInstallationId: r.providerA.installationId,
      status: 2,
      driverName: null,
      driverPhone: null,
      etaUtc: null,
      trackingUrl: null,
    });
    expect(Date.parse(res.body.respondedAtUtc)).toBeGreaterThanOrEqual(Date.parse(res.body.assignedAtUtc));
    conflict(
      await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`),
      'delivery.accept_not_allowed',
      'Accepted',
    );
    conflict(
      await r.providerA.call('POST', `/deliveries/${order.orderId}/reject`),
      'delivery.reject_not_allowed',
      'Accepted',
    );
  });

  it('reject: only while Assigned; the order is untouched, nothing is reassigned, the order read is 404 after', async () => {
    const order = await assigned();
    expect((await r.providerA.call('GET', `/orders/${order.orderId}`)).status).toBe(200);
    const res = await r.providerA.call('POST', `/deliveries/${order.orderId}/reject`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 7, assignmentId: order.assignmentId });
    expect(res.body.respondedAtUtc).toEqual(expect.any(String));
    const tenantOrder = await r.tenant.call('GET', `/api/tenant/v1/orders/${order.orderId}`);
    expect(tenantOrder.body).toMatchObject({ status: 1, paymentStatus: 1 });
    expect((await r.delivery(order.orderId)).body).toMatchObject({ live: null, history: [{ status: 7 }] });
    // No wait: the read asks delivery-assignment who holds the order now.
    expect((await r.providerA.call('GET', `/orders/${order.orderId}`)).status).toBe(404);
    for (const action of ['accept', 'reject', 'cancel'])
      expect((await r.providerA.call('POST', `/deliveries/${order.orderId}/${action}`)).status).toBe(404);
  });

  it('cancel: only while Accepted or InTransit; no delivery.cancelled to the caller; the order untouched', async () => {
    const early = await assigned();
    conflict(
      await r.providerA.call('POST', `/deliveries/${early.orderId}/cancel`),
      'delivery.cancel_not_allowed',
      'Assigned',
    );

    const order = await accepted();
    const res = await r.providerA.call('POST', `/deliveries/${order.orderId}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(8);
    const moving = await inTransit();
    expect((await r.providerA.call('POST', `/deliveries/${moving.orderId}/cancel`)).body.status).toBe(8);
    expect((await r.tenant.call('GET', `/api/tenant/v1/orders/${order.orderId}`)).body.status).toBe(1);
    expect((await r.delivery(order.orderId)).body).toMatchObject({
      live: null,
      history: [{ statusName: 'Cancelled' }],
    });
    expect((await r.providerA.call('GET', `/orders/${order.orderId}`)).status).toBe(404);
    // The tenant cancelling the order now sends nothing either: no live assignment is left.
    expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${order.orderId}/cancel`)).status).toBe(200);
    await sleep(1_000);
    const types = cluster.receiver
      .at(r.providerA.hookPath)
      .map((q) => JSON.parse(q.body.toString()))
      .filter((e) => e.data.orderId === order.orderId)
      .map((e) => e.type);
    expect([...new Set(types)]).toEqual(['delivery.assigned']);
  });

  it('status: 4 only from Accepted, 5 only from InTransit (else 409 delivery.transition_not_allowed); Delivered completes the order', async () => {
    const order = await assigned();
    const move = (targetStatus: number) =>
      r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus });
    conflict(await move(4), 'delivery.transition_not_allowed', 'Assigned');
    conflict(await move(5), 'delivery.transition_not_allowed', 'Assigned');
    await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`);
    conflict(await move(5), 'delivery.transition_not_allowed', 'Accepted');
    expect((await move(4)).body.status).toBe(4);
    conflict(await move(4), 'delivery.transition_not_allowed', 'InTransit');
    const delivered = await move(5);
    expect(delivered.status).toBe(200);
    expect(delivered.body.status).toBe(5);
    conflict(await move(4), 'delivery.transition_not_allowed', 'Delivered');
    conflict(await move(5), 'delivery.transition_not_allowed', 'Delivered');
    conflict(
      await r.providerA.call('POST', `/deliveries/${order.orderId}/cancel`),
      'delivery.cancel_not_allowed',
      'Delivered',
    );
    await waitFor('the delivered order to be Completed', async () => {
      const read = await r.tenant.call('GET', `/api/tenant/v1/orders/${order.orderId}`);
      return read.body.status === 6;
    });
    // The holder of a Delivered assignment still reads the order.
    expect((await r.providerA.call('GET', `/orders/${order.orderId}`)).status).toBe(200);
  });

  it('status targets other than 4 and 5 are 400 request.invalid', async () => {
    const order = await accepted();
    for (const targetStatus of [1, 2, 3, 6, 7, 8, 9, 10, '4', null]) {
      const res = await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('request.invalid');
      expect(res.body.errors).toHaveProperty('targetStatus');
    }
    expect((await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, {})).status).toBe(400);
  });

  it('driver, ETA and tracking: only while Accepted or InTransit (409 delivery.update_not_allowed), with their limits', async () => {
    const order = await assigned();
    const patch = (path: string, body: unknown) =>
      r.providerA.call('PATCH', `/deliveries/${order.orderId}/${path}`, body);
    conflict(
      await patch('driver', { driverName: 'Max', driverPhone: null }),
      'delivery.update_not_allowed',
      'Assigned',
    );
    conflict(await patch('eta', { etaUtc: null }), 'delivery.update_not_allowed', 'Assigned');
    conflict(await patch('tracking', { trackingUrl: null }), 'delivery.update_not_allowed', 'Assigned');
    await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`);

    const driver = await patch('driver', { driverName: '  Max Mustermann ', driverPhone: '+49 170 1234567' });
    expect(driver.status).toBe(200);
    expect(driver.body).toMatchObject({ driverName: 'Max Mustermann', driverPhone: '+49 170 1234567', status: 2 });
    const eta = new Date(Date.now() + 20 * 60_000).toISOString();
    expect((await patch('eta', { etaUtc: eta })).body.etaUtc).toBe(eta);
    const url = 'https://track.example.com/d/123?x=1';
    expect((await patch('tracking', { trackingUrl: url })).body.trackingUrl).toBe(url);

    const invalid = async (path: string, body: unknown, field: string) => {
      const res = await patch(path, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('request.invalid');
      expect(Object.keys(res.body.errors)).toContain(field);
    };
    await invalid('driver', { driverName: 'Max' }, 'driverPhone');
    await invalid('driver', { driverName: 'Max', driverPhone: 'call me' }, 'driverPhone');
    await invalid('driver', { driverName: 'x'.repeat(101), driverPhone: null }, 'driverName');
    await invalid('driver', { driverName: '   ', driverPhone: null }, 'driverName');
    await invalid('eta', { etaUtc: 'tomorrow' }, 'etaUtc');
    await invalid('eta', { etaUtc: new Date(Date.now() - 3_600_000).toISOString() }, 'etaUtc');
    await invalid('eta', { etaUtc: new Date(Date.now() + 8 * 86_400_000).toISOString() }, 'etaUtc');
    await invalid('eta', {}, 'etaUtc');
    await invalid('tracking', { trackingUrl: 'http://track.example.com/1' }, 'trackingUrl');
    await invalid('tracking', { trackingUrl: '/relative' }, 'trackingUrl');
    await invalid('tracking', { trackingUrl: `https://t.example.com/${'a'.repeat(2048)}` }, 'trackingUrl');
    // A few minutes late is a late report, kept as sent.
    const late = new Date(Date.now() - 60_000).toISOString();
    expect((await patch('eta', { etaUtc: late })).body.etaUtc).toBe(late);

    await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 4 });
    const cleared = await patch('driver', { driverName: null, driverPhone: null });
    expect(cleared.body).toMatchObject({ driverName: null, driverPhone: null, status: 4 });
    expect((await patch('tracking', { trackingUrl: null })).body.trackingUrl).toBeNull();
    expect((await patch('eta', { etaUtc: null })).body.etaUtc).toBeNull();
    await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 5 });
    conflict(await patch('eta', { etaUtc: null }), 'delivery.update_not_allowed', 'Delivered');
  });

  it('an installation that does not hold the live assignment gets the generic 404 on every endpoint', async () => {
    const order = await accepted(r.providerA);
    const missing = randomUUID();
    const calls: Array<[string, string, unknown?]> = [
      ['POST', 'accept'],
      ['POST', 'reject'],
      ['POST', 'cancel'],
      ['PATCH', 'status', { targetStatus: 4 }],
      ['PATCH', 'driver', { driverName: 'X', driverPhone: null }],
      ['PATCH', 'eta', { etaUtc: null }],
      ['PATCH', 'tracking', { trackingUrl: null }],
    ];
    for (const [method, path, body] of calls) {
      const theirs = await r.providerB.call(method, `/deliveries/${order.orderId}/${path}`, body);
      const none = await r.providerB.call(method, `/deliveries/${missing}/${path}`, body);
      expect([theirs.status, none.status]).toEqual([404, 404]);
      expect(theirs.body).toEqual({ ...none.body, instance: theirs.body.instance });
    }
    expect((await r.providerB.call('GET', `/orders/${order.orderId}`)).status).toBe(404);
    expect((await r.source.call('GET', `/orders/${order.orderId}`)).status).toBe(200); // the source's own read
  });

  it('a repeated Idempotency-Key replays the first answer', async () => {
    const order = await assigned();
    const key = randomUUID();
    const first = await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`, undefined, key);
    const again = await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`, undefined, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('the order ends', () => {
  it('the tenant cancels an order with an Accepted delivery: Terminated (10), delivery.cancelled to the installation', async () => {
    const order = await accepted();
    expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${order.orderId}/cancel`)).status).toBe(200);
    const [hook] = await webhooksFor(cluster, r.providerA, 'delivery.cancelled', order.orderId);
    expect(hook!.envelope.data).toEqual(order);
    expect(verifySignature(hook!.request, r.providerA.webhookSecret!)).toBe(true);
    const read = await r.delivery(order.orderId);
    expect(read.body).toMatchObject({ live: null, history: [{ status: 10, statusName: 'Terminated' }] });
    expect((await r.providerA.call('GET', `/orders/${order.orderId}`)).status).toBe(404);
    expect((await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 4 })).status).toBe(
      404,
    );
  });

  it('the source cancels its Pending order with an Assigned delivery: delivery.cancelled to the installation', async () => {
    const order = await assigned();
    const cancel = await r.source.call('POST', `/orders/${order.orderId}/cancel`);
    expect(cancel.status).toBe(200);
    const [hook] = await webhooksFor(cluster, r.providerA, 'delivery.cancelled', order.orderId);
    expect(hook!.envelope.data).toEqual(order);
  });

  it('the tenant rejects the order: its InTransit delivery is terminated too', async () => {
    const order = await assigned();
    expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${order.orderId}/reject`)).status).toBe(200);
    await webhooksFor(cluster, r.providerA, 'delivery.cancelled', order.orderId);
    expect((await r.delivery(order.orderId)).body.history).toEqual([
      expect.objectContaining({ statusName: 'Terminated' }),
    ]);
  });
});

describe('the order read by the assigned installation', () => {
  it('shows the seven source-only fields null and the branch as snapshotted at assignment, even after the tenant edits it', async () => {
    const order = await assigned();
    const first = await r.providerA.call('GET', `/orders/${order.orderId}`);
    expect(first.status).toBe(200);
    for (const field of [
      'paymentStatus',
      'externalOrderId',
      'subtotal',
      'discountTotal',
      'taxTotal',
      'deliveryFee',
      'serviceFee',
    ])
      expect(first.body[field]).toBeNull();
    expect(first.body.branch).toEqual({
      name: 'Mitte',
      address: 'Torstrasse 1, 10119 Berlin, DE',
      latitude: 52.53,
      longitude: 13.4,
      externalLocationId: 'loc-mitte',
    });
    expect(first.body.customerName).toBe('Ada Lovelace');

    const edited = await r.tenant.call('PUT', `/api/tenant/v1/catalog/branches/${r.menu.branchId}`, {
      name: 'Mitte (moved)',
      isActive: true,
      externalLocationId: 'loc-mitte-2',
      address: { line1: 'Invalidenstrasse 9', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
      coordinates: { latitude: 52.531, longitude: 13.401 },
    });
    expect(edited.status).toBe(200);
    await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`);
    await sleep(1_000); // time for the change to travel, were it to change anything
    const later = await r.providerA.call('GET', `/orders/${order.orderId}`);
    expect(later.body.branch).toEqual(first.body.branch);

    // A new assignment snapshots the branch as it is now (assign waits for its copies to hold the edit).
    const next = await r.deliveryOrder();
    const res = await r.assign(next.orderId, r.providerB.installationId);
    expect(res.body.pickup).toMatchObject({ name: 'Mitte (moved)', externalLocationId: 'loc-mitte-2' });
  });
});

describe('races', () => {
  it('accept and reject at once: exactly one wins, the other is a 409 or a 404, and the state agrees', async () => {
    for (let i = 0; i < 8; i++) {
      const order = await assigned();
      const [acceptRes, rejectRes] = await Promise.all([
        r.providerA.call('POST', `/deliveries/${order.orderId}/accept`),
        r.providerA.call('POST', `/deliveries/${order.orderId}/reject`),
      ]);
      const winners = [acceptRes, rejectRes].filter((x) => x.status === 200);
      expect(winners).toHaveLength(1);
      const read = (await r.delivery(order.orderId)).body;
      if (acceptRes.status === 200) {
        expect(rejectRes.status).toBe(409);
        expect(read.live.status).toBe(2);
      } else {
        expect(acceptRes.status).toBe(404);
        expect(read).toMatchObject({ live: null, history: [{ status: 7 }] });
      }
    }
  });

  it('a reassignment racing an accept ends in one consistent state', async () => {
    for (let i = 0; i < 8; i++) {
      const order = await assigned(r.providerA);
      const [reassign, accept] = await Promise.all([
        r.assign(order.orderId, r.providerB.installationId),
        r.providerA.call('POST', `/deliveries/${order.orderId}/accept`),
      ]);
      const read = (await r.delivery(order.orderId)).body;
      if (accept.status === 200) {
        expect(reassign.status).toBe(409);
        expect(read.live).toMatchObject({ appInstallationId: r.providerA.installationId, status: 2 });
        expect(read.history).toEqual([]);
      } else {
        expect(accept.status).toBe(404);
        expect(reassign.status).toBe(201);
        expect(read.live).toMatchObject({ appInstallationId: r.providerB.installationId, status: 1 });
        expect(read.history).toEqual([expect.objectContaining({ statusName: 'Superseded' })]);
      }
    }
  });
});

describe('the order read at the instant each webhook lands', () => {
  it('follows delivery-assignment, not ordering’s copy of its topic, whatever the copy says', async () => {
    const orders = cluster.orderingDb.collection<{ _id: string; liveAssignment: unknown }>('orders');
    const copied = (orderId: string) =>
      waitFor(
        `ordering's copy of ${orderId}'s assignment`,
        async () => (await orders.findOne({ _id: orderId }))?.liveAssignment,
      );
    // A copy that has not seen the assignment: the holder reads the order all the same.
    const held = await assigned();
    await copied(held.orderId);
    await orders.updateOne({ _id: held.orderId }, { $set: { liveAssignment: null } });
    expect((await r.providerA.call('GET', `/orders/${held.orderId}`)).status).toBe(200);
    // A copy that names another installation: it reads nothing.
    const other = await assigned();
    await copied(other.orderId);
    await orders.updateOne(
      { _id: other.orderId },
      { $set: { 'liveAssignment.installationId': r.providerB.installationId } },
    );
    expect((await r.providerB.call('GET', `/orders/${other.orderId}`)).status).toBe(404);
  });

  // The provider reads the order from inside its webhook handler, before answering it: on
  // delivery.assigned the read is the order, on delivery.superseded and delivery.cancelled it is
  // gone, every time (the read follows delivery-assignment at the time of the request, not a copy
  // of its topic that may lag behind the webhook).
  it('reads the order on delivery.assigned, and no longer on delivery.superseded or delivery.cancelled', async () => {
    const ROUNDS = 8;
    const reads = new Map<string, Promise<number>>();
    const answer = cluster.receiver.respond;
    cluster.receiver.respond = (request, nth) => {
      if (request.path === r.providerA.hookPath) {
        const { type, data } = JSON.parse(request.body.toString('utf8'));
        const key = `${type} ${data.orderId}`;
        if (!reads.has(key))
          reads.set(
            key,
            r.providerA.call('GET', `/orders/${data.orderId}`).then((res) => res.status),
          );
      }
      return answer(request, nth);
    };
    try {
      const orders = await Promise.all(Array.from({ length: ROUNDS }, () => assigned()));
      for (const { orderId } of orders) await webhooksFor(cluster, r.providerA, 'delivery.assigned', orderId);
      // Half go to the other provider (superseded), half are cancelled by the tenant.
      const [reassigned, cancelled] = [orders.slice(0, ROUNDS / 2), orders.slice(ROUNDS / 2)];
      for (const { orderId } of reassigned)
        expect((await r.assign(orderId, r.providerB.installationId)).status).toBe(201);
      for (const { orderId } of cancelled)
        expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${orderId}/cancel`)).status).toBe(200);
      for (const { orderId } of reassigned) await webhooksFor(cluster, r.providerA, 'delivery.superseded', orderId);
      for (const { orderId } of cancelled) await webhooksFor(cluster, r.providerA, 'delivery.cancelled', orderId);

      const statuses = async (type: string, list: typeof orders) =>
        Promise.all(list.map(({ orderId }) => reads.get(`${type} ${orderId}`) ?? Promise.resolve(0))); // 0: never read
      expect(await statuses('delivery.assigned', orders)).toEqual(orders.map(() => 200));
      expect(await statuses('delivery.superseded', reassigned)).toEqual(reassigned.map(() => 404));
      expect(await statuses('delivery.cancelled', cancelled)).toEqual(cancelled.map(() => 404));
    } finally {
      cluster.receiver.respond = answer;
    }
  });
});
