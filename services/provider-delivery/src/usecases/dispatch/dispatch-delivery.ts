import type { StoredDelivery, StoredOffer } from '../../domain/delivery';
import { decideDispatch, type DispatchDecision, type DispatchDriver } from '../../domain/dispatch';
import { dispatchDriverOf, type Driver } from '../../domain/driver';
import { readyAt } from '../../domain/eta';
import { isTerminal } from '../../domain/lifecycle';
import type { ProviderContext } from '../context';
import { changeDelivery } from '../deliveries/change-delivery';
import { listFreeDrivers } from './list-free-drivers';

/** What one look at a delivery did (counted by the dispatcher's metrics and the bench). */
export type DispatchStep = 'offered' | 'waiting' | 'failed' | 'done' | 'raced';

/** The free drivers of an account, read once per round and shared by its decisions (runtime/dispatcher.ts). */
export type FreeDrivers = (accountId: string) => Promise<Driver[]>;

/**
 * One look at a due delivery (domain/dispatch.ts decides): offers that ran out are closed and their
 * drivers given back; then the delivery is offered to the nearest free driver (held on the driver
 * first, so no driver holds two offers, then recorded on the delivery), or it waits until the rule
 * says, or it fails with its reason (delivery.failed). A delivery that no longer needs a driver
 * (taken, ended) leaves the work list. Written under the delivery's version: of two dispatchers
 * looking at once, one decides, the other reads again.
 */
export async function dispatchDelivery(
  ctx: ProviderContext,
  due: StoredDelivery,
  freeDrivers: FreeDrivers = (accountId) => listFreeDrivers(ctx, accountId),
): Promise<DispatchStep> {
  const owner = { accountId: due.accountId };
  const now = ctx.now();
  if (due.driverId !== null || isTerminal(due.status) || due.status !== 'provider_accepted') {
    await changeDelivery(ctx, owner, due.id, () => ({ changes: { dispatchAt: null }, answer: undefined }));
    return 'done';
  }
  const offers = closeExpired(due.offers, now);
  for (const [i, offer] of due.offers.entries())
    if (offer.outcome === 'pending' && offers[i]!.outcome === 'timed_out')
      await ctx.store.drivers.dropOffer(owner, offer.driverId, due.id, now);

  const free = await freeDrivers(due.accountId);
  const drivers = free.map((d) => dispatchDriverOf(d, now)).filter((d): d is DispatchDriver => d !== undefined);
  const { order } = due;
  const decision = decideDispatch(
    {
      pickup: { lat: order.pickupLat, lng: order.pickupLng },
      dropoff: { lat: order.dropoffLat, lng: order.dropoffLng },
      readyAt: readyAt(due.createdAt, order.preparationTimeMinutes, due.timeScale),
      timeScale: due.timeScale,
      scheduledDeliveryAtUtc: order.scheduledDeliveryAtUtc,
      offers,
    },
    drivers,
    now,
  );
  if (decision.kind === 'offer') {
    const held = { providerDeliveryId: due.id, expiresAt: decision.expiresAt };
    // The round's other decisions see the driver busy now, whether this offer holds or not.
    const chosen = free.find((d) => d.id === decision.driverId);
    if (chosen) chosen.offer = held;
    // Another dispatcher (or the driver going offline) came first: look again at once.
    if (!(await ctx.store.drivers.holdOffer(owner, decision.driverId, held, now)))
      return record(ctx, due, offers, now, 'raced');
  }
  return record(ctx, due, offers, now, decision);
}

const closeExpired = (offers: readonly StoredOffer[], now: Date): StoredOffer[] =>
  offers.map((o) => (o.outcome === 'pending' && o.expiresAt <= now ? { ...o, outcome: 'timed_out' as const } : o));

async function record(
  ctx: ProviderContext,
  due: StoredDelivery,
  offers: StoredOffer[],
  at: Date,
  decision: DispatchDecision | 'raced',
): Promise<DispatchStep> {
  const owner = { accountId: due.accountId };
  const step = await changeDelivery(ctx, owner, due.id, (delivery, now) => {
    // Changed since it was read (accepted, declined, cancelled): the next look decides afresh.
    if (delivery.version !== due.version) return { answer: 'raced' as const };
    if (decision === 'raced') return { changes: { offers, dispatchAt: at }, answer: 'raced' as const };
    if (decision.kind === 'offer')
      return {
        changes: {
          offers: [
            ...offers,
            { driverId: decision.driverId, offeredAt: at, expiresAt: decision.expiresAt, outcome: 'pending' },
          ],
          dispatchAt: decision.expiresAt,
        },
        answer: 'offered' as const,
      };
    if (decision.kind === 'wait')
      return { changes: { offers, dispatchAt: decision.until }, answer: 'waiting' as const };
    // The failure's time is the write's, the time its event carries: a status read never says the
    // status began before the event that reports it.
    return {
      changes: { offers, status: 'failed', statusEventTimeUtc: now, failureReason: decision.message },
      events: ['delivery.failed'],
      answer: 'failed' as const,
    };
  });
  if (step === 'raced' && decision !== 'raced' && decision.kind === 'offer')
    await ctx.store.drivers.dropOffer(owner, decision.driverId, due.id, ctx.now());
  if (step === 'failed')
    ctx.logger.info(
      {
        accountId: due.accountId,
        providerDeliveryId: due.id,
        reason: decision !== 'raced' && decision.kind === 'fail' ? decision.reason : undefined,
      },
      'dispatch failed: no driver took the delivery',
    );
  return step;
}
