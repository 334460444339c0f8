// The checks after the run: each one a count of what was promised, what was found, and what was
// lost or duplicated. Every check reads the truth where it lives: the services' databases for
// orders and provider deliveries, the receiver for webhooks and callbacks, the provider-events
// topic for what the provider decided to send.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../../services.mjs';

const require = createRequire(join(root, 'package.json'));
const { verifySignature, verifyPlatformSignature } = require('./shared/testing/dist/receiver.js');

/** The requests at the receiver that carry `header`, each with its JSON body (those whose body is not JSON are none of ours). */
function withJsonBodies(received, header) {
  const parsed = [];
  for (const r of received) {
    if (!r.headers[header]) continue;
    try {
      const body = JSON.parse(r.body.toString('utf8'));
      if (body !== null && typeof body === 'object') parsed.push({ r, body });
    } catch {
      // not JSON: not one the traffic made
    }
  }
  return parsed;
}

const TERMINAL = new Set(['delivered', 'cancelled', 'failed', 'returned_to_origin', 'return_failed']);

/** Every acknowledged order once in ordering-pricing's database; no externalOrderId twice. */
export async function checkOrders(db, traffic) {
  const orders = db.collection('orders');
  const attempted = traffic.orders;
  const refs = attempted.map((o) => o.externalOrderId);
  const counts = new Map();
  for await (const doc of orders.find(
    { 'source.externalOrderId': { $in: refs } },
    { projection: { 'source.externalOrderId': 1 } },
  ))
    counts.set(doc.source.externalOrderId, (counts.get(doc.source.externalOrderId) ?? 0) + 1);
  const acknowledged = attempted.filter((o) => o.acknowledged);
  const found = new Set();
  for await (const doc of orders.find({ _id: { $in: acknowledged.map((o) => o.orderId) } }, { projection: { _id: 1 } }))
    found.add(doc._id);
  const lostOrders = acknowledged.filter((o) => !found.has(o.orderId));
  const duplicatedRefs = [...counts].filter(([, c]) => c > 1).map(([ref]) => ref);
  return {
    attempted: attempted.length,
    acknowledged: acknowledged.length,
    lost: lostOrders.length,
    duplicated: duplicatedRefs.length,
    // When each lost or duplicated one was sent (the report puts it under its fault).
    lostAt: lostOrders.map((o) => o.at),
    duplicatedAt: attempted.filter((o) => duplicatedRefs.includes(o.externalOrderId)).map((o) => o.at),
    // Not acknowledged (given up on) but created: allowed (the client did not know), counted.
    createdUnacknowledged: attempted.filter((o) => !o.acknowledged && counts.has(o.externalOrderId)).length,
  };
}

/** Every acknowledged provider delivery once in provider-delivery's database, with the id it was given. */
export async function checkProviderDeliveries(db, traffic, accountId) {
  const deliveries = db.collection('deliveries');
  const attempted = traffic.deliveries;
  const counts = new Map();
  const ids = new Map();
  for await (const doc of deliveries.find(
    { accountId, idempotencyKey: { $in: attempted.map((d) => d.reference) } },
    { projection: { idempotencyKey: 1, status: 1 } },
  )) {
    counts.set(doc.idempotencyKey, (counts.get(doc.idempotencyKey) ?? 0) + 1);
    ids.set(doc.idempotencyKey, doc);
  }
  const acknowledged = attempted.filter((d) => d.acknowledged);
  const lostDeliveries = acknowledged.filter((d) => ids.get(d.reference)?._id !== d.providerDeliveryId);
  const duplicated = attempted.filter((d) => (counts.get(d.reference) ?? 0) > 1);
  return {
    attempted: attempted.length,
    acknowledged: acknowledged.length,
    lost: lostDeliveries.length,
    duplicated: duplicated.length,
    lostAt: lostDeliveries.map((d) => d.at),
    duplicatedAt: duplicated.map((d) => d.at),
    statuses: [...ids.values()].reduce((m, d) => ((m[d.status] = (m[d.status] ?? 0) + 1), m), {}),
  };
}

/**
 * The partner webhooks the traffic was promised (orders.created for every acknowledged order,
 * orders.cancelled for every cancellation, delivery.assigned for every assignment), each at the
 * receiver at least once with a valid signature; one event id always with the same body.
 */
