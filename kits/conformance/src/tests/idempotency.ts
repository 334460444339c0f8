import { ref } from '../spec';
import type { ConformanceTest, TestContext } from '../test-api';
import { expectEnvelope } from './support/checks';
import {
  create,
  createAnswerProblem,
  expectAccepted,
  expectCreateAnswer,
  failOnProblems,
  send,
} from './support/requests-calls';
import { compatibleText, expectSameResult, sameResultProblem } from './support/requests-replay';

/** "Create delivery (POST /deliveries)", rules 2 to 4: replays return the original result, changed replays conflict. */

const CONCURRENT_CREATES = 20;

const identicalReplay: ConformanceTest = {
  id: 'SDP-IDEM-01',
  capability: 'core',
  group: 'idempotency',
  title: 'An identical replay returns the original result and identifiers',
  spec: ref('create', '2'),
  async run(ctx: TestContext) {
    const request = ctx.deliveryRequest({}, null);
    const original = expectAccepted(ctx, await create(ctx, request), 'the first create');
    const replay = expectCreateAnswer(ctx, await create(ctx, request), 'the identical replay');
    expectSameResult(ctx, original, replay, 'the identical replay');
  },
};

const compatibleReplay: ConformanceTest = {
  id: 'SDP-IDEM-02',
  capability: 'core',
  group: 'idempotency',
  title: 'A compatible replay (fields in another order, 23.50 for 23.5) returns the original result',
  spec: ref('create', '2'),
  async run(ctx: TestContext) {
    const request = ctx.deliveryRequest({ amount: 23.5 }, null);
    const original = expectAccepted(ctx, await create(ctx, request), 'the first create');
    const exchange = await send(ctx, 'POST', '/deliveries', { rawBody: compatibleText(request) });
    ctx.note('replayed as JSON text with the fields in reverse order and "amount":23.50');
    const replay = expectCreateAnswer(ctx, exchange, 'the compatible replay');
    expectSameResult(ctx, original, replay, 'the compatible replay');
  },
};

const changedPayload: ConformanceTest = {
  id: 'SDP-IDEM-03',
  capability: 'core',
  group: 'idempotency',
  title: 'A replay with a changed customerName is 409 with the error envelope',
  spec: ref('create', '3'),
  async run(ctx: TestContext) {
    const request = ctx.deliveryRequest({}, null);
    expectAccepted(ctx, await create(ctx, request), 'the first create');
    const changed = { ...request, customerName: `${String(request.customerName)} Changed` };
    expectEnvelope(ctx, await create(ctx, changed), [409], 'a replay with a changed customerName');
  },
};

const changedCallback: ConformanceTest = {
  id: 'SDP-IDEM-04',
  capability: 'core',
  group: 'idempotency',
  title: 'A replay with a changed webhook.url is 409 with the error envelope',
  spec: ref('create', '3'),
  async run(ctx: TestContext) {
    const request = ctx.deliveryRequest({}, ctx.callbacks.box('idem-04-original'));
    expectAccepted(ctx, await create(ctx, request), 'the first create');
    const other = ctx.callbacks.box('idem-04-other');
    expectEnvelope(
      ctx,
      await create(ctx, { ...request, webhook: { url: other.url } }),
      [409],
      'a replay with another webhook.url',
    );
  },
};

