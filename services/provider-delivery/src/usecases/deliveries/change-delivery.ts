import type { ProviderEventTypeName } from '@marketplace/contracts';
import { busy } from '@marketplace/errors';
import { withoutDriverData, type DeliveryChanges, type StoredDelivery } from '../../domain/delivery';
import { deliveryNotFound } from '../../domain/errors';
import { isTerminal } from '../../domain/lifecycle';
import type { AccountOwner } from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { buildPlatformEvents } from './build-platform-events';

/** What a rule decided for the delivery as read: the changes (none: answer only) and the events they send. */
export interface Decision<T> {
  changes?: DeliveryChanges;
  events?: readonly ProviderEventTypeName[];
  answer: T;
}

/** Lost compare-and-set races before the request is answered 503 `resource.busy` (retryable). */
const MAX_TRIES = 5;

/**
 * Reads the account's delivery, asks `decide` (a pure rule of domain/) what to do with it as it
 * is, and writes the changes with a compare-and-set on its version, the events staged in the same
 * write; a change that came first makes it read and decide again, so every answer was true of the
 * state it changed. The events describe the delivery after the change.
 */
export async function changeDelivery<T>(
  ctx: ProviderContext,
  owner: AccountOwner,
  providerDeliveryId: string,
  decide: (delivery: StoredDelivery, now: Date) => Decision<T>,
): Promise<T> {
  for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
    const delivery = await ctx.store.deliveries.find(owner, providerDeliveryId);
    if (!delivery) throw deliveryNotFound();
    const now = ctx.now();
    const decision = decide(delivery, now);
    if (!decision.changes) return decision.answer;
    const changes: DeliveryChanges = { ...decision.changes, updatedAt: now };
    const ends = changes.status != null && isTerminal(changes.status) && !isTerminal(delivery.status);
    // The end of a delivery, however it came (courier, platform, dispatcher, operator): it needs
    // no driver any more, and keeps nothing personal of the one it had.
    if (ends)
      Object.assign(changes, { dispatchAt: null, tracking: withoutDriverData(changes.tracking ?? delivery.tracking) });
    const after: StoredDelivery = { ...delivery, ...changes, version: delivery.version + 1 };
    const events = await buildPlatformEvents(ctx, after, decision.events ?? [], now);
    if (await ctx.store.deliveries.update(owner, providerDeliveryId, delivery.version, changes, events, now)) {
      if (changes.status != null && changes.status !== delivery.status)
        ctx.metrics.deliveryStatusChanged(changes.status);
      if (events.length > 0) await ctx.events.publishDelivery(providerDeliveryId);
      // The driver is free again (a crash before this is mended when they next ask: courier/read-courier-state.ts).
      if (ends && delivery.driverId !== null)
        await ctx.store.drivers.release(owner, delivery.driverId, providerDeliveryId, now);
      return decision.answer;
    }
  }
  throw busy('The delivery is being changed by another request; try again in a second.');
}
