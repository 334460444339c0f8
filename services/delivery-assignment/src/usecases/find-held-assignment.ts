import { notFound } from '@marketplace/errors';
import type { InstallationOwner } from '@marketplace/store';
import { LIVE_STATUSES, type Assignment } from '../domain/delivery';
import type { DeliveryContext } from './context';

/**
 * The order's live assignment when the installation holds it now, else the 404 of an unknown
 * order. What the gateway asks before it forwards a delivery provider's order read (Partner API 5)
 * to ordering: this service decides who holds an order, so the read follows its answer at the time
 * of the request, not a copy that may lag behind it.
 */
export async function findHeldAssignment(
  ctx: DeliveryContext,
  caller: InstallationOwner,
  orderId: string,
): Promise<Assignment> {
  const live = (await ctx.store.deliveries.findByOrder(caller, orderId))?.live;
  if (!live || live.installationId !== caller.installationId || !LIVE_STATUSES.includes(live.status)) throw notFound();
  return live;
}
