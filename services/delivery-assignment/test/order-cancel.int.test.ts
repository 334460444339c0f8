import { verifySignature } from '@marketplace/testing';
import {
  restaurant,
  startDeliveryCluster,
  webhooksFor,
  type DeliveryCluster,
  type Restaurant,
} from './support/cluster';

// The spec lets the tenant cancel an order from any status ("any | tenant cancels"), and a
// tenant cancel terminates the live assignment ("Live assignment | tenant cancels the order"): so
// also after the tenant completed the order while its delivery was still on the way. Kept apart
// from assignments.int.test.ts, which covers the cancels from Pending and Accepted.

let cluster: DeliveryCluster;
let r: Restaurant;

beforeAll(async () => {
  cluster = await startDeliveryCluster();
  r = await restaurant(cluster);
}, 240_000);
afterAll(async () => cluster?.stop());

it('the tenant cancels a Completed order whose delivery is InTransit: Terminated, delivery.cancelled to the installation', async () => {
  const order = await r.deliveryOrder();
  const assigned = await r.assign(order.orderId, r.providerA.installationId);
  expect(assigned.status).toBe(201);
  expect((await r.providerA.call('POST', `/deliveries/${order.orderId}/accept`)).status).toBe(200);
  expect((await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 4 })).status).toBe(
    200,
  );
  for (const action of ['accept', 'complete', 'cancel']) {
    const res = await r.tenant.call('POST', `/api/tenant/v1/orders/${order.orderId}/${action}`);
    expect(res.status).toBe(200);
  }
  const [hook] = await webhooksFor(cluster, r.providerA, 'delivery.cancelled', order.orderId);
  expect(hook!.envelope.data).toEqual({ ...order, assignmentId: assigned.body.assignmentId });
  expect(verifySignature(hook!.request, r.providerA.webhookSecret!)).toBe(true);
  const read = await r.delivery(order.orderId);
  expect(read.body).toMatchObject({ live: null, history: [{ status: 10, statusName: 'Terminated' }] });
  expect((await r.providerA.call('PATCH', `/deliveries/${order.orderId}/status`, { targetStatus: 5 })).status).toBe(
    404,
  );
});
