import type { Status } from '../model';
import { isRfc3339, isStatus, isTerminal, ref } from '../spec';
import type { ConformanceTest, TestContext } from '../test-api';
import { expectEnvelope, expectOkObject, gotText } from './support/checks';
import { lifecycleEvents, showEvent } from './support/lifecycle-events';
import { staleReadProblem } from './support/lifecycle-freshness';
import { deliveryPath, readNow, unknownDeliveryId } from './support/lifecycle-ride';
import { sequenceProblems, showSequence } from './support/lifecycle-statuses';

/** "Status and tracking (GET)", "Status response", "States and transitions": GET …/status. */

const unknownStatus: ConformanceTest = {
  id: 'SDP-STATUS-01',
  capability: 'supportsPolling',
  group: 'status',
  title: 'The status of an unknown delivery is 404 with the error envelope',
  spec: ref('statusTracking'),
  async run(ctx: TestContext) {
    const exchange = await ctx.provider.call('GET', deliveryPath(unknownDeliveryId(), '/status'));
    expectEnvelope(ctx, exchange, [404], 'GET …/status of a delivery id never issued');
  },
};

const statusShape: ConformanceTest = {
  id: 'SDP-STATUS-02',
  capability: 'supportsPolling',
  group: 'status',
  title: 'A new delivery’s status read is 200 with a status of the vocabulary and an RFC 3339 eventTimeUtc',
  spec: ref('statusResponse'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    const { exchange } = await delivery.readStatus();
    const body = expectOkObject(ctx, exchange, 'the status read of a new delivery');
    ctx.check(
      isStatus(body.status),
      `the status read of a new delivery: expected a status of the vocabulary, got ${JSON.stringify(body.status)}`,
    );
    ctx.check(
      isRfc3339(body.eventTimeUtc),
      `the status read of a new delivery: expected eventTimeUtc as RFC 3339 with an offset, got ${JSON.stringify(body.eventTimeUtc)}`,
    );
    ctx.note(`status ${body.status} at ${String(body.eventTimeUtc)}`);
  },
};

const neverOlderThanEvents: ConformanceTest = {
  id: 'SDP-STATUS-03',
  capability: 'supportsPolling',
  group: 'status',
  title: 'A status read after each event of a delivery is never older than that event',
  spec: ref('statusTracking'),
  async run(ctx: TestContext) {
    if (!ctx.declaration.capabilities.supportsWebhooks)
      ctx.skip('needs supportsWebhooks: events to compare the status reads with');
    const delivery = await ctx.createDelivery();
    const box = delivery.callback ?? ctx.fail('the delivery was created without a callback box');
    let checked = 0;
    await ctx.waitUntil(
      'a terminal event, each event followed by a status read',
      async () => {
        const events = lifecycleEvents(box.events());
        while (checked < events.length) {
          const event = events[checked++]!;
          const read = await readNow(ctx, delivery, `the status read after ${showEvent(event)}`);
          const problem = staleReadProblem(event, read, ctx.declaration.transitions);
          ctx.check(problem === undefined, problem ?? '');
          if (isTerminal(event.status)) return true;
        }
        return undefined;
      },
      ctx.lifecycleTimeoutMs,
      100,
    );
    ctx.note(`${checked} event(s), each followed by a status read that was not older`);
  },
};

const pollingToTheEnd: ConformanceTest = {
  id: 'SDP-STATUS-04',
  capability: 'supportsPolling',
  group: 'status',
  title: 'Polling a delivery to its end: every status in the vocabulary, moves as declared, a terminal status reached',
  spec: ref('states'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery();
    const seen: Status[] = [];
    await ctx.waitUntil(
      'a terminal status by polling',
      async () => {
        const read = await delivery.readStatus();
        const raw = (read.exchange.json as { status?: unknown } | undefined)?.status;
        ctx.check(
          read.status !== null,
          `a status read while polling (after ${showSequence(seen)}): expected 200 with a status of the vocabulary, got ${raw === undefined ? gotText(ctx, read.exchange) : JSON.stringify(raw)}`,
        );
        seen.push(read.status);
        return isTerminal(read.status) ? true : undefined;
      },
      ctx.lifecycleTimeoutMs,
      250,
    );
    const problems = sequenceProblems(seen, ctx.declaration.transitions);
    ctx.check(problems.length === 0, `polled ${showSequence(seen)}: ${problems.join('; ')}`);
    ctx.note(
      `polled ${showSequence(seen)}${ctx.declaration.transitions ? '' : ' (no transitions declared: only the terminal end checked)'}`,
    );
  },
};

export const STATUS_TESTS: readonly ConformanceTest[] = [
  unknownStatus,
  statusShape,
  neverOlderThanEvents,
  pollingToTheEnd,
];
