import type { Status } from '../model';
import { ref, TERMINAL } from '../spec';
import type { ConformanceTest, TestContext, TrackedDelivery } from '../test-api';
import { expectEnvelope, expectOkObject, gotText, isRecord } from './support/checks';
import { fieldAcceptedProblems } from './support/lifecycle-answers';
import {
  deliveryPath,
  judgeRace,
  readNow,
  rideAndCatch,
  unknownDeliveryId,
  type Caught,
} from './support/lifecycle-ride';
import { declaredUpdate, groupOutcome, showUpdate, updateProbes } from './support/lifecycle-updates';

/** "Update (PATCH /deliveries/{providerDeliveryId})", "Update delivery request" and "…response". */

const patch = (ctx: TestContext, delivery: TrackedDelivery, body: Record<string, unknown>) =>
  ctx.provider.call('PATCH', deliveryPath(delivery.providerDeliveryId), { body });

/** Fails unless the answer is 422 with the envelope or 200 with fieldAccepted[field] false. */
async function expectRefusal(ctx: TestContext, body: Record<string, unknown>, field: string, what: string) {
  const delivery = await ctx.createDelivery({ hold: true });
  const exchange = await patch(ctx, delivery, body);
  if (exchange.status === 422) {
    expectEnvelope(ctx, exchange, [422], what);
    return ctx.note(`${what}: 422 with the error envelope`);
  }
  const accepted =
    isRecord(exchange.json) && isRecord(exchange.json.fieldAccepted) ? exchange.json.fieldAccepted[field] : undefined;
  ctx.check(
    exchange.status === 200 && accepted === false,
    `${what}: expected 422 with the error envelope or 200 with fieldAccepted.${field} false, got ${gotText(ctx, exchange)}`,
  );
  ctx.note(`${what}: 200 with fieldAccepted.${field} false`);
}

const unknownUpdate: ConformanceTest = {
  id: 'SDP-UPDATE-01',
  capability: 'supportsUpdates',
  group: 'update',
  title: 'PATCH of an unknown delivery is 404 with the error envelope',
  spec: ref('update', '2'),
  async run(ctx: TestContext) {
    const exchange = await ctx.provider.call('PATCH', deliveryPath(unknownDeliveryId()), {
      body: { notes: 'sdp-conformance' },
    });
    expectEnvelope(ctx, exchange, [404], 'PATCH of a delivery id never issued');
  },
};

const onePerField: ConformanceTest = {
  id: 'SDP-UPDATE-02',
  capability: 'supportsUpdates',
  group: 'update',
  title: '`fieldAccepted` has exactly one boolean per submitted field',
  spec: ref('updateResponse'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    const body = {
      notes: 'sdp-conformance update',
      customerPhone: delivery.request.customerPhone,
      customerName: delivery.request.customerName,
    };
    const exchange = await patch(ctx, delivery, body);
    const answer = expectOkObject(ctx, exchange, 'PATCH of notes, customerPhone and customerName of a held delivery');
    const problems = fieldAcceptedProblems(answer, Object.keys(body));
    ctx.check(problems.length === 0, `PATCH of notes, customerPhone and customerName: ${problems.join('; ')}`);
    ctx.note(`fieldAccepted: ${JSON.stringify(answer.fieldAccepted)}`);
  },
};

const explicitNull: ConformanceTest = {
  id: 'SDP-UPDATE-03',
  capability: 'supportsUpdates',
  group: 'update',
  title: 'An explicit null leaves the field: PATCH {notes: null} is 200 with a boolean fieldAccepted.notes',
  spec: ref('update', '1'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    const exchange = await patch(ctx, delivery, { notes: null });
    const answer = expectOkObject(ctx, exchange, 'PATCH {notes: null} of a held delivery');
    const accepted = isRecord(answer.fieldAccepted) ? answer.fieldAccepted.notes : undefined;
    ctx.check(
      typeof accepted === 'boolean',
      `PATCH {notes: null}: expected a boolean fieldAccepted.notes, got ${JSON.stringify(accepted ?? null)}`,
    );
    ctx.note(`fieldAccepted.notes ${String(accepted)}`);
  },
};

