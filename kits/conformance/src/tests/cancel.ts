import type { CancelStage, Outcome, Status } from '../model';
import { ref, TERMINAL } from '../spec';
import type { ConformanceTest, TestContext, TrackedDelivery } from '../test-api';
import { expectEnvelope, gotText } from './support/checks';
import { outcomeOf } from './support/lifecycle-answers';
import { distinctEvents } from './support/lifecycle-events';
import {
  deliveryPath,
  expectRacedOutcome,
  readNow,
  rideAndCatch,
  unknownDeliveryId,
  type Caught,
  type RaceRule,
} from './support/lifecycle-ride';
import { CARRYING, reachable } from './support/lifecycle-statuses';

/** "Cancel and return", "Cancellation and return", "States and transitions": POST …/cancel. */

const QUIET_MS = 5_000;

const cancel = (ctx: TestContext, delivery: TrackedDelivery, stage: CancelStage) =>
  ctx.provider.call('POST', deliveryPath(delivery.providerDeliveryId, '/cancel'), { body: { stage } });

const cancelRule = (ctx: TestContext, stage: CancelStage, where: string): RaceRule => ({
  what: `cancel ${stage} of a delivery read in ${where}`,
  declared: (status) => ctx.declaration.cancellation?.[status]?.[stage],
  producedByRequest: ['cancelled'],
});

const cancelledEvents = (delivery: TrackedDelivery) =>
  distinctEvents(delivery.callback?.events() ?? []).filter((e) => e.event?.eventType === 'delivery.cancelled');

/** Cancels a caught delivery and checks the answer as declared; a confirmation must lead to `cancelled`. */
async function cancelCaught(
  ctx: TestContext,
  caught: Caught,
  stage: CancelStage,
): Promise<{ outcome: Outcome; after: Status }> {
  const exchange = await cancel(ctx, caught.delivery, stage);
  const { outcome, after } = await expectRacedOutcome(
    ctx,
    caught,
    exchange,
    'confirmed',
    cancelRule(ctx, stage, caught.before.status),
  );
  if (outcome === 'confirmed' && after.status !== 'cancelled')
    await caught.delivery.waitForStatus(['cancelled'], 'cancelled after a confirmed cancel');
  return { outcome, after: after.status };
}

const unknownCancel: ConformanceTest = {
  id: 'SDP-CANCEL-01',
  capability: 'supportsCancellation',
  group: 'cancel',
  title: 'Cancel of an unknown delivery is 404 with the error envelope',
  spec: ref('cancelReturn'),
  async run(ctx: TestContext) {
    const exchange = await ctx.provider.call('POST', deliveryPath(unknownDeliveryId(), '/cancel'), {
      body: { stage: 'before_pickup' },
    });
    expectEnvelope(ctx, exchange, [404], 'cancel of a delivery id never issued');
  },
};

const badStage: ConformanceTest = {
  id: 'SDP-CANCEL-02',
  capability: 'supportsCancellation',
  group: 'cancel',
  title: 'A cancel whose stage is not before_pickup or after_pickup (or missing) is 400 or 422 with the error envelope',
  spec: ref('cancellationAndReturn'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    const path = deliveryPath(delivery.providerDeliveryId, '/cancel');
    const later = await ctx.provider.call('POST', path, { body: { stage: 'later' } });
    const none = await ctx.provider.call('POST', path, { body: {} });
    expectEnvelope(ctx, later, [400, 422], 'cancel with stage "later"');
    expectEnvelope(ctx, none, [400, 422], 'cancel without a stage');
  },
};

const cancelHeld: ConformanceTest = {
  id: 'SDP-CANCEL-03',
  capability: 'supportsCancellation',
  group: 'cancel',
  title:
    'Cancel before_pickup of a held delivery is as declared; confirmed, it becomes cancelled and sends delivery.cancelled',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    const caught = { delivery, before: await readNow(ctx, delivery, 'the status read before the cancel') };
    const { outcome } = await cancelCaught(ctx, caught, 'before_pickup');
    if (outcome !== 'confirmed') return;
    if (!ctx.declaration.capabilities.supportsWebhooks || !delivery.callback)
      return ctx.note('no webhooks: the event was not checked');
    await delivery.callback.waitFor('a delivery.cancelled event', () => cancelledEvents(delivery).length > 0);
    ctx.note('delivery.cancelled arrived');
  },
};

