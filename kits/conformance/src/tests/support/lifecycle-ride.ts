import { randomUUID } from 'node:crypto';
import type { Exchange, Outcome, Status } from '../../model';
import type { CreateOptions, TestContext, TrackedDelivery } from '../../test-api';
import { StatusNeverReached } from '../../context/outcomes';
import { gotText } from './checks';
import { outcomeOf } from './lifecycle-answers';
import { byEventTime, fieldText, lifecycleEvents } from './lifecycle-events';
import { heldBetween, judgeOutcome, type TimedStatus } from './lifecycle-race';

/**
 * Riding deliveries through the provider's sandbox: catching one in a status to act on it, and
 * judging the answer against the statuses it held around the request.
 */

/** A status read that succeeded. */
export interface Read {
  status: Status;
  eventTimeUtc: string | null;
}

const timed = (read: Read): TimedStatus => ({
  status: read.status,
  timeMs: read.eventTimeUtc === null ? NaN : Date.parse(read.eventTimeUtc),
});

/**
 * The delivery's status now: GET …/status, failing the test when it does not give a status of the
 * vocabulary. A provider without polling has only its events: the latest recognized one (by
 * eventTimeUtc) stands for the read, once one arrived.
 */
export async function readNow(ctx: TestContext, delivery: TrackedDelivery, what: string): Promise<Read> {
  if (!ctx.declaration.capabilities.supportsPolling) {
    const latest = () => byEventTime(lifecycleEvents(delivery.callback?.events() ?? [])).at(-1);
    const event = await ctx.waitUntil(`${what} (no polling: an event)`, latest, ctx.lifecycleTimeoutMs, 100);
    return { status: event.status, eventTimeUtc: fieldText(event.event.eventTimeUtc, '') || null };
  }
  const read = await delivery.readStatus();
  ctx.check(
    read.status !== null,
    `${what}: expected 200 with a status of the vocabulary, got ${gotText(ctx, read.exchange)}`,
  );
  return { status: read.status, eventTimeUtc: read.eventTimeUtc };
}

export interface Caught {
  delivery: TrackedDelivery;
  /** The status read just before acting, one of the statuses wanted. */
  before: Read;
}

/**
 * Rides a new delivery until it is in one of `statuses` and reads its status to act on at once.
 * The provider may move on between the wait and the read, or end the delivery before it gets
 * there (a sandbox may fail a delivery no driver took: a real provider decision); then another
 * delivery is ridden (up to `attempts` in all), and after the last a failure says what it saw.
 */
export async function rideAndCatch(
  ctx: TestContext,
  statuses: readonly Status[],
  what: string,
  options: { attempts?: number; create?: CreateOptions } = {},
): Promise<Caught> {
  const attempts = options.attempts ?? 3;
  const missed: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const delivery = await ctx.createDelivery(options.create);
    const seen = await delivery.waitForStatus(statuses, what).catch((error: unknown) => {
      if (!(error instanceof StatusNeverReached)) throw error;
      return error.ended as Status;
    });
    if (!statuses.includes(seen)) {
      missed.push(`ended in ${seen}`);
      ctx.note(`${what}: delivery ${attempt} ended in ${seen} before getting there; riding another`);
      continue;
    }
    const before = await readNow(ctx, delivery, `the status read before acting on ${what}`);
    if (statuses.includes(before.status)) return { delivery, before };
    missed.push(`${seen} then ${before.status}`);
    ctx.note(
      `${what}: delivery ${attempt} was seen in ${seen} but had moved on to ${before.status} by the next read; riding another`,
    );
  }
  return ctx.fail(
    `${what}: no delivery stayed in ${statuses.join(' or ')} long enough to act on (${missed.join('; ')})`,
  );
}

/** How a request's answer is judged when it races the provider's progress. */
export interface RaceRule {
  what: string;
  /** The outcome declared for a status (undefined: the declaration does not say; not checked). */
  declared: (status: Status) => Outcome | undefined;
  /** Statuses the request itself leads to when it succeeds (not evidence of the provider moving on). */
  producedByRequest: readonly Status[];
  /** How an outcome reads in messages (default: confirmed / refused). */
  show?: (outcome: Outcome) => string;
}

const LATE_EVENTS_WAIT_MS = 3_000;

/**
 * Checks an outcome against the declared one for the status read before, or for a status held
 * until the read after (that read, and events timed in between; events may come late, so an
 * outcome not explained at once gets a few seconds of them). Notes which it was.
 */
export async function judgeRace(
  ctx: TestContext,
  caught: Caught,
  after: Read,
  got: Outcome,
  rule: RaceRule,
): Promise<void> {
  const judge = () => {
    const events = lifecycleEvents(caught.delivery.callback?.events() ?? [])
      .filter((e) => !Number.isNaN(e.timeMs))
      .map((e) => ({ status: e.status, timeMs: e.timeMs }));
    const held = heldBetween(timed(caught.before), timed(after), events, rule.producedByRequest);
    return judgeOutcome(rule.what, got, caught.before.status, held, rule.declared, rule.show);
  };
  let verdict = judge();
  for (let waited = 0; !verdict.ok && caught.delivery.callback && waited < LATE_EVENTS_WAIT_MS; waited += 500) {
    await ctx.sleep(500);
    verdict = judge();
  }
  if (!verdict.ok) ctx.fail(verdict.reason);
  ctx.note(verdict.note);
}

/**
 * Checks a cancel (`confirmed`) or return (`accepted`) answer against the declaration, racing
 * the provider's progress (judgeRace); returns the outcome and the read after.
 */
export async function expectRacedOutcome(
  ctx: TestContext,
  caught: Caught,
  exchange: Exchange,
  key: 'confirmed' | 'accepted',
  rule: RaceRule,
): Promise<{ outcome: Outcome; after: Read }> {
  const answer = outcomeOf(exchange, key);
  if ('problem' in answer) return ctx.fail(`${rule.what}: ${answer.problem}, got ${gotText(ctx, exchange)}`);
  if (answer.via.endsWith('envelope')) ctx.note(`${rule.what}: refused with a ${answer.via}`);
  const after = await readNow(ctx, caught.delivery, `the status read after ${rule.what}`);
  await judgeRace(ctx, caught, after, answer.outcome, rule);
  return { outcome: answer.outcome, after };
}

/** The statuses of a delivery's recognized events (arrival order, up to the first terminal), for notes. */
export const eventStatuses = (delivery: TrackedDelivery): Status[] =>
  lifecycleEvents(delivery.callback?.events() ?? []).map((e) => e.status);

/** An id no provider issued: the shape of an id, never created. */
export const unknownDeliveryId = (): string => `sdp-unknown-${randomUUID()}`;

/** A delivery's path: `/deliveries/<id><suffix>`. */
export const deliveryPath = (id: string, suffix = ''): string => `/deliveries/${encodeURIComponent(id)}${suffix}`;
