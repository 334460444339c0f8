import { REQUIRED_CREATE_FIELDS, ref } from '../spec';
import type { ConformanceTest, TestContext } from '../test-api';
import { envelopeMismatch, gotText } from './support/checks';
import { create, createAnswerProblem, eachLimited, expectCreateAnswer, failOnProblems } from './support/requests-calls';
import { atLimitCases, badCallbackCases, brokenLimitCases, type RequestCase } from './support/requests-cases';

/** "Create delivery (POST /deliveries)": success, validation of the field table, callback rules, business rejection. */

const CONCURRENCY = 4;
/** Tests of many requests: room for the waits a rate limit asks for (Retry-After, up to 30 s). */
const MANY_REQUESTS_TIMEOUT_MS = 180_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Sends each case (a valid request with its overrides) and fails naming every answer that is not a 400 or 422 envelope. */
async function expectAllRefused(
  ctx: TestContext,
  cases: readonly RequestCase[],
  statuses: readonly number[],
  what: string,
): Promise<void> {
  const problems = await eachLimited(cases, CONCURRENCY, async (c) =>
    envelopeMismatch(ctx, await create(ctx, ctx.deliveryRequest(c.overrides, null)), statuses, c.what),
  );
  ctx.note(`${cases.length} requests sent, one per case`);
  failOnProblems(ctx, problems, what);
}

const validCreate: ConformanceTest = {
  id: 'SDP-CREATE-01',
  capability: 'core',
  group: 'create',
  title: 'A valid create is 200 with accepted true and a non-blank providerDeliveryId',
  spec: ref('createResponse'),
  async run(ctx: TestContext) {
    const exchange = await create(ctx, ctx.deliveryRequest({}, ctx.callbacks.box('create-01')));
    const answer = expectCreateAnswer(ctx, exchange, 'a valid create');
    ctx.check(
      answer.accepted,
      `a valid create: expected accepted true, got accepted false (rejectionReason: ${answer.rejectionReason ?? 'none'})`,
    );
  },
};

const requiredFields: ConformanceTest = {
  id: 'SDP-CREATE-02',
  capability: 'core',
  group: 'create',
  title: 'A create without one of the required fields is 400 or 422 with the error envelope',
  spec: ref('create', '5'),
  timeoutMs: MANY_REQUESTS_TIMEOUT_MS,
  async run(ctx: TestContext) {
    const cases = REQUIRED_CREATE_FIELDS.map((field) => ({
      what: `without ${field}`,
      overrides: { [field]: undefined },
    }));
    await expectAllRefused(
      ctx,
      cases,
      [400, 422],
      'creates without a required field were not refused with 400 or 422 and the envelope',
    );
  },
};

const brokenLimits: ConformanceTest = {
  id: 'SDP-CREATE-03',
  capability: 'core',
  group: 'create',
  title: 'A create breaking a limit of the field table is 400 or 422 with the error envelope',
  spec: ref('create', '5'),
  timeoutMs: MANY_REQUESTS_TIMEOUT_MS,
  async run(ctx: TestContext) {
    await expectAllRefused(
      ctx,
      brokenLimitCases(),
      [400, 422],
      'creates breaking a limit were not refused with 400 or 422 and the envelope',
    );
  },
};

const atLimits: ConformanceTest = {
  id: 'SDP-CREATE-04',
  capability: 'core',
  group: 'create',
  title: 'A create with values exactly at the limits is 200 (accepted true or false), never 4xx or 5xx',
  spec: ref('create', '5'),
  timeoutMs: MANY_REQUESTS_TIMEOUT_MS,
  async run(ctx: TestContext) {
    const cases = atLimitCases();
    const problems = await eachLimited(cases, CONCURRENCY, async (c) => {
      const exchange = await create(ctx, ctx.deliveryRequest(c.overrides, null));
      const problem = createAnswerProblem(ctx, exchange, c.what);
      // A business rejection is the provider's right; only a refusal of the request's form breaks rule 5.
      if (problem === undefined && (exchange.json as { accepted?: unknown }).accepted === false)
        ctx.note(`${c.what}: 200 accepted false (a business rejection)`);
      return problem;
    });
    failOnProblems(ctx, problems, 'creates at the limits were not answered 200 with the create response');
  },
};

