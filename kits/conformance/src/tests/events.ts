import { isTerminal, ref, TERMINAL } from '../spec';
import type { ReceivedCallback } from '../model';
import type { ConformanceTest, TestContext } from '../test-api';
import { distinctEvents, fieldText, lifecycleEvents, parsedCallbacks } from './support/lifecycle-events';
import {
  afterTerminalProblems,
  eventCoordinateProblems,
  eventTypeProblems,
  extraEventTypes,
  identifierProblems,
  requiredFieldProblems,
  retryOf,
  signatureProblems,
  tableProblems,
  transitionProblems,
  vocabularyProblems,
  type DeliveryCallbacks,
} from './support/lifecycle-event-checks';

/** "Events", "Webhook event (flat JSON)", "Authentication" (signatures), "States and transitions": the callbacks of every delivery. */

const SHOWN = 5;
const RETRY_FAILURE = 503;

/** The callbacks of each delivery of the run that has a callback box (the webhook test's box is none of them). */
const runDeliveries = (ctx: TestContext): DeliveryCallbacks[] =>
  ctx.allDeliveries().flatMap((d) =>
    d.callback
      ? [
          {
            platformReference: d.platformReference,
            providerDeliveryId: d.providerDeliveryId,
            events: d.callback.events(),
          },
        ]
      : [],
  );

/** Runs a per-delivery check over the run; fails listing the first problems. */
function expectNoProblems(ctx: TestContext, what: string, check: (d: DeliveryCallbacks) => string[]): void {
  const deliveries = runDeliveries(ctx);
  const problems = deliveries.flatMap(check);
  const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
  ctx.check(
    problems.length === 0,
    `${what}: ${problems.length} problem(s): ${problems.slice(0, SHOWN).join('; ')}${more}`,
  );
  const callbacks = deliveries.reduce((n, d) => n + d.events.length, 0);
  ctx.note(`${callbacks} callback(s) of ${deliveries.length} deliveries looked at`);
}

const afterTest = (
  id: string,
  title: string,
  spec: ConformanceTest['spec'],
  run: (ctx: TestContext) => void,
): ConformanceTest => ({
  id,
  capability: 'supportsWebhooks',
  group: 'events',
  title,
  spec,
  phase: 'after',
  run: async (ctx) => run(ctx),
});

const signatures = afterTest(
  'SDP-EVENTS-01',
  'Every delivery callback carries X-Platform-Signature: lowercase hex HMAC-SHA256 of its exact bytes with the webhook secret',
  ref('authentication'),
  (ctx) =>
    expectNoProblems(ctx, 'callbacks not signed right', (d) => signatureProblems(d, ctx.callbacks.webhookSecret)),
);

const eventTypes = afterTest(
  'SDP-EVENTS-02',
  'Every event has an eventType from the contract’s table or the declared extra types',
  ref('webhookEvent'),
  (ctx) =>
    expectNoProblems(ctx, 'events without a known eventType', (d) =>
      eventTypeProblems(d, extraEventTypes(ctx.declaration)),
    ),
);

const vocabulary = afterTest('SDP-EVENTS-03', 'Every event’s status is in the vocabulary', ref('states'), (ctx) =>
  expectNoProblems(ctx, 'events with a status outside the vocabulary', vocabularyProblems),
);

const identifiers = afterTest(
  'SDP-EVENTS-04',
  'Events echo platformReference and providerDeliveryId unchanged, each at its own delivery’s callback',
  ref('service'),
  (ctx) => expectNoProblems(ctx, 'events with other identifiers', identifierProblems),
);

const nothingAfterTerminal = afterTest(
  'SDP-EVENTS-05',
  'No nonterminal event arrives after a terminal one, per delivery',
  ref('events', '4'),
  (ctx) => expectNoProblems(ctx, 'nonterminal events after a terminal one', afterTerminalProblems),
);

/**
 * A held delivery stays nonterminal, so the provider has no terminal event that would rightly end
 * the retries of an earlier one (rule 4). The box fails the next request; when the accepted event
 * came before the box was told, a cancel makes one more (a terminal event's own retry is due).
 */
const retriesIdentical: ConformanceTest = {
  id: 'SDP-EVENTS-06',
  capability: 'supportsWebhooks',
  group: 'events',
  title: 'An event answered 503 is sent again byte for byte (eventTimeUtc unchanged)',
  spec: ref('events', '1, 2, 5'),
  async run(ctx: TestContext) {
    const canCancel = ctx.declaration.capabilities.supportsCancellation === true;
    const delivery = await ctx.createDelivery({ hold: canCancel });
    const box = delivery.callback ?? ctx.fail('the delivery was created without a callback box');
    box.failNext(1, RETRY_FAILURE);
    const found = () => retryOf(box.received(), RETRY_FAILURE);
    await ctx.waitUntil(
      'a first callback',
      () => (box.received().length > 0 ? true : undefined),
      ctx.lifecycleTimeoutMs,
      100,
    );
    if (!found().failed && canCancel) {
      ctx.note('the first event came before the box was told to fail: cancelling for one more');
      const path = `/deliveries/${encodeURIComponent(delivery.providerDeliveryId)}/cancel`;
      await ctx.provider.call('POST', path, { body: { stage: 'before_pickup' } });
    }
    await ctx.waitUntil(
      'a callback answered 503',
      () => (found().failed ? true : undefined),
      ctx.lifecycleTimeoutMs,
      100,
    );
    await expectRetry(ctx, () => box.received(), found);
  },
};

