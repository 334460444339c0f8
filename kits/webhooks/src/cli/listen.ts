import { DeliveryLog, LogBusyError, LogRefusedError, type LoggedDelivery } from './delivery-log';
import { forwardWebhook, type ForwardOutcome } from './forward';
import type { ListenSettings } from './options';

/** How many of the newest deliveries each poll reads: more new ones between two polls are not all seen. */
export const PAGE = 100;
/** The longest wait between polls after failures (the gateway away, 5xx). */
const MAX_BACKOFF_MS = 30_000;

export interface ListenIo {
  /** One line of output. */
  print(line: string): void;
  /** Waits, or ends early when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  now(): number;
}

/** What the loop keeps between polls: each delivery seen in the last page, with its round. */
interface State {
  seen: Map<string, number>;
  /** Whether a poll has answered yet. */
  started: boolean;
  failures: number;
}

const sleepFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

export const defaultIo: ListenIo = {
  print: (line) => void process.stdout.write(`${line}\n`),
  sleep: sleepFor,
  now: Date.now,
};

/** `orders.created 5b0e… -> 200 (12 ms)`, with the time first. */
export function forwardLine(
  delivery: LoggedDelivery,
  outcome: ForwardOutcome,
  redelivery: boolean,
  now: number,
): string {
  const result = 'status' in outcome ? String(outcome.status) : `failed (${outcome.error})`;
  const again = redelivery ? ' (redelivery)' : '';
  return `${new Date(now).toISOString()}  ${delivery.type}  ${delivery.id}${again}  -> ${result} (${outcome.ms} ms)`;
}

/** The deliveries of a page to forward, oldest first: unseen ones, or seen in an earlier round. */
function toForward(page: LoggedDelivery[], state: State, since: 'now' | Date): LoggedDelivery[] {
  if (!state.started && since === 'now') return [];
  const fresh = page.filter((d) => {
    const round = state.seen.get(d.id);
    if (round !== undefined) return d.round > round;
    return state.started || (since !== 'now' && Date.parse(d.createdAt) >= since.getTime());
  });
  return fresh.reverse();
}

/** Reads each delivery's body and forwards it; a busy log stops the batch (the rest waits for the next poll). */
async function forwardAll(
  log: DeliveryLog,
  batch: LoggedDelivery[],
  state: State,
  settings: ListenSettings,
  io: ListenIo,
): Promise<void> {
  for (const delivery of batch) {
    const redelivery = state.seen.has(delivery.id);
    const detail = await log.get(delivery.id);
    state.seen.set(delivery.id, delivery.round);
    if (!detail) continue;
    const outcome = await forwardWebhook(settings.forwardTo, detail, settings.webhookSecret, () => io.now());
    io.print(forwardLine(delivery, outcome, redelivery, io.now()));
  }
}

/**
 * The state after reading a page, before its forwards: every delivery of the page not to be
 * forwarded is seen at its round; one to be forwarded keeps its earlier round, if any, until its
 * forward (so a batch cut short by a busy log is taken up again on the next poll). Only the page's
 * deliveries are kept: one that left it never comes back (the list is by creation time).
 */
function afterRead(page: LoggedDelivery[], batch: LoggedDelivery[], seen: Map<string, number>): Map<string, number> {
  const next = new Map<string, number>();
  for (const d of page) {
    const before = seen.get(d.id);
    if (!batch.includes(d)) next.set(d.id, d.round);
    else if (before !== undefined) next.set(d.id, before);
  }
  return next;
}

/** One poll: the newest page, then the forwards. */
async function poll(log: DeliveryLog, state: State, settings: ListenSettings, io: ListenIo): Promise<void> {
  const page = await log.list(PAGE);
  const batch = toForward(page, state, settings.since);
  if (state.started && page.length === PAGE && page.every((d) => !state.seen.has(d.id)))
    io.print(`warning: more than ${PAGE} new deliveries since the last poll; the older ones were not forwarded`);
  state.seen = afterRead(page, batch, state.seen);
  if (!state.started) {
    state.started = true;
    io.print(`Ready: forwarding webhooks to ${settings.forwardTo} (Ctrl-C to stop)`);
  }
  await forwardAll(log, batch, state, settings, io);
}

/** How long to wait after a failed poll: Retry-After when the log gave one, else doubling to 30 s. */
function backoffMs(error: unknown, state: State, settings: ListenSettings): number {
  state.failures++;
  if (error instanceof LogBusyError && error.retryAfterSeconds !== undefined)
    return Math.max(settings.intervalMs, error.retryAfterSeconds * 1000);
  return Math.min(MAX_BACKOFF_MS, settings.intervalMs * 2 ** state.failures);
}

/**
 * Polls the installation's delivery log every `intervalMs` until `signal` aborts, and forwards each
 * new webhook to `forwardTo` (see forward.ts). A 429 or 5xx waits Retry-After (or backs off); an
 * unreachable gateway backs off; a refused key (401, 403) ends it with 1. Resolves 0 once stopped.
 */
export async function listen(settings: ListenSettings, signal: AbortSignal, io: ListenIo = defaultIo): Promise<number> {
  const log = new DeliveryLog(settings.baseUrl, settings.apiKey);
  const state: State = { seen: new Map(), started: false, failures: 0 };
  io.print(`Polling ${settings.baseUrl} for this installation's webhook deliveries...`);
  while (!signal.aborted) {
    let wait = settings.intervalMs;
    try {
      await poll(log, state, settings, io);
      state.failures = 0;
    } catch (error) {
      if (error instanceof LogRefusedError) {
        io.print(`error: ${error.message}`);
        return 1;
      }
      wait = backoffMs(error, state, settings);
      const why =
        error instanceof LogBusyError ? error.message : `the gateway is unreachable (${(error as Error).message})`;
      io.print(`waiting ${Math.round(wait / 1000)} s: ${why}`);
    }
    await io.sleep(wait, signal);
  }
  return 0;
}
