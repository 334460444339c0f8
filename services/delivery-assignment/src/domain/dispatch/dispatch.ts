import type { ProviderStatusName } from '@marketplace/contracts';
import type { ProviderState } from './provider-state';
import { isBeforePickup, isProviderTerminal } from './status-map';

/** One line of a delivery's dispatch log: what was decided about which connection, and why. */
export interface DispatchLogEntry {
  at: Date;
  decision: 'chosen' | 'skipped' | 'created' | 'rejected' | 'create_failed' | 'cancel_sent' | 'ended' | 'rescued';
  reason: string;
}

export type CancelStage = 'before_pickup' | 'after_pickup';

/**
 * One assignment of an order to a provider connection, as the platform drives it (`_id`: the
 * assignment id, which is also the contract's platformReference and idempotencyKey, so a retry
 * after a timeout, by this process or another, names the same delivery). The provider's state, the
 * work still to do (create, cancel, poll, bring the assignment in line) and its log.
 */
export interface ProviderDispatch {
  _id: string;
  tenantId: string;
  orderId: string;
  installationId: string;
  connectionId: string;
  /** SHA-256 of the callback URL's token (the token itself is only in the sealed URL). */
  callbackTokenHash: string;
  /**
   * The callback URL sent on create, sealed: every retry of the create sends the very same URL.
   * Null where the platform has no public callback address: the delivery is followed by polling.
   */
  callbackUrlSealed: string | null;
  createdAt: Date;
  create: {
    state: 'due' | 'accepted' | 'rejected' | 'failed' | 'withdrawn';
    attempts: number;
    /** When the next attempt is due after a failed one (Retry-After, or the backoff); absent: at once. */
    retryAt?: Date;
    /** Why the last attempt failed (no secret, no URL), or the rejection reason. */
    detail: string | null;
    answeredAt: Date | null;
  };
  providerDeliveryId: string | null;
  providerTrackingId: string | null;
  provider: ProviderState | null;
  /** The first ETA the provider gave (the scorecard's on-time measure). */
  firstEta: Date | null;
  /** Fingerprints of the last events taken (duplicates are answered 200 and change nothing). */
  seen: string[];
  /** When the provider last told us anything: a signed callback or an answered read. */
  lastHeardAt: Date | null;
  /** When the state was last read (answered or not): the next read waits the quiet time after it. */
  lastPolledAt: Date | null;
  cancel: {
    stage: CancelStage;
    state: 'due' | 'confirmed' | 'refused' | 'failed';
    requestedAt: Date;
    detail: string | null;
  } | null;
  /** When a callback last failed its signature (null: none since the last read): read the state (convergence). */
  suspectSince: Date | null;
  /** A status read that failed, to be tried again at `pollRetryAt` (at most 3 attempts, then the quiet time). */
  pollAttempts: number;
  pollRetryAt: Date | null;
  /** Grows with every change of `provider`; `appliedRevision` is what the assignment reflects. */
  revision: number;
  appliedRevision: number;
  /** When the dispatcher loop should look at it again; absent when never (nothing to do). */
  dueAt?: Date;
  /**
   * A worker holds it until then (its claim): no other instance takes it before, whatever becomes
   * due meanwhile (the worker looks again before it lets go). Absent when nobody works on it.
   */
  leaseUntil?: Date;
  /** Nothing more will happen (the provider's state is terminal, or the create never went out). */
  closed: boolean;
  log: DispatchLogEntry[];
  /** Grows with every write (compare-and-set). */
  version: number;
  updatedAt: Date;
}

/** The platform's side of the contract's limits. */
export const PLATFORM_LIMITS = {
  /** Platform HTTP timeout. */
  timeoutMs: 15_000,
  maxResponseBytes: 5 * 1024 * 1024,
  /** Attempts of an idempotent request after a network failure, a timeout, 429 or 5xx. */
  attempts: 3,
  /** Retry-After honoured up to this. */
  maxRetryAfterSeconds: 30,
  /** Waits between attempts when the answer gives no Retry-After. */
  backoffSeconds: [1, 4],
  /** Log lines kept per dispatch. */
  logEntries: 50,
  /** Event fingerprints kept per dispatch. */
  seenEvents: 64,
} as const;

/** What a call to the provider came back with, as the platform judges it. */
export type ProviderAnswer =
  | { kind: 'answer'; status: number; body: unknown; retryAfterSeconds: number | null }
  | { kind: 'network'; detail: string };

