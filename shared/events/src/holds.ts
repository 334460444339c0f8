import { AppError } from '@marketplace/errors';
import type { Logger } from '@marketplace/logging';

/**
 * What a consumer is holding back, and since when: a message retried in place (a guard that makes
 * it wait, a dependency away), a partition paused for lack of room. `reason` is updated while the
 * hold lasts (the latest failure); it is our own text, never a secret.
 */
export interface Hold {
  /** Consumer group holding. */
  group: string;
  topic: string;
  partition?: number;
  offset?: string;
  eventId?: string;
  since: number;
  /** Stable code of the cause, e.g. `webhook.installations_behind`. */
  code: string;
  reason: string;
  /** Safe, structured facts about the cause (partitions behind with their offsets, say). */
  details?: Record<string, unknown>;
  alarmed: boolean;
}

export interface HoldWatchOptions {
  /** A hold longer than this raises the alarm: one error log, a metric, a degraded readiness check. */
  alarmAfterMs: number;
  logger: Logger;
  /** Told once per hold when it raises the alarm (a metric counter). */
  onAlarm?: (hold: Hold) => void;
  /** How often holds are looked at; the alarm is raised at most this late. */
  checkEveryMs?: number;
  now?: () => number;
}

export type HoldKey = string;

/**
 * Every wait of a process's consumers, in one place, so that none is silent: a hold that lasts
 * longer than `alarmAfterMs` is logged once as an error naming what it waits for, counted, and
 * reported by `overdue()` (a degraded readiness check: the service still serves its API). When it
 * ends, its end is logged too.
 */
export class HoldWatch {
  private readonly holds = new Map<HoldKey, Hold>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly options: HoldWatchOptions) {
    this.now = options.now ?? Date.now;
  }

  get alarmAfterMs(): number {
    return this.options.alarmAfterMs;
  }

  /** Starts (or updates the reason of) the hold under `key`; its start time is kept. */
  hold(key: HoldKey, hold: Omit<Hold, 'since' | 'alarmed'>): void {
    const existing = this.holds.get(key);
    if (existing) {
      existing.code = hold.code;
      existing.reason = hold.reason;
      existing.details = hold.details;
    } else {
      this.holds.set(key, { ...hold, since: this.now(), alarmed: false });
      this.ensureTimer();
    }
  }

  /** Ends the hold under `key` (nothing if there is none). */
  release(key: HoldKey): void {
    const hold = this.holds.get(key);
    if (!hold) return;
    this.holds.delete(key);
    if (hold.alarmed)
      this.options.logger.info({ ...this.fields(hold), heldMs: this.now() - hold.since }, 'consumer hold ended');
    if (this.holds.size === 0) this.stopTimer();
  }

  /** Raises the alarm of every hold that has just passed the limit. Called by the timer; public for tests. */
  check(): void {
    const now = this.now();
    for (const hold of this.holds.values()) {
      if (hold.alarmed || now - hold.since < this.options.alarmAfterMs) continue;
      hold.alarmed = true;
      this.options.logger.error(
        { ...this.fields(hold), heldMs: now - hold.since, alarmAfterMs: this.options.alarmAfterMs },
        `consumer holding events back: ${hold.reason}`,
      );
      this.options.onAlarm?.(hold);
    }
  }

  /** Holds longer than the limit, oldest first (each alarmed before it is reported). */
  overdue(): Hold[] {
    this.check();
    const now = this.now();
    return [...this.holds.values()]
      .filter((h) => now - h.since >= this.options.alarmAfterMs)
      .sort((a, b) => a.since - b.since);
  }

  /** The longest current hold per consumer group, in seconds (a gauge). */
  longestByGroup(): Map<string, number> {
    const now = this.now();
    const longest = new Map<string, number>();
    for (const hold of this.holds.values())
      longest.set(hold.group, Math.max(longest.get(hold.group) ?? 0, (now - hold.since) / 1000));
    return longest;
  }

  /** One line for readiness: what waits, where, for how long, and why. */
  static describe(hold: Hold, now = Date.now()): string {
    const where =
      hold.partition === undefined
        ? hold.topic
        : `${hold.topic}[${hold.partition}]${hold.offset === undefined ? '' : `@${hold.offset}`}`;
    return `${hold.group} ${where} held ${Math.round((now - hold.since) / 1000)} s: ${hold.reason}`;
  }

  stop(): void {
    this.stopTimer();
  }

  private fields(hold: Hold) {
    return {
      consumerGroup: hold.group,
      topic: hold.topic,
      partition: hold.partition,
      offset: hold.offset,
      eventId: hold.eventId,
      errorCode: hold.code,
      details: hold.details,
    };
  }

  private ensureTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.options.checkEveryMs ?? 1000);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The code, message and safe details of a failure, for a hold. */
export function holdCauseOf(error: unknown): Pick<Hold, 'code' | 'reason' | 'details'> {
  const e = error as { code?: unknown; name?: unknown; message?: unknown };
  const code =
    typeof e?.code === 'string' || typeof e?.code === 'number'
      ? String(e.code)
      : typeof e?.name === 'string'
        ? e.name
        : 'error';
  const reason = typeof e?.message === 'string' ? e.message : String(error);
  // Only an AppError's details are safe by contract; a driver's error is named, not dumped.
  return error instanceof AppError && error.details ? { code, reason, details: error.details } : { code, reason };
}
