// Set-up shared by the delivery benches (bench:deliveries, bench:dispatch-platform): Delivery
// orders placed through a connected order source, retried on the gateway's transient answers.
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { codeOf, send, sleep } from './http.mjs';

/** Set-up requests retried, by request, status and code. */
export const retries = new Map();
export const retried = (key) => retries.set(key, (retries.get(key) ?? 0) + 1);
export const describeRetries = () =>
  retries.size === 0 ? 'none' : [...retries].map(([k, n]) => `${n} × ${k}`).join(', ');

/** Runs `work(item)` for every item, `concurrency` at a time. */
export async function eachConcurrently(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Waits (30 s at most) until ordering-pricing, in `database`, holds its copy of the product. */
export async function waitForCopy(mongoUrl, database, productId) {
  const mongo = await new MongoClient(mongoUrl).connect();
  try {
    const deadline = Date.now() + 30_000;
    while (
      !(await mongo
        .db(database)
        .collection('catalog_copy')
        .findOne({ _id: { $regex: `:product:${productId}$` } }))
    ) {
      if (Date.now() > deadline) throw new Error('ordering did not copy the bench menu within 30 s');
      await sleep(200);
    }
  } finally {
    await mongo.close();
  }
}

/**
 * Creates `count` Delivery orders through the source (`m`: gatewayUrl, branch, zone, product,
 * source.apiKey), `concurrency` at a time; their ids. A 503 or 504 (or no answer) is retried with
 * the same Idempotency-Key for up to 60 s: the gateway replays a created order.
 */
export async function createDeliveryOrders(m, count, concurrency) {
  const ids = [];
  await eachConcurrently(Array.from({ length: count }), concurrency, async () => {
    const key = randomUUID();
    const body = {
      branchId: m.branch.id,
      orderMode: 1,
      deliveryZoneId: m.zone.id,
      deliveryAddress: { label: null, addressLine: 'Torstrasse 5', latitude: 52.53, longitude: 13.4 },
      customerName: 'Bench Customer',
      customerPhone: '+49 30 1234567',
      paymentMethod: 1,
      externalOrderId: randomUUID(),
      lines: [{ productId: m.product.id, variantId: m.product.variants[0].id, quantity: 1, modifierSelections: [] }],
    };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await send(
        `${m.gatewayUrl}/api/partner/v1/orders`,
        'POST',
        { authorization: `ApiKey ${m.source.apiKey}`, 'idempotency-key': key },
        body,
      );
      if (res.status === 201) {
        ids.push(JSON.parse(res.body).orderId);
        return;
      }
      if (![0, 503, 504].includes(res.status) || Date.now() > deadline)
        throw new Error(`order not created: ${res.status} ${res.body.slice(0, 500)}`);
      retried(`create ${res.status} ${codeOf(res)}`.trim());
      await sleep(250);
    }
  });
  return ids;
}
