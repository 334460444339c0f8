import { notFound } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import type { PickupSnapshot } from '../../domain/delivery';
import type { Order } from '../../domain/order';
import type { OrderingContext } from '../context';

/** Which partner read it was: the source's (everything) or the delivery provider's, with its pickup. */
export type PartnerOrderRead =
  { read: 'source'; order: Order } | { read: 'delivery'; order: Order; pickup: PickupSnapshot };

/**
 * GET /orders/{orderId} (spec, Read order rules): the source-owned read needs Orders.Create and an
 * order created by the caller's installation and shows everything; the delivery-assignment-owned
 * read needs Orders.Read and the order's live assignment, nulls the financial fields and shows the
 * pickup snapshot taken at assignment. Any other case is the same 404 as an order that does not
 * exist.
 *
 * Who holds the live assignment is delivery-assignment's to say: the gateway asked it just before
 * forwarding this read and signed its answer into the caller's identity (`heldAssignment`). So
 * the read follows the assignment's owner at the time of the request, with no copy to wait for.
 */
export async function readOrderAsPartner(
  ctx: OrderingContext,
  caller: PartnerIdentity,
  orderId: string,
): Promise<PartnerOrderRead> {
  const order = await ctx.store.orders.findById(caller, orderId);
  if (!order) throw notFound();
  if (caller.scopes.includes('Orders.Create') && order.source.installationId === caller.installationId)
    return { read: 'source', order };
  const held = caller.heldAssignment;
  if (!caller.scopes.includes('Orders.Read') || held?.orderId !== orderId) throw notFound();
  return { read: 'delivery', order, pickup: held.pickup };
}