const concurrentCreates: ConformanceTest = {
  id: 'SDP-IDEM-05',
  capability: 'core',
  group: 'idempotency',
  title: '20 concurrent identical creates all answer 200 with the same providerDeliveryId',
  spec: ref('create', '2, 4'),
  // Room for the waits a rate limit asks for (Retry-After, up to 30 s).
  timeoutMs: 180_000,
  async run(ctx: TestContext) {
    const request = ctx.deliveryRequest({}, null);
    const exchanges = await Promise.all(Array.from({ length: CONCURRENT_CREATES }, () => create(ctx, request)));
    failOnProblems(
      ctx,
      exchanges.map((exchange, i) => createAnswerProblem(ctx, exchange, `create #${i + 1}`)),
      'concurrent identical creates were not answered 200 with the create response',
    );
    const ids = new Set(
      exchanges.map((exchange) => (exchange.json as { providerDeliveryId?: unknown }).providerDeliveryId),
    );
    const accepted = new Set(exchanges.map((exchange) => (exchange.json as { accepted?: unknown }).accepted));
    ctx.check(
      accepted.size === 1 && accepted.has(true),
      `expected ${CONCURRENT_CREATES} answers with accepted true, got accepted ${[...accepted].join(' and ')}`,
    );
    ctx.check(
      ids.size === 1,
      `expected one providerDeliveryId in ${CONCURRENT_CREATES} concurrent identical creates, got ${ids.size}: ${[...ids].join(', ')}`,
    );
  },
};

const replayWithoutWebhook: ConformanceTest = {
  id: 'SDP-IDEM-06',
  capability: 'core',
  group: 'idempotency',
  title: 'A replay without webhook returns the original result and keeps the original callback',
  spec: ref('create', '3'),
  // The wait for the event is bounded by the declaration's lifecycle timeout; this is only an outer bound.
  timeoutMs: 11 * 60_000,
  async run(ctx: TestContext) {
    const box = ctx.callbacks.box('idem-06-original');
    const request = ctx.deliveryRequest({}, box);
    const original = expectAccepted(ctx, await create(ctx, request), 'the first create');
    const replayedAt = Date.now();
    const replay = expectCreateAnswer(
      ctx,
      await create(ctx, { ...request, webhook: undefined }),
      'the replay without webhook',
    );
    expectSameResult(ctx, original, replay, 'the replay without webhook');
    if (ctx.declaration.capabilities.supportsWebhooks !== true) {
      ctx.note('supportsWebhooks is not declared: only the answer was checked');
      return;
    }
    await box.waitFor(
      'an event at the original callback after the replay without webhook',
      (events) =>
        events.some(
          (e) => e.callback.receivedAt >= replayedAt && e.event?.platformReference === request.platformReference,
        ),
      Math.min(ctx.lifecycleTimeoutMs, 10 * 60_000),
    );
  },
};

const replayedRejection: ConformanceTest = {
  id: 'SDP-IDEM-07',
  capability: 'core',
  group: 'idempotency',
  title: 'A replay of a business rejection returns the same rejection',
  spec: ref('create', '2'),
  async run(ctx: TestContext) {
    const outside = ctx.declaration.area.outside;
    if (outside === undefined) ctx.skip('the declaration names no point outside the area (area.outside)');
    const request = ctx.deliveryRequest(
      { dropoffLat: outside.lat, dropoffLng: outside.lng, dropoffAddress: outside.address },
      null,
    );
    const original = expectCreateAnswer(
      ctx,
      await create(ctx, request),
      'the first create (drop-off outside the area)',
    );
    ctx.check(
      !original.accepted,
      'the first create (drop-off outside the area): expected accepted false, got accepted true',
    );
    const replay = expectCreateAnswer(ctx, await create(ctx, request), 'the replay of the rejection');
    ctx.check(!replay.accepted, 'the replay of the rejection: expected accepted false, got accepted true');
    ctx.check(
      replay.rejectionReason === original.rejectionReason,
      `the replay of the rejection: expected rejectionReason ${JSON.stringify(original.rejectionReason)}, got ${JSON.stringify(replay.rejectionReason)}`,
    );
    const idProblem = sameResultProblem(original, replay, 'the replay of the rejection');
    if (idProblem !== undefined) ctx.note(idProblem);
  },
};

export const IDEMPOTENCY_TESTS: readonly ConformanceTest[] = [
  identicalReplay,
  compatibleReplay,
  changedPayload,
  changedCallback,
  concurrentCreates,
  replayWithoutWebhook,
  replayedRejection,
];