/** After a failed attempt of a create (or a read): try again after so many seconds, or give up. */
export function retryDelaySeconds(answer: ProviderAnswer, attemptsMade: number): number | undefined {
  if (attemptsMade >= PLATFORM_LIMITS.attempts) return undefined;
  const retriable = answer.kind === 'network' || answer.status === 429 || answer.status >= 500;
  if (!retriable) return undefined;
  const backoff =
    PLATFORM_LIMITS.backoffSeconds[Math.min(attemptsMade - 1, PLATFORM_LIMITS.backoffSeconds.length - 1)]!;
  const asked = answer.kind === 'answer' ? answer.retryAfterSeconds : null;
  return asked === null ? backoff : Math.min(Math.max(asked, 0), PLATFORM_LIMITS.maxRetryAfterSeconds);
}

/** In words, for the log and the tenant: never a body, a URL or a secret. */
export function describeAnswer(answer: ProviderAnswer): string {
  return answer.kind === 'network' ? answer.detail : `HTTP ${answer.status}${errorCodeOf(answer.body)}`;
}

const errorCodeOf = (body: unknown): string => {
  const code = (body as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[\w.-]{1,80}$/.test(code) ? ` ${code}` : '';
};

/** The stage of a cancel at the provider's current state. */
export const cancelStageOf = (status: ProviderStatusName | null): CancelStage =>
  isBeforePickup(status) ? 'before_pickup' : 'after_pickup';

/** Whether the provider's delivery may still need anything from us (it exists and has not ended). */
export const providerDeliveryOpen = (dispatch: ProviderDispatch): boolean =>
  dispatch.create.state === 'accepted' && !(dispatch.provider && isProviderTerminal(dispatch.provider.status));

/** A log line added, the oldest dropped past the limit. */
export function withLog(dispatch: ProviderDispatch, entry: DispatchLogEntry): DispatchLogEntry[] {
  return [...dispatch.log, entry].slice(-PLATFORM_LIMITS.logEntries);
}

/** How often a live delivery is read when its callbacks go quiet, and whether it may be read at all. */
export interface ConvergenceSettings {
  quietMs: number;
  polling: boolean;
}

/**
 * When the dispatcher should look at the dispatch again, or undefined when never: pending work
 * first (the assignment behind the provider's state, a create or cancel due), then convergence (a
 * live delivery read once its callbacks have been quiet for `quietMs`, at once after a callback
 * that failed its signature; only with polling enabled).
 */
export function nextDueAt(dispatch: ProviderDispatch, now: Date, convergence: ConvergenceSettings): Date | undefined {
  if (dispatch.appliedRevision < dispatch.revision) return now;
  if (dispatch.create.state === 'due')
    return dispatch.create.retryAt && dispatch.create.retryAt > now ? dispatch.create.retryAt : now;
  if (dispatch.cancel?.state === 'due' && dispatch.providerDeliveryId !== null) return now;
  return pollDueAt(dispatch, now, convergence);
}

/**
 * When the provider's state should be read (convergence), or undefined when never: only for a
 * delivery that exists and has not ended, with polling enabled; a failed read is tried again when
 * its retry is due; after a callback that failed its signature at once; else once the provider has
 * been quiet for `quietMs` since it last said anything or was last read.
 */
export function pollDueAt(dispatch: ProviderDispatch, now: Date, convergence: ConvergenceSettings): Date | undefined {
  if (!providerDeliveryOpen(dispatch) || !convergence.polling) return undefined;
  if (dispatch.pollRetryAt) return dispatch.pollRetryAt;
  if (dispatch.suspectSince) return now;
  const heard = Math.max(
    (dispatch.lastHeardAt ?? dispatch.create.answeredAt ?? now).getTime(),
    dispatch.lastPolledAt?.getTime() ?? 0,
  );
  return new Date(heard + convergence.quietMs);
}

/**
 * Nothing more will happen to the dispatch: the assignment reflects the provider's last state, and
 * the provider's delivery ended (a terminal status) or never started (rejected, not created,
 * withdrawn before the create went out) with no cancel left to send. A late callback still finds it.
 */
export function isClosed(dispatch: ProviderDispatch): boolean {
  if (dispatch.appliedRevision < dispatch.revision) return false;
  // A cancel waits for the provider's delivery id: without one (a create that never succeeded) it
  // can never be sent, and keeps nothing open.
  if (dispatch.cancel?.state === 'due' && dispatch.providerDeliveryId !== null) return false;
  if (dispatch.provider && isProviderTerminal(dispatch.provider.status)) return true;
  return dispatch.create.state !== 'due' && dispatch.create.state !== 'accepted';
}