/** Waits for the retry of the request answered 503; fails naming what came instead. */
async function expectRetry(
  ctx: TestContext,
  received: () => ReceivedCallback[],
  found: () => ReturnType<typeof retryOf>,
) {
  const failed = found().failed!;
  const event = parsedCallbacks([failed])[0]!.event;
  const what = `${fieldText(event?.eventType, 'the event')} (${fieldText(event?.eventTimeUtc, 'no time')})`;
  const deadline = Date.now() + ctx.lifecycleTimeoutMs;
  while (!found().retry && Date.now() < deadline) await ctx.sleep(200);
  const retry = found().retry;
  if (!retry) {
    const later = parsedCallbacks(received().slice(received().indexOf(failed) + 1))
      .map((c) => `${fieldText(c.event?.eventType, '?')} (${fieldText(c.event?.eventTimeUtc, '?')})`)
      .join(', ');
    ctx.fail(
      `${what} was answered 503 and not sent again byte for byte within ${Math.round(ctx.lifecycleTimeoutMs / 1000)} s; later callbacks: ${later || 'none'}`,
    );
  }
  ctx.note(`${what}: answered 503, sent again with the same bytes ${retry.receivedAt - failed.receivedAt} ms later`);
}

const coordinates = afterTest(
  'SDP-EVENTS-07',
  'driverLat/driverLng are both null or both numbers in range',
  ref('webhookEvent'),
  (ctx) => expectNoProblems(ctx, 'events with unpaired or out-of-range coordinates', eventCoordinateProblems),
);

const tableRows = afterTest(
  'SDP-EVENTS-08',
  'Each event of the contract’s table carries its expected status and required data',
  ref('events'),
  (ctx) => expectNoProblems(ctx, 'table events without their status or data', tableProblems),
);

const requiredFields = afterTest(
  'SDP-EVENTS-09',
  'Events have platformReference, status and an RFC 3339 eventTimeUtc, a provider identifier (SHOULD) and the JSON media type',
  ref('webhookEvent'),
  (ctx) => {
    const notes = runDeliveries(ctx).flatMap((d) => requiredFieldProblems(d).notes);
    if (notes.length > 0)
      ctx.note(`SHOULD, not a failure: ${notes.length} event(s) without a provider identifier, e.g. ${notes[0]}`);
    expectNoProblems(ctx, 'events without their required fields', (d) => requiredFieldProblems(d).problems);
  },
);

const transitions = afterTest(
  'SDP-EVENTS-10',
  'Per delivery, the statuses of its events by eventTimeUtc, up to the first terminal one, follow the declared transitions',
  ref('states'),
  (ctx) => {
    const declared = ctx.declaration.transitions ?? ctx.skip('the declaration gives no transitions');
    ctx.note(
      'a status may be skipped (a move of several declared steps): only moves the declared transitions lead to pass',
    );
    expectNoProblems(ctx, 'event sequences against the declared transitions', (d) => transitionProblems(d, declared));
  },
);

const MAIN_EVENTS = ['delivery.accepted', 'driver.assigned', 'delivery.picked_up'];

const mainEvents: ConformanceTest = {
  id: 'SDP-EVENTS-11',
  capability: 'supportsWebhooks',
  group: 'events',
  title:
    'A delivery ridden to its end sends delivery.accepted, driver.assigned, delivery.picked_up and a terminal event',
  spec: ref('events'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery();
    const box = delivery.callback ?? ctx.fail('the delivery was created without a callback box');
    const end = await delivery.waitForStatus(TERMINAL, 'a terminal status');
    await box.waitFor('a terminal event', (events) => lifecycleEvents(events).some((e) => isTerminal(e.status)));
    const types = distinctEvents(box.events()).map(({ event }) => fieldText(event?.eventType, '?'));
    const missing = MAIN_EVENTS.filter((t) => !types.includes(t));
    ctx.check(
      missing.length === 0,
      `a delivery ridden to ${end}: missing ${missing.join(', ')} among its events (${types.join(', ')})`,
    );
    ctx.note(`ridden to ${end}: ${types.join(', ')}`);
  },
};

export const EVENTS_TESTS: readonly ConformanceTest[] = [
  signatures,
  eventTypes,
  vocabulary,
  identifiers,
  nothingAfterTerminal,
  retriesIdentical,
  coordinates,
  tableRows,
  requiredFields,
  transitions,
  mainEvents,
];