export function partnerWebhooks(received, traffic, fixture) {
  const secrets = {
    'orders.created': fixture.installations.orderSource.webhookSecret,
    'orders.cancelled': fixture.installations.orderSource.webhookSecret,
    'delivery.assigned': fixture.installations.deliveryProvider.webhookSecret,
  };
  const seen = new Map(); // `${type}:${orderId}` -> event id
  const bodiesById = new Map();
  let badSignatures = 0;
  let copies = 0;
  for (const { r, body: event } of withJsonBodies(received, 'x-marketplace-event-id')) {
    const secret = secrets[event.type];
    if (!secret || !event.data?.orderId) continue; // not one the traffic made (another installation's)
    if (!verifySignature(r, secret)) {
      badSignatures++;
      continue;
    }
    const id = String(r.headers['x-marketplace-event-id']);
    if (id !== event.id) badSignatures++;
    const bodies = bodiesById.get(id) ?? new Set();
    if (bodies.size > 0) copies++;
    bodies.add(r.body.toString('utf8'));
    bodiesById.set(id, bodies);
    seen.set(`${event.type}:${event.data.orderId}`, id);
  }
  const expected = [
    ...traffic.orders.filter((o) => o.acknowledged).map((o) => `orders.created:${o.orderId}`),
    ...traffic.cancels.map((c) => `orders.cancelled:${c.orderId}`),
    ...traffic.assignments.map((a) => `delivery.assigned:${a.orderId}`),
  ];
  const missing = expected.filter((key) => !seen.has(key));
  const sentAt = new Map(traffic.orders.map((o) => [o.orderId, o.at]));
  return {
    expected: expected.length,
    received: expected.length - missing.length,
    lost: missing.length,
    missing: missing.slice(0, 10),
    lostAt: missing.map((key) => sentAt.get(key.slice(key.indexOf(':') + 1))),
    badSignatures,
    idsWithTwoBodies: [...bodiesById.values()].filter((b) => b.size > 1).length,
    duplicateCopies: copies,
  };
}

/**
 * The provider callbacks: every event provider-delivery published for an acknowledged delivery at
 * the receiver with a valid signature (or, for a nonterminal event, left out because the terminal
 * one was already sent: the contract forbids a nonterminal event after a terminal one); nothing
 * nonterminal after a terminal callback; every delivery's terminal callback received.
 */
export function providerCallbacks(received, events, traffic, fixture) {
  const ours = new Set(traffic.deliveries.filter((d) => d.acknowledged).map((d) => d.providerDeliveryId));
  const callbacks = new Map(); // providerDeliveryId -> [{ type, eventTimeUtc, status, at }]
  let badSignatures = 0;
  let copies = 0;
  const bodies = new Set();
  /** One callback (a delivery's event: its type and eventTimeUtc, unchanged on every retry) -> its bodies. */
  const bodiesOfCallback = new Map();
  for (const { r, body } of withJsonBodies(received, 'x-platform-signature')) {
    if (!ours.has(body.providerDeliveryId)) continue;
    if (!verifyPlatformSignature(r, fixture.provider.webhookSecret)) {
      badSignatures++;
      continue;
    }
    const text = r.body.toString('utf8');
    if (bodies.has(text)) copies++;
    bodies.add(text);
    const id = `${body.providerDeliveryId}|${body.eventType}|${body.eventTimeUtc}`;
    bodiesOfCallback.set(id, (bodiesOfCallback.get(id) ?? new Set()).add(text));
    const list = callbacks.get(body.providerDeliveryId) ?? [];
    list.push({ type: body.eventType, status: body.status, eventTimeUtc: body.eventTimeUtc, at: r.at });
    callbacks.set(body.providerDeliveryId, list);
  }
  const published = new Map();
  for (const e of events.filter((x) => ours.has(x.providerDeliveryId)))
    published.set(`${e.providerDeliveryId}|${e.type}|${e.eventTimeUtc}`, e);
  let lost = 0;
  let superseded = 0;
  const missing = [];
  for (const [key, e] of published) {
    const got = callbacks.get(e.providerDeliveryId) ?? [];
    if (got.some((c) => c.type === e.type && c.eventTimeUtc === e.eventTimeUtc)) continue;
    if (!TERMINAL.has(e.status) && got.some((c) => TERMINAL.has(c.status))) superseded++;
    else {
      lost++;
      missing.push(key);
    }
  }
  let afterTerminal = 0;
  let withoutTerminal = 0;
  const violations = [];
  for (const id of ours) {
    const got = (callbacks.get(id) ?? []).slice().sort((a, b) => a.at - b.at);
    const end = got.findIndex((c) => TERMINAL.has(c.status));
    if (end === -1) withoutTerminal++;
    else {
      const late = got.slice(end + 1).filter((c) => !TERMINAL.has(c.status)).length;
      afterTerminal += late;
      if (late > 0 && violations.length < 5)
        violations.push({ id, sequence: got.map((c) => `${c.status}+${c.at - got[0].at}ms`).join(' ') });
    }
  }
  const sentAt = new Map(traffic.deliveries.map((d) => [d.providerDeliveryId, d.at]));
  const twoBodies = [...bodiesOfCallback].filter(([, set]) => set.size > 1).map(([id]) => id);
  return {
    published: published.size,
    received: published.size - lost - superseded,
    lost,
    missing: missing.slice(0, 10),
    lostAt: missing.map((key) => sentAt.get(key.split('|')[0])),
    withTwoBodies: twoBodies.length,
    twoBodies: twoBodies.slice(0, 5),
    twoBodiesAt: twoBodies.map((id) => sentAt.get(id.split('|')[0])),
    superseded,
    badSignatures,
    duplicateCopies: copies,
    nonterminalAfterTerminal: afterTerminal,
    violations,
    deliveriesWithoutTerminalCallback: withoutTerminal,
  };
}

