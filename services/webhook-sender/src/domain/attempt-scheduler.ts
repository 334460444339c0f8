import type { AttemptReach, EndpointCircuits } from './endpoint-circuit';

/** An attempt that is due, as the scheduler sees it; `job` is the caller's. */
export interface DueAttempt<T> {
  /** The endpoint's owner: an installation, or a platform account. */
  endpoint: string;
  /** Attempt 1 of its round (a new event, a redelivery): these go before retries. */
  first: boolean;
  /** Its due time (ms): an endpoint's attempts go in this order. */
  dueAt: number;
  job: T;
}

/**
 * An attempt the scheduler has started: `probe` when it is an open circuit's probe, `failing` when
 * it holds one of the failing endpoints' slots.
 */
export interface StartedAttempt<T> {
  attempt: DueAttempt<T>;
  probe: boolean;
  failing: boolean;
}

export interface SchedulerLimits {
  /** Attempts in flight at once, in all. */
  overall: number;
  /** Attempts in flight at once to one healthy endpoint. */
  perEndpoint: number;
}

/** One endpoint's due attempts, in due order (then arrival order). */
class EndpointQueue<T> {
  private items: Array<{ attempt: DueAttempt<T>; seq: number }> = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  peek(): DueAttempt<T> | undefined {
    return this.items[this.head]?.attempt;
  }

  add(attempt: DueAttempt<T>, seq: number): void {
    // Attempts mostly come in due order: look for the place from the end.
    let at = this.items.length;
    while (at > this.head && this.items[at - 1]!.attempt.dueAt > attempt.dueAt) at--;
    this.items.splice(at, 0, { attempt, seq });
  }

  shift(): DueAttempt<T> | undefined {
    const item = this.items[this.head];
    if (!item) return undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item.attempt;
  }

  /** Takes out the attempts `drop` matches; what was taken. */
  remove(drop: (attempt: DueAttempt<T>) => boolean): Array<DueAttempt<T>> {
    const kept = this.items.slice(this.head);
    this.items = kept.filter((item) => !drop(item.attempt));
    this.head = 0;
    return kept.filter((item) => drop(item.attempt)).map((item) => item.attempt);
  }
}

/**
 * Which due attempt starts next, so that a dead endpoint never delays a live one:
 * - a healthy endpoint (answered since its last failure) gets up to `perEndpoint` slots; one that
 *   failed to be reached lately gets 1, and all such endpoints together at most half the slots, so
 *   the other half is always there for healthy endpoints however long dead ones take to time out;
 * - a free slot goes first to a healthy endpoint whose next attempt is a first attempt, then to a
 *   healthy endpoint's retry, then to a failing endpoint; among equals to the endpoint with the
 *   fewest in flight, then to the attempt due first;
 * - an endpoint whose circuit is open (`EndpointCircuits`) has its attempts parked: only its probe
 *   (the attempt due first) goes, when the circuit allows; once a probe is answered the circuit
 *   closes and the parked attempts go in due order.
 * An endpoint's attempts always start in due order. Pure bookkeeping: the caller starts what
 * `next` returns and reports it with `finished`.
 */
export class AttemptScheduler<T> {
  private running = 0;
  /** Slots held by endpoints that are failing or open. */
  private runningFailing = 0;
  private readonly active = new Map<string, { count: number; failing: number }>();
  private readonly queues = new Map<string, EndpointQueue<T>>();
  private seq = 0;
  private queuedCount = 0;

  constructor(
    private readonly limits: SchedulerLimits,
    readonly circuits: EndpointCircuits,
  ) {}

  /** Attempts due and not started: parked ones included. */
  get queued(): number {
    return this.queuedCount;
  }

  get inFlight(): number {
    return this.running;
  }

  /** The most slots failing endpoints may hold together. */
  private get failingShare(): number {
    return Math.max(1, Math.floor(this.limits.overall / 2));
  }

  add(attempt: DueAttempt<T>): void {
    let queue = this.queues.get(attempt.endpoint);
    if (!queue) this.queues.set(attempt.endpoint, (queue = new EndpointQueue()));
    queue.add(attempt, this.seq++);
    this.queuedCount++;
  }

  /** The attempt to start now, marked as running; undefined when none may start. */
  next(now: number): StartedAttempt<T> | undefined {
    if (this.running >= this.limits.overall) return undefined;
    let best: { endpoint: string; rank: [number, number, number]; probe: boolean; failing: boolean } | undefined;
    for (const [endpoint, queue] of this.queues) {
      const head = queue.peek();
      if (!head) continue;
      const active = this.active.get(endpoint)?.count ?? 0;
      const state = this.circuits.state(endpoint);
      let rank: [number, number, number];
      let probe = false;
      if (state === 'healthy') {
        if (active >= this.limits.perEndpoint) continue;
        rank = [head.first ? 0 : 1, active, head.dueAt];
      } else {
        if (this.runningFailing >= this.failingShare || active >= 1) continue;
        if (state === 'open') {
          if (!this.circuits.mayProbe(endpoint, now)) continue;
          probe = true;
        }
        rank = [2, active, head.dueAt];
      }
      if (!best || compare(rank, best.rank) < 0) best = { endpoint, rank, probe, failing: state !== 'healthy' };
    }
    if (!best) return undefined;
    const queue = this.queues.get(best.endpoint)!;
    const attempt = queue.shift()!;
    if (queue.size === 0) this.queues.delete(best.endpoint);
    this.queuedCount--;
    this.running++;
    const active = this.active.get(best.endpoint) ?? { count: 0, failing: 0 };
    active.count++;
    if (best.failing) {
      active.failing++;
      this.runningFailing++;
    }
    this.active.set(best.endpoint, active);
    if (best.probe) this.circuits.probeStarted(best.endpoint);
    return { attempt, probe: best.probe, failing: best.failing };
  }

  /** A started attempt ended: what it learned of its endpoint goes to the circuit. */
  finished(started: StartedAttempt<T>, reach: AttemptReach, now: number): void {
    const { endpoint } = started.attempt;
    this.running--;
    const active = this.active.get(endpoint);
    if (active) {
      active.count--;
      if (started.failing && active.failing > 0) {
        active.failing--;
        this.runningFailing--;
      }
      if (active.count === 0) this.active.delete(endpoint);
    }
    this.circuits.report(endpoint, reach, now, started.probe);
  }

  /** Takes out the queued attempts `drop` matches (their partitions went to another consumer). */
  remove(drop: (attempt: DueAttempt<T>) => boolean): Array<DueAttempt<T>> {
    const removed: Array<DueAttempt<T>> = [];
    for (const [endpoint, queue] of this.queues) {
      removed.push(...queue.remove(drop));
      if (queue.size === 0) this.queues.delete(endpoint);
    }
    this.queuedCount -= removed.length;
    return removed;
  }

  /** Drops every queued attempt (the service stops: they are read again, uncommitted). */
  clear(): void {
    this.queues.clear();
    this.queuedCount = 0;
  }

  /**
   * When an open circuit with parked attempts may probe next, if any: the caller wakes then (a
   * time already past means the probe waits for a slot, and a finished attempt wakes the caller).
   */
  nextWakeAt(): number | undefined {
    let earliest: number | undefined;
    for (const endpoint of this.queues.keys()) {
      const at = this.circuits.probeAt(endpoint);
      if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
    }
    return earliest;
  }
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
