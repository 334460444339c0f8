import type { Status } from '../model';
import { isTerminal, ref } from '../spec';
import type { ConformanceTest, TestContext, TrackedDelivery } from '../test-api';
import { expectEnvelope, gotText } from './support/checks';
import { outcomeOf } from './support/lifecycle-answers';
import { byEventTime, lifecycleEvents } from './support/lifecycle-events';
import {
  deliveryPath,
  expectRacedOutcome,
  readNow,
  rideAndCatch,
  unknownDeliveryId,
  type Caught,
  type RaceRule,
} from './support/lifecycle-ride';
import { CARRYING, RETURN_STATUSES, returnPathProblem, showSequence } from './support/lifecycle-statuses';

/** "Cancel and return", "Cancellation and return", "States and transitions": POST …/return. */

const REASON = { reasonCode: 'customer_unreachable' };
const RETURN_EVENTS_WAIT_MS = 30_000;

const requestReturn = (ctx: TestContext, delivery: TrackedDelivery, body: Record<string, unknown> = REASON) =>
  ctx.provider.call('POST', deliveryPath(delivery.providerDeliveryId, '/return'), { body });

const returnRule = (ctx: TestContext, where: string): RaceRule => ({
  what: `return of a delivery read in ${where}`,
  declared: (status) => ctx.declaration.returns?.[status],
  producedByRequest: RETURN_STATUSES,
  show: (outcome) => (outcome === 'confirmed' ? 'accepted' : 'refused'),
});

const returnCaught = async (ctx: TestContext, caught: Caught) =>
  expectRacedOutcome(
    ctx,
    caught,
    await requestReturn(ctx, caught.delivery),
    'accepted',
    returnRule(ctx, caught.before.status),
  );

const unknownReturn: ConformanceTest = {
  id: 'SDP-RETURN-01',
  capability: 'supportsReturnToOrigin',
  group: 'return',
  title: 'Return of an unknown delivery is 404 with the error envelope',
  spec: ref('cancelReturn'),
  async run(ctx: TestContext) {
    const exchange = await ctx.provider.call('POST', deliveryPath(unknownDeliveryId(), '/return'), { body: REASON });
    expectEnvelope(ctx, exchange, [404], 'return of a delivery id never issued');
  },
};

const returnHeld: ConformanceTest = {
  id: 'SDP-RETURN-02',
  capability: 'supportsReturnToOrigin',
  group: 'return',
  title: 'Return of a held delivery (before pickup) is as declared',
  spec: ref('cancelReturn'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    await returnCaught(ctx, { delivery, before: await readNow(ctx, delivery, 'the status read before the return') });
  },
};

const returnFlow: ConformanceTest = {
  id: 'SDP-RETURN-03',
  capability: 'supportsReturnToOrigin',
  group: 'return',
  title:
    'A return of a delivery caught in picked_up or on_the_way is as declared; accepted, it ends in returned_to_origin or return_failed',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const caught = await rideAndCatch(ctx, CARRYING, 'picked_up or on_the_way');
    const { outcome, after } = await returnCaught(ctx, caught);
    if (outcome !== 'confirmed') return;
    const polled: Status[] = [after.status];
    await ctx.waitUntil(
      'the end of the return (returned_to_origin or return_failed)',
      async () => {
        const read = await readNow(ctx, caught.delivery, 'a status read during the return');
        polled.push(read.status);
        return isTerminal(read.status) ? true : undefined;
      },
      ctx.lifecycleTimeoutMs,
      300,
    );
    const problem = returnPathProblem(polled);
    ctx.check(problem === undefined, `polled ${problem ?? ''}`);
    ctx.note(`polled ${showSequence(polled)}`);
    const box = caught.delivery.callback;
    if (!ctx.declaration.capabilities.supportsWebhooks || !box) return;
    // The contract's table has no return events: a provider may send none (the platform polls), so the wait is short.
    const ended = () => lifecycleEvents(box.events()).some((e) => isTerminal(e.status));
    for (const deadline = Date.now() + RETURN_EVENTS_WAIT_MS; !ended() && Date.now() < deadline;) await ctx.sleep(200);
    const events = byEventTime(lifecycleEvents(box.events()));
    const start = events.findIndex((e) => RETURN_STATUSES.includes(e.status));
    if (start === -1)
      return ctx.note('no event of the return arrived (the contract’s table has none): events not checked');
    const fromReturn = events.slice(start).map((e) => e.status);
    const eventProblem = returnPathProblem(fromReturn);
    ctx.check(eventProblem === undefined, `events (by time, from the first of the return) ${eventProblem ?? ''}`);
    ctx.note(`events from the return: ${showSequence(fromReturn)}`);
  },
};

const returnTwice: ConformanceTest = {
  id: 'SDP-RETURN-04',
  capability: 'supportsReturnToOrigin',
  group: 'return',
  title: 'Repeating a return gives the same answer',
  spec: ref('cancellationAndReturn'),
  async run(ctx: TestContext) {
    const caught = await rideAndCatch(ctx, CARRYING, 'picked_up or on_the_way');
    const firstExchange = await requestReturn(ctx, caught.delivery);
    const repeatExchange = await requestReturn(ctx, caught.delivery);
    const first = outcomeOf(firstExchange, 'accepted');
    const repeat = outcomeOf(repeatExchange, 'accepted');
    if ('problem' in first) return ctx.fail(`the first return: ${first.problem}, got ${gotText(ctx, firstExchange)}`);
    if ('problem' in repeat)
      return ctx.fail(`the repeated return: ${repeat.problem}, got ${gotText(ctx, repeatExchange)}`);
    ctx.check(
      repeat.outcome === first.outcome,
      `the repeated return: expected the same answer as the first (${first.via}), got ${repeat.via}`,
    );
    ctx.note(`read in ${caught.before.status}; both answers ${first.via}`);
  },
};

const returnWithoutReason: ConformanceTest = {
  id: 'SDP-RETURN-05',
  capability: 'supportsReturnToOrigin',
  group: 'return',
  title: 'A return without reasonCode is 400 or 422 with the error envelope',
  spec: ref('cancellationAndReturn'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    expectEnvelope(ctx, await requestReturn(ctx, delivery, {}), [400, 422], 'a return without reasonCode');
  },
};

export const RETURN_TESTS: readonly ConformanceTest[] = [
  unknownReturn,
  returnHeld,
  returnFlow,
  returnTwice,
  returnWithoutReason,
];