/**
 * Per-key order of the partner webhooks: for each order, no `orders.cancelled` arrives before its
 * `orders.created` was delivered (a copy the receiver answered: not one it left hanging during a
 * partner-endpoint fault); for each delivery, no other `delivery.*` event before its
 * `delivery.assigned` was. A copy that arrives later again (at least once) is no violation.
 */
export function webhookOrder(received) {
  const FIRST = { 'orders.cancelled': 'orders.created', 'delivery.cancelled': 'delivery.assigned' };
  /** `${type}:${orderId}` -> when it was first delivered (answered). */
  const delivered = new Map();
  /** `${type}:${orderId}` -> when it first arrived at all. */
  const arrived = new Map();
  for (const { r, body: event } of withJsonBodies(received, 'x-marketplace-event-id')) {
    if (!event.data?.orderId) continue;
    const key = `${event.type}:${event.data.orderId}`;
    if (!arrived.has(key)) arrived.set(key, r.at);
    if (!r.hung && !delivered.has(key)) delivered.set(key, r.at);
  }
  const violations = [];
  let checked = 0;
  for (const [key, at] of arrived) {
    const [type, orderId] = key.split(':');
    const first = FIRST[type];
    if (!first) continue;
    checked++;
    const before = delivered.get(`${first}:${orderId}`);
    if (before === undefined || before > at)
      violations.push({ orderId, type, arrivedAt: at, firstDeliveredAt: before ?? null, first });
  }
  return { checked, outOfOrder: violations.length, violations: violations.slice(0, 10) };
}

/**
 * The callbacks the proof's own couriers made due (lib/couriers.mjs's expectedCallbacks): each one
 * at the receiver, signed, with its type and status; or, for a nonterminal one, shown dropped by
 * the documented rule (the sender's record of it: cancelled as superseded by its delivery's
 * terminal callback, docs/services/webhook-sender.md). `dropped` is that record: the set of
 * `${providerDeliveryId}|${eventType}` the sender cancelled so.
 */
export function courierCallbacks(received, expected, dropped, fixture) {
  const got = new Set();
  for (const { r, body } of withJsonBodies(received, 'x-platform-signature'))
    if (verifyPlatformSignature(r, fixture.provider.webhookSecret))
      got.add(`${body.providerDeliveryId}|${body.eventType}|${body.status}`);
  const missing = [];
  let excused = 0;
  for (const e of expected) {
    if (got.has(`${e.providerDeliveryId}|${e.eventType}|${e.status}`)) continue;
    if (!TERMINAL.has(e.status) && dropped.has(`${e.providerDeliveryId}|${e.eventType}`)) excused++;
    else missing.push(e);
  }
  return {
    expected: expected.length,
    received: expected.length - missing.length - excused,
    dropped: excused,
    lost: missing.length,
    missing: missing.slice(0, 10).map((m) => `${m.providerDeliveryId} ${m.eventType}`),
    lostAt: missing.map((m) => m.madeAt),
  };
}
