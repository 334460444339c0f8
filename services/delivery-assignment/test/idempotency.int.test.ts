import { createHash, randomUUID } from 'node:crypto';
import {
  restaurant,
  startDeliveryCluster,
  type DeliveryCluster,
  type Provider,
  type Restaurant,
} from './support/cluster';

// A partner retries a mutation whose answer it never got: the gateway gave up on the upstream (504
// upstream.timeout) after the change was made, so it stored nothing and forwards the retry. The
// state after such a 504 is made exactly, without timing: the call goes through, then the
// gateway's stored response is deleted from its database. The retry must get the first answer
// (spec: same key and same payload, the original response, not re-executed) and the same key with
// another request 409, from the service that made the change.

let cluster: DeliveryCluster;
let r: Restaurant;

beforeAll(async () => {
  cluster = await startDeliveryCluster();
  r = await restaurant(cluster);
}, 240_000);
afterAll(async () => cluster?.stop());

/** What a gateway 504 leaves: the change made, no response stored at the gateway for the key. */
async function gatewayLostTheAnswer(caller: Provider, key: string): Promise<void> {
  const id = `${caller.installationId}:${createHash('sha256').update(key).digest('base64url')}`;
  const { deletedCount } = await cluster.gatewayDb
    .collection<{ _id: string }>('idempotency_records')
    .deleteOne({ _id: id });
  expect(deletedCount).toBe(1); // the gateway had stored it: the forwarded call succeeded
}

async function assigned() {
  const order = await r.deliveryOrder();
  expect((await r.assign(order.orderId, r.providerA.installationId)).status).toBe(201);
  return order.orderId;
}

async function accepted() {
  const orderId = await assigned();
  expect((await r.providerA.call('POST', `/deliveries/${orderId}/accept`)).status).toBe(200);
  return orderId;
}

const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** Each endpoint: the state it acts from, its request, and another request to send with the same key. */
const ENDPOINTS: Array<{
  name: string;
  from: () => Promise<string>;
  method: 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  other: { path: string; body?: unknown };
}> = [
  { name: 'accept', from: assigned, method: 'POST', path: 'accept', other: { path: 'reject' } },
  { name: 'reject', from: assigned, method: 'POST', path: 'reject', other: { path: 'accept' } },
  { name: 'cancel', from: accepted, method: 'POST', path: 'cancel', other: { path: 'accept' } },
  {
    name: 'status',
    from: accepted,
    method: 'PATCH',
    path: 'status',
    body: { targetStatus: 4 },
    other: { path: 'status', body: { targetStatus: 5 } },
  },
  {
    name: 'driver',
    from: accepted,
    method: 'PATCH',
    path: 'driver',
    body: { driverName: 'Max', driverPhone: '+49 170 1234567' },
    other: { path: 'driver', body: { driverName: 'Moritz', driverPhone: '+49 170 1234567' } },
  },
  {
    name: 'eta',
    from: accepted,
    method: 'PATCH',
    path: 'eta',
    body: { etaUtc: soon(30) },
    other: { path: 'eta', body: { etaUtc: soon(45) } },
  },
  {
    name: 'tracking',
    from: accepted,
    method: 'PATCH',
    path: 'tracking',
    body: { trackingUrl: 'https://track.example.com/1' },
    other: { path: 'tracking', body: { trackingUrl: 'https://track.example.com/2' } },
  },
];

describe('a delivery mutation retried after the gateway lost its answer', () => {
  it.each(ENDPOINTS)(
    '$name: the same key and request get the first 200 body; the same key with another request is 409',
    async ({ from, method, path, body, other }) => {
      const orderId = await from();
      const key = randomUUID();
      const first = await r.providerA.call(method, `/deliveries/${orderId}/${path}`, body, key);
      expect(first.status).toBe(200);
      const stateAfter = (await r.delivery(orderId)).body;

      await gatewayLostTheAnswer(r.providerA, key);
      const retry = await r.providerA.call(method, `/deliveries/${orderId}/${path}`, body, key);
      expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
      expect(retry.text).toBe(first.text);
      expect((await r.delivery(orderId)).body).toEqual(stateAfter); // not executed again

      await gatewayLostTheAnswer(r.providerA, key); // the retry's answer, stored by the gateway
      const reused = await r.providerA.call(
        other.body === undefined ? 'POST' : 'PATCH',
        `/deliveries/${orderId}/${other.path}`,
        other.body,
        key,
      );
      expect(reused.status).toBe(409);
      expect(reused.body).toMatchObject({ code: 'idempotency.key_reused' });
      expect((await r.delivery(orderId)).body).toEqual(stateAfter);
    },
  );

  it('the first answer is replayed even after later changes, which it does not undo', async () => {
    const orderId = await accepted();
    const key = randomUUID();
    const max = { driverName: 'Max', driverPhone: null };
    const first = await r.providerA.call('PATCH', `/deliveries/${orderId}/driver`, max, key);
    expect(first.status).toBe(200);
    const later = await r.providerA.call('PATCH', `/deliveries/${orderId}/driver`, {
      driverName: 'Moritz',
      driverPhone: null,
    });
    expect(later.body.driverName).toBe('Moritz');

    await gatewayLostTheAnswer(r.providerA, key);
    const retry = await r.providerA.call('PATCH', `/deliveries/${orderId}/driver`, max, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await r.delivery(orderId)).body.live.driverName).toBe('Moritz');
  });

  it('the same key on another order is 409, and that order is untouched', async () => {
    const first = await assigned();
    const second = await assigned();
    const key = randomUUID();
    expect((await r.providerA.call('POST', `/deliveries/${first}/accept`, undefined, key)).status).toBe(200);
    await gatewayLostTheAnswer(r.providerA, key);
    const reused = await r.providerA.call('POST', `/deliveries/${second}/accept`, undefined, key);
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'idempotency.key_reused' });
    expect((await r.delivery(second)).body.live.status).toBe(1);
  });
});

describe('the source cancel retried after the gateway lost its answer (ordering-pricing)', () => {
  it('the same key gets the first 200 body, the order cancelled once', async () => {
    const order = await r.deliveryOrder();
    const key = randomUUID();
    const first = await r.source.call('POST', `/orders/${order.orderId}/cancel`, undefined, key);
    expect(first.status).toBe(200);
    await gatewayLostTheAnswer(r.source, key);
    const retry = await r.source.call('POST', `/orders/${order.orderId}/cancel`, undefined, key);
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    const another = await r.source.call('POST', `/orders/${order.orderId}/cancel`);
    expect(another.status).toBe(409);
    expect(another.body).toMatchObject({ code: 'tenancy.partner_api.order_not_cancellable' });
  });
});