const cancelTwice: ConformanceTest = {
  id: 'SDP-CANCEL-04',
  capability: 'supportsCancellation',
  group: 'cancel',
  title: 'Repeating a cancellation gives the same answer and no second delivery.cancelled event',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    const first = outcomeOf(await cancel(ctx, delivery, 'before_pickup'), 'confirmed');
    if ('problem' in first) return ctx.fail(`the first cancel before_pickup of a held delivery: ${first.problem}`);
    const webhooks = ctx.declaration.capabilities.supportsWebhooks === true && delivery.callback !== null;
    if (first.outcome === 'confirmed' && webhooks)
      await delivery.callback!.waitFor(
        'a delivery.cancelled event after the first cancel',
        () => cancelledEvents(delivery).length > 0,
      );
    const repeatExchange = await cancel(ctx, delivery, 'before_pickup');
    const repeat = outcomeOf(repeatExchange, 'confirmed');
    if ('problem' in repeat)
      return ctx.fail(`the repeated cancel: ${repeat.problem}, got ${gotText(ctx, repeatExchange)}`);
    ctx.check(
      repeat.outcome === first.outcome,
      `the repeated cancel: expected the same answer as the first (${first.via}), got ${repeat.via}`,
    );
    if (!webhooks) return ctx.note(`both answers ${first.via}; no webhooks: events not checked`);
    await ctx.sleep(QUIET_MS);
    const events = cancelledEvents(delivery);
    ctx.check(
      events.length <= 1,
      `after a repeated cancel: expected one delivery.cancelled event (retries aside), got ${events.length} different ones`,
    );
    ctx.note(
      `both answers ${first.via}; ${events.length} delivery.cancelled event(s) after ${QUIET_MS / 1000} s of quiet`,
    );
  },
};

const afterPickupWhileCarrying: ConformanceTest = {
  id: 'SDP-CANCEL-05',
  capability: 'supportsCancellation',
  group: 'cancel',
  title: 'Cancel after_pickup of a delivery caught in picked_up or on_the_way is as declared',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const caught = await rideAndCatch(ctx, CARRYING, 'picked_up or on_the_way');
    await cancelCaught(ctx, caught, 'after_pickup');
  },
};

const beforePickupWhileCarrying: ConformanceTest = {
  id: 'SDP-CANCEL-06',
  capability: 'supportsCancellation',
  group: 'cancel',
  title:
    'Cancel before_pickup of a delivery caught in picked_up or on_the_way is as declared; refused, the status is unchanged',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const caught = await rideAndCatch(ctx, CARRYING, 'picked_up or on_the_way');
    const { outcome, after } = await cancelCaught(ctx, caught, 'before_pickup');
    if (outcome !== 'refused') return;
    const from = caught.before.status;
    const transitions = ctx.declaration.transitions;
    const moved =
      after !== from && (after === 'cancelled' || (transitions !== undefined && !reachable(transitions, from, after)));
    ctx.check(!moved, `a refused cancel: expected the status to stay ${from} (or move on as declared), got ${after}`);
    ctx.note(after === from ? `status still ${from}` : `status moved on by itself from ${from} to ${after}`);
  },
};

const cancelEnded: ConformanceTest = {
  id: 'SDP-CANCEL-07',
  capability: 'supportsCancellation',
  group: 'cancel',
  title: 'Cancel of a delivery in a terminal status is as declared and the status stays',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery();
    await delivery.waitForStatus(TERMINAL, 'a terminal status');
    const caught = { delivery, before: await readNow(ctx, delivery, 'the status read of the ended delivery') };
    for (const stage of ['before_pickup', 'after_pickup'] as const) {
      const exchange = await cancel(ctx, delivery, stage);
      const { after } = await expectRacedOutcome(
        ctx,
        caught,
        exchange,
        'confirmed',
        cancelRule(ctx, stage, caught.before.status),
      );
      ctx.check(
        after.status === caught.before.status,
        `cancel ${stage} of an ended delivery: expected the status to stay ${caught.before.status}, got ${after.status}`,
      );
    }
  },
};

const cancelWithDriver: ConformanceTest = {
  id: 'SDP-CANCEL-08',
  capability: 'supportsCancellation',
  group: 'cancel',
  title: 'Cancel of a delivery caught in driver_assigned (or arrived_at_pickup) is as declared',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const caught = await rideAndCatch(
      ctx,
      ['driver_assigned', 'arrived_at_pickup'],
      'driver_assigned or arrived_at_pickup',
    );
    await cancelCaught(ctx, caught, 'before_pickup');
  },
};

export const CANCEL_TESTS: readonly ConformanceTest[] = [
  unknownCancel,
  badStage,
  cancelHeld,
  cancelTwice,
  afterPickupWhileCarrying,
  beforePickupWhileCarrying,
  cancelEnded,
  cancelWithDriver,
];
