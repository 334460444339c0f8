import { PROVIDER_STATUSES, type ProviderStatusName } from '@marketplace/contracts';
import { capabilityEnabled } from '../../domain/dispatch/connection';
import {
  providerDeliveryOpen,
  retryDelaySeconds,
  type ProviderAnswer,
  type ProviderDispatch,
} from '../../domain/dispatch/dispatch';
import { judgeReport, type ProviderReport } from '../../domain/dispatch/provider-state';
import type { DeliveryContext } from '../context';
import { saveDispatch } from './save-dispatch';

const dateOrNull = (value: unknown): Date | null | undefined => {
  if (value === null) return null;
  if (typeof value !== 'string') return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
};
const textOrNull = (value: unknown) => (value === null || typeof value === 'string' ? value : undefined);
const numberOrNull = (value: unknown) => (value === null || typeof value === 'number' ? value : undefined);

/** The status read as a report, or undefined when the answer is none the contract allows. */
function statusReport(answer: ProviderAnswer): ProviderReport | undefined {
  if (answer.kind !== 'answer' || answer.status !== 200) return undefined;
  const body = answer.body as { status?: unknown; eventTimeUtc?: unknown } | null;
  const eventTime = dateOrNull(body?.eventTimeUtc);
  if (!PROVIDER_STATUSES.includes(body?.status as ProviderStatusName) || !eventTime) return undefined;
  return { status: body!.status as ProviderStatusName, eventTime };
}

/** The tracking read's fields, where they are the contract's types. */
function trackingFields(answer: ProviderAnswer | undefined): Partial<ProviderReport> {
  if (answer?.kind !== 'answer' || answer.status !== 200) return {};
  const t = (answer.body ?? {}) as Record<string, unknown>;
  const fields: Partial<ProviderReport> = {
    driverName: textOrNull(t.driverName),
    driverPhone: textOrNull(t.driverPhone),
    driverLat: numberOrNull(t.driverLat),
    driverLng: numberOrNull(t.driverLng),
    trackingUrl: textOrNull(t.trackingUrl),
    eta: dateOrNull(t.estimatedDeliveryAtUtc),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/**
 * Convergence: the provider's callbacks went quiet on a live delivery, or one failed its
 * signature, so the status (and, with the capability, the tracking) is read, the contract's
 * authoritative sources, and taken like an event: a newer state applies, a stale one changes
 * nothing. A failed read (the provider down, a 404 for a delivery it should know) leaves the last
 * known state; the next read comes after the quiet time again, and the state's age shows how old
 * it is (the tenant's dispatch view and provider_dispatch_state_age_seconds).
 */
export async function pollProviderDelivery(ctx: DeliveryContext, dispatch: ProviderDispatch): Promise<void> {
  if (!providerDeliveryOpen(dispatch) || dispatch.providerDeliveryId === null) return;
  const tenant = { tenantId: dispatch.tenantId };
  const connection = await ctx.store.connections.find(tenant, dispatch.connectionId);
  if (!connection || !capabilityEnabled(connection, 'supportsPolling')) return;
  const startedAt = ctx.now();
  const status = await ctx.dispatch.providers.status(connection, dispatch.providerDeliveryId);
  const report = statusReport(status);
  // Tracking only once the status answered: a provider failing one read fails the other.
  const tracking =
    report && capabilityEnabled(connection, 'supportsTracking')
      ? await ctx.dispatch.providers.tracking(connection, dispatch.providerDeliveryId)
      : undefined;
  let outcome: 'applied' | 'unchanged' | 'failed' = report ? 'unchanged' : 'failed';
  // A callback that failed its signature while this read was under way still wants a read.
  const suspicion = (d: ProviderDispatch) =>
    d.suspectSince && d.suspectSince.getTime() > startedAt.getTime() ? d.suspectSince : null;
  await saveDispatch(ctx, tenant, dispatch._id, (d, now) => {
    if (!report) {
      // The contract: status reads are retried (at most 3 attempts, Retry-After up to 30 s), then
      // the next read waits the quiet time again.
      const attempts = d.pollAttempts + 1;
      const delay = retryDelaySeconds(status, attempts);
      return {
        ...d,
        suspectSince: suspicion(d),
        lastPolledAt: now,
        pollAttempts: delay === undefined ? 0 : attempts,
        pollRetryAt: delay === undefined ? null : new Date(now.getTime() + delay * 1000),
      };
    }
    const read = {
      lastHeardAt: now,
      lastPolledAt: now,
      suspectSince: suspicion(d),
      pollAttempts: 0,
      pollRetryAt: null,
    };
    const judged = judgeReport(d.provider, { ...report, ...trackingFields(tracking) });
    outcome = judged.kind === 'apply' ? 'applied' : 'unchanged';
    return judged.kind === 'apply'
      ? { ...d, ...read, provider: judged.next, firstEta: d.firstEta ?? judged.next.eta, revision: d.revision + 1 }
      : { ...d, ...read };
  });
  ctx.dispatch.metrics.polled(outcome);
}
