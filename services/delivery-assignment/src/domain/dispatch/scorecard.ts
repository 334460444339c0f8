import type { ProviderDispatch } from './dispatch';
import { isProviderTerminal, PROVIDER_STATUS_RANK } from './status-map';

/**
 * What one change of a dispatch adds to its connection's record: counts and sums only, so that a
 * record is a handful of increments (no history to scan) and every figure of the scorecard is a
 * count or a mean. Computed from the change as written (before and after), so it is counted once.
 */
export interface ScoreDelta {
  dispatched?: number;
  accepted?: number;
  driverAssigned?: number;
  secondsToDriverSum?: number;
  cancelledAfterAccept?: number;
  delivered?: number;
  deliveredOnTime?: number;
}

/** What a callback adds, whatever it changed. */
export interface CallbackDelta {
  callbacks?: number;
  callbackLagSecondsSum?: number;
  signatureFailures?: number;
  unknownStatuses?: number;
}

export type ScoreCounters = Required<ScoreDelta> & Required<CallbackDelta>;

const rank = (d: ProviderDispatch) => (d.provider ? PROVIDER_STATUS_RANK[d.provider.status] : -1);

/** The record's increments for a dispatch changed from `before` to `after` (empty when none). */
export function scoreDelta(before: ProviderDispatch, after: ProviderDispatch): ScoreDelta {
  const delta: ScoreDelta = {};
  const answered = (s: ProviderDispatch['create']['state']) => s === 'accepted' || s === 'rejected';
  if (!answered(before.create.state) && answered(after.create.state)) {
    delta.dispatched = 1;
    if (after.create.state === 'accepted') delta.accepted = 1;
  }
  const driverRank = PROVIDER_STATUS_RANK.driver_assigned;
  const toDriver = after.provider && !isProviderTerminal(after.provider.status) && rank(after) >= driverRank;
  if (toDriver && rank(before) < driverRank) {
    delta.driverAssigned = 1;
    const from = (after.create.answeredAt ?? after.createdAt).getTime();
    delta.secondsToDriverSum = Math.max(0, (after.provider!.eventTime.getTime() - from) / 1000);
  }
  const endedNow =
    after.provider &&
    isProviderTerminal(after.provider.status) &&
    !(before.provider && isProviderTerminal(before.provider.status));
  if (endedNow && after.provider!.status === 'delivered') {
    delta.delivered = 1;
    if (after.firstEta && after.provider!.eventTime.getTime() <= after.firstEta.getTime()) delta.deliveredOnTime = 1;
  }
  if (
    endedNow &&
    (after.provider!.status === 'cancelled' || after.provider!.status === 'failed') &&
    after.create.state === 'accepted'
  )
    delta.cancelledAfterAccept = 1;
  return delta;
}

/** The scorecard of a record: its counts and rates (null before there is anything to divide by). */
export function scorecardOf(counters: Partial<ScoreCounters>) {
  const c = (k: keyof ScoreCounters) => counters[k] ?? 0;
  const rate = (num: number, den: number) => (den === 0 ? null : Math.round((num / den) * 1000) / 1000);
  const mean = (sum: number, n: number) => (n === 0 ? null : Math.round((sum / n) * 10) / 10);
  return {
    dispatched: c('dispatched'),
    accepted: c('accepted'),
    acceptanceRate: rate(c('accepted'), c('dispatched')),
    driverAssigned: c('driverAssigned'),
    meanSecondsToDriver: mean(c('secondsToDriverSum'), c('driverAssigned')),
    cancelledAfterAccept: c('cancelledAfterAccept'),
    delivered: c('delivered'),
    deliveredOnTime: c('deliveredOnTime'),
    onTimeRate: rate(c('deliveredOnTime'), c('delivered')),
    callbacks: c('callbacks'),
    meanCallbackLagSeconds: mean(c('callbackLagSecondsSum'), c('callbacks')),
    signatureFailures: c('signatureFailures'),
    unknownStatuses: c('unknownStatuses'),
  };
}
