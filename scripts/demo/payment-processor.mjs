#!/usr/bin/env node
// `npm run demo:pay -- --order ORDER_ID [--fixture FILE] [--event-id ID] [--amount-minor N]`
//
// A simulated payment processor: the demo restaurant's card terminal took the order's payment, and
// its processor tells the marketplace, as a real one would, with a notification signed by the
// tenant's processor secret (the seed's fixture holds it, and where to send it). The amount is the
// order's grand total (read through the tenant API, as the terminal would have been told it), in
// minor units, unless --amount-minor says otherwise. Prints the marketplace's answer: `confirmed`
// the first time (the order is Paid and the partners subscribed get `payment.completed`),
// `already_confirmed` for another capture of the same order. Each run is a new notification (an
// --event-id used before, with this run's new payment reference, is refused as a conflict). Exits 1
// on a refusal.
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { root } from '../services.mjs';

// The platform's own rule for minor units (built by npm start, which the demo runs against).
const { currencyDecimals, toMinorUnits } = createRequire(join(root, 'package.json'))(
  join(root, 'shared/money/dist/index.js'),
);

const TIMEOUT_MS = 15_000;

const { values } = parseArgs({
  options: {
    order: { type: 'string' },
    fixture: { type: 'string', default: '.demo/fixture.json' },
    'event-id': { type: 'string' },
    'amount-minor': { type: 'string' },
  },
});
if (!values.order) {
  console.error('usage: npm run demo:pay -- --order ORDER_ID [--fixture FILE] [--event-id ID] [--amount-minor N]');
  process.exit(2);
}
const fixture = JSON.parse(readFileSync(values.fixture, 'utf8'));
if (!fixture.paymentProcessor) {
  console.error(`${values.fixture} has no paymentProcessor: run npm run demo:seed again`);
  process.exit(2);
}

const orderResponse = await fetch(`${fixture.tenantApi.baseUrl}/orders/${values.order}`, {
  headers: { authorization: `Bearer ${fixture.tenantApi.token}` },
  signal: AbortSignal.timeout(TIMEOUT_MS),
});
const order = await orderResponse.json();
if (!orderResponse.ok) {
  console.error(`GET order -> ${orderResponse.status} ${order.code ?? ''}`);
  process.exit(1);
}
const body = JSON.stringify({
  eventId: values['event-id'] ?? `evt_demo_${randomUUID()}`,
  type: 'payment.succeeded',
  orderId: values.order,
  amountMinor:
    values['amount-minor'] !== undefined
      ? Number(values['amount-minor'])
      : toMinorUnits(order.grandTotal, currencyDecimals(order.currencyCode)),
  currencyCode: order.currencyCode,
  paymentReference: `demo_pay_${randomUUID().slice(0, 12)}`,
  occurredAt: new Date().toISOString(),
});
const timestamp = String(Math.floor(Date.now() / 1000));
const signature = createHmac('sha256', fixture.paymentProcessor.secret).update(`${timestamp}.${body}`).digest('hex');
const response = await fetch(fixture.paymentProcessor.notificationUrl, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'x-processor-timestamp': timestamp,
    'x-processor-signature': signature,
  },
  body,
  signal: AbortSignal.timeout(TIMEOUT_MS),
});
const answer = await response.json();
if (!response.ok) {
  console.error(`payment notification -> ${response.status} ${answer.code ?? ''}: ${answer.detail ?? ''}`);
  process.exit(1);
}
console.log(answer.result);