const invalidValue: ConformanceTest = {
  id: 'SDP-UPDATE-04',
  capability: 'supportsUpdates',
  group: 'update',
  title: 'An invalid value (a customerPhone of 51 characters) is 422 or fieldAccepted false',
  spec: ref('update', '2'),
  run: (ctx: TestContext) =>
    expectRefusal(
      ctx,
      { customerPhone: '1'.repeat(51) },
      'customerPhone',
      'PATCH with a customerPhone of 51 characters',
    ),
};

const partialDropoff: ConformanceTest = {
  id: 'SDP-UPDATE-05',
  capability: 'supportsUpdates',
  group: 'update',
  title: 'Only one of the drop-off trio (dropoffLat alone) is 422 or fieldAccepted.dropoffLat false',
  spec: ref('updateRequest'),
  run: (ctx: TestContext) =>
    expectRefusal(ctx, { dropoffLat: ctx.declaration.area.dropoff.lat }, 'dropoffLat', 'PATCH with dropoffLat alone'),
};

/**
 * Sends every declared field group, one PATCH each, one after the other (as the platform would:
 * it sends no concurrent updates of a delivery), and checks each answer against the declaration.
 */
async function expectUpdatesAsDeclared(ctx: TestContext, caught: Caught): Promise<void> {
  const probes = updateProbes(ctx.declaration, caught.delivery.request);
  const exchanges = [];
  for (const probe of probes) exchanges.push(await patch(ctx, caught.delivery, probe.body));
  const after = await readNow(ctx, caught.delivery, 'the status read after the updates');
  for (const [i, probe] of probes.entries()) {
    const what = `PATCH of ${probe.group} read in ${caught.before.status}`;
    const answer = groupOutcome(exchanges[i]!, Object.keys(probe.body));
    if ('problem' in answer) ctx.fail(`${what}: ${answer.problem}, got ${gotText(ctx, exchanges[i]!)}`);
    const rule = {
      what,
      declared: declaredUpdate(ctx.declaration, probe.group),
      producedByRequest: [],
      show: showUpdate,
    };
    await judgeRace(ctx, caught, after, answer.outcome, rule);
  }
}

const perStatus: ConformanceTest = {
  id: 'SDP-UPDATE-06',
  capability: 'supportsUpdates',
  group: 'update',
  title:
    'Each declared field group is accepted exactly in the statuses declared (held, driver assigned, picked up, terminal)',
  spec: ref('update', '2'),
  async run(ctx: TestContext) {
    if (!ctx.declaration.updates || Object.keys(ctx.declaration.updates).length === 0)
      ctx.skip('the declaration gives no update rules');
    const held = await ctx.createDelivery({ hold: true });
    await held.waitForStatus(['provider_accepted'], 'provider_accepted (a held delivery)');
    await expectUpdatesAsDeclared(ctx, {
      delivery: held,
      before: await readNow(ctx, held, 'the status read of a held delivery'),
    });
    const early = await rideAndCatch(
      ctx,
      ['driver_assigned', 'arrived_at_pickup'],
      'driver_assigned or arrived_at_pickup',
    );
    await expectUpdatesAsDeclared(ctx, early);
    const ridden = early.delivery;
    const carrying: readonly Status[] = ['picked_up', 'on_the_way'];
    const seen = await ridden.waitForStatus([...carrying, ...TERMINAL], 'picked_up, on_the_way or the end');
    const before = await readNow(ctx, ridden, 'the status read before the updates');
    if (carrying.includes(before.status)) await expectUpdatesAsDeclared(ctx, { delivery: ridden, before });
    else
      ctx.note(
        `not caught in picked_up or on_the_way (seen ${seen}, then ${before.status}): that status was not checked`,
      );
    await ridden.waitForStatus(TERMINAL, 'a terminal status');
    await expectUpdatesAsDeclared(ctx, {
      delivery: ridden,
      before: await readNow(ctx, ridden, 'the status read of the ended delivery'),
    });
  },
};

export const UPDATE_TESTS: readonly ConformanceTest[] = [
  unknownUpdate,
  onePerField,
  explicitNull,
  invalidValue,
  partialDropoff,
  perStatus,
];