const callbackRules: ConformanceTest = {
  id: 'SDP-CREATE-05',
  capability: 'core',
  group: 'create',
  title:
    'A callback URL that is not absolute https, has credentials or a fragment, or is over 2,048 characters is refused',
  spec: ref('callback'),
  timeoutMs: MANY_REQUESTS_TIMEOUT_MS,
  async run(ctx: TestContext) {
    await expectAllRefused(
      ctx,
      badCallbackCases(),
      [400, 422],
      'bad callback URLs were not refused with 400 or 422 and the envelope',
    );
  },
};

const businessRejection: ConformanceTest = {
  id: 'SDP-CREATE-06',
  capability: 'core',
  group: 'create',
  title: 'A drop-off outside the area is a business rejection: 200, accepted false, a rejectionReason',
  spec: ref('create', '1'),
  async run(ctx: TestContext) {
    const outside = ctx.declaration.area.outside;
    if (outside === undefined) ctx.skip('the declaration names no point outside the area (area.outside)');
    const request = ctx.deliveryRequest(
      { dropoffLat: outside.lat, dropoffLng: outside.lng, dropoffAddress: outside.address },
      null,
    );
    const answer = expectCreateAnswer(ctx, await create(ctx, request), 'a create with the drop-off outside the area');
    ctx.check(
      !answer.accepted,
      'a create with the drop-off outside the area: expected accepted false, got accepted true',
    );
    ctx.check(
      typeof answer.rejectionReason === 'string',
      'a create with the drop-off outside the area: expected a rejectionReason string, got none',
    );
  },
};

const scheduledWithoutCapability: ConformanceTest = {
  id: 'SDP-CREATE-07',
  capability: 'core',
  group: 'create',
  title: 'Without supportsScheduledDelivery, a create with a future scheduledDeliveryAtUtc is refused',
  spec: ref('createRequest'),
  async run(ctx: TestContext) {
    if (ctx.declaration.capabilities.supportsScheduledDelivery === true)
      ctx.skip('supportsScheduledDelivery is declared (SDP-SCHEDULED-01 applies)');
    const scheduledDeliveryAtUtc = new Date(Date.now() + DAY_MS).toISOString();
    const exchange = await create(ctx, ctx.deliveryRequest({ scheduledDeliveryAtUtc }, null));
    const what = 'a scheduled create without the scheduled-delivery capability';
    if (exchange.status === 422) {
      const mismatch = envelopeMismatch(ctx, exchange, [422], what);
      ctx.check(mismatch === undefined, mismatch ?? '');
      return;
    }
    const problem = createAnswerProblem(ctx, exchange, what);
    ctx.check(
      problem === undefined,
      `${what}: expected 200 accepted false or 422 with the error envelope, got ${gotText(ctx, exchange)}`,
    );
    ctx.check(
      (exchange.json as { accepted: boolean }).accepted === false,
      `${what}: expected 200 accepted false or 422 with the error envelope, got 200 accepted true`,
    );
  },
};

const noProofOfDelivery: ConformanceTest = {
  id: 'SDP-CREATE-08',
  capability: 'core',
  group: 'create',
  title: 'The declaration claims supportsProofOfDelivery false (it MUST remain false in this revision)',
  spec: ref('service'),
  async run(ctx: TestContext) {
    const claimed = ctx.declaration.capabilities.supportsProofOfDelivery;
    ctx.check(claimed !== true, 'expected supportsProofOfDelivery false in the declaration, got true');
    if (claimed === undefined) ctx.note('supportsProofOfDelivery is not named in the declaration: not claimed');
  },
};

const scheduled: ConformanceTest = {
  id: 'SDP-SCHEDULED-01',
  capability: 'supportsScheduledDelivery',
  group: 'scheduled',
  title: 'A create with scheduledDeliveryAtUtc one day ahead is 200 with accepted true',
  spec: ref('createRequest'),
  async run(ctx: TestContext) {
    const scheduledDeliveryAtUtc = new Date(Date.now() + DAY_MS).toISOString();
    const answer = expectCreateAnswer(
      ctx,
      await create(ctx, ctx.deliveryRequest({ scheduledDeliveryAtUtc }, null)),
      'a create scheduled one day ahead',
    );
    ctx.check(
      answer.accepted,
      `a create scheduled one day ahead: expected accepted true, got accepted false (rejectionReason: ${answer.rejectionReason ?? 'none'})`,
    );
  },
};

export const CREATE_TESTS: readonly ConformanceTest[] = [
  validCreate,
  requiredFields,
  brokenLimits,
  atLimits,
  callbackRules,
  businessRejection,
  scheduledWithoutCapability,
  noProofOfDelivery,
];
export const SCHEDULED_TESTS: readonly ConformanceTest[] = [scheduled];
