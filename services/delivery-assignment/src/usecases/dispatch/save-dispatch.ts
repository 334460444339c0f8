import { busy } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import { isClosed, nextDueAt, type ProviderDispatch } from '../../domain/dispatch/dispatch';
import { capabilityEnabled } from '../../domain/dispatch/connection';
import { decisionEvents } from '../../domain/dispatch/dispatch-events';
import { scoreDelta } from '../../domain/dispatch/scorecard';
import type { DeliveryContext } from '../context';

const ATTEMPTS = 8;

/**
 * Applies one change to a dispatch: read, change (undefined: nothing to write), work out when the
 * dispatcher should look at it next, write if nobody wrote meanwhile (compare-and-set on
 * `version`), with a dispatch-decisions event for each line its log gained in the same write, else
 * read and change again. Gives the dispatch as written (or as read, unchanged).
 */
export async function saveDispatch(
  ctx: DeliveryContext,
  owner: TenantOwner,
  assignmentId: string,
  change: (dispatch: ProviderDispatch, now: Date) => ProviderDispatch | undefined,
): Promise<ProviderDispatch | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await ctx.store.dispatches.find(owner, assignmentId);
    if (!current) return undefined;
    const now = ctx.now();
    const changed = change(current, now);
    if (!changed) return current;
    const connection = await ctx.store.connections.find(owner, current.connectionId);
    const polling = connection !== undefined && capabilityEnabled(connection, 'supportsPolling');
    const computed = nextDueAt(changed, now, { quietMs: ctx.dispatch.quietMs, polling });
    // A worker's claim holds: nothing is due before its lease ends (it works the dispatch until then).
    const leased = changed.leaseUntil && changed.leaseUntil > now ? changed.leaseUntil : undefined;
    const due = leased && (!computed || computed < leased) ? leased : computed;
    const { dueAt: _previous, ...rest } = changed;
    const next: ProviderDispatch = {
      ...rest,
      ...(due ? { dueAt: due } : {}),
      closed: isClosed(changed),
      version: current.version + 1,
      updatedAt: now,
    };
    const events = decisionEvents(current, next);
    if (await ctx.store.dispatches.replaceIfUnchanged(owner, next, events)) {
      if (events.length > 0) await ctx.dispatch.events.dispatch(next._id);
      if (due && due.getTime() <= now.getTime()) ctx.dispatch.work.kick();
      // The connection's record, from this very change: counted once (lost only to a crash here).
      await ctx.store.connectionScores
        .add({ connectionId: next.connectionId, tenantId: connection?.tenantId ?? null }, scoreDelta(current, next))
        .catch((error: unknown) => ctx.logger.warn({ err: error }, "a connection's scorecard was not updated"));
      return next;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
  }
  throw busy('The dispatch is being changed by other requests; try again.');
}
