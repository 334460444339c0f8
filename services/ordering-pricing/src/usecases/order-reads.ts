import { notFound } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import type { LiveAssignment } from '../domain/delivery';
import type { Order } from '../domain/order';
import type { OrderingContext, TenantScope } from './context';

/** Which partner read it was: the source's (everything) or the delivery provider's, with its assignment. */
export type PartnerOrderRead =
  { read: 'source'; order: Order } | { read: 'delivery'; order: Order; assignment: LiveAssignment };

/**
 * GET /orders/{orderId} (spec, Read order rules): the source-owned read needs Orders.Create and an
 * order created by the caller's installation and shows everything; the delivery-assignment-owned
 * read needs Orders.Read and the order's live assignment, nulls the financial fields and shows the
 * pickup snapshot taken at assignment. Any other case is the same 404 as an order that does not
 * exist.
 */
export async function readOrderAsPartner(
  ctx: OrderingContext,
  caller: PartnerIdentity,
  orderId: string,
): Promise<PartnerOrderRead> {
  const requestedAt = ctx.now();
  const order = await ctx.store.orders.findById(caller, orderId);
  if (!order) throw notFound();
  if (caller.scopes.includes('Orders.Create') && order.source.installationId === caller.installationId)
    return { read: 'source', order };
  if (!caller.scopes.includes('Orders.Read')) throw notFound();
  const assignment = ctx.deliveryOwnership.heldBy(order, caller.installationId);
  if (assignment) return { read: 'delivery', order, assignment };
  return readAfterDeliveriesCopy(ctx, caller, orderId, requestedAt);
}

/**
 * The delivery read of a caller that did not hold the assignment as the order was read: its
 * webhook may have come before ordering applied the same event. Looks again once the deliveries
 * copy holds everything published before the request; a copy still behind after the wait, or a
 * Kafka that cannot tell, is the same 404 (logged): the caller retries, never a 5xx for a read that
 * may simply not be allowed.
 */
async function readAfterDeliveriesCopy(
  ctx: OrderingContext,
  caller: PartnerIdentity,
  orderId: string,
  requestedAt: Date,
): Promise<PartnerOrderRead> {
  const where = { orderId, installationId: caller.installationId };
  let behind: string | undefined;
  try {
    behind = await ctx.deliveriesCopy.waitUntil(requestedAt);
  } catch (error) {
    ctx.logger.warn(
      { ...where, err: error },
      'could not learn how far the deliveries copy is; order read answered 404',
    );
    throw notFound();
  }
  if (behind !== undefined) {
    ctx.logger.warn({ ...where, behind }, 'the deliveries copy is behind the read; order read answered 404');
    throw notFound();
  }
  const order = await ctx.store.orders.findById(caller, orderId);
  const assignment = order && ctx.deliveryOwnership.heldBy(order, caller.installationId);
  if (!order || !assignment) throw notFound();
  return { read: 'delivery', order, assignment };
}

export async function readOrderAsTenant(ctx: OrderingContext, tenant: TenantScope, orderId: string): Promise<Order> {
  const order = await ctx.store.orders.findById(tenant, orderId);
  if (!order) throw notFound();
  return order;
}

/** The tenant's latest orders, newest first. */
export async function listOrders(
  ctx: OrderingContext,
  tenant: TenantScope,
  options: { status?: number; limit: number },
): Promise<Order[]> {
  return ctx.store.orders.listRecent(tenant, {
    status: options.status as Order['status'] | undefined,
    limit: options.limit,
  });
}
