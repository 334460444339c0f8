import type { DeliveryEvent, EventTypeOf, TOPICS } from '@marketplace/contracts';
import type { Logger } from '@marketplace/logging';
import { deliveredEvent, liveAssignmentOf } from '../../domain/delivery';
import { statusName } from '../../domain/order-status';
import type { OrderingContext } from '../context';
import { completeByDelivery } from '../orders/complete-by-delivery';

/**
 * Applies one event of the `deliveries` topic (delivery-assignment's) to its order:
 *
 * - the order's live assignment becomes the event's `live` (who may read the order as its delivery
 *   provider, and the pickup snapshot it reads), unless the order holds this revision or a later
 *   one: replays, repeats and late events change nothing, in one conditional write;
 * - a Delivered delivery completes its order (under the order lock, with orders.status-changed).
 *   This does not depend on the revision being new: if the process stopped between the two
 *   writes, the replayed event still completes the order, and a completed order stays as it is.
 *
 * An event for an order ordering does not have cannot come from delivery-assignment (it assigns
 * only orders it learnt of from the orders topic); it is logged and skipped.
 */
export async function applyDeliveryEvent(
  ctx: OrderingContext,
  type: EventTypeOf<typeof TOPICS.deliveries>,
  event: DeliveryEvent,
  log: Logger,
): Promise<void> {
  const owner = { tenantId: event.tenantId };
  const where = { orderId: event.orderId, revision: event.revision, type };
  const applied = await ctx.store.orders.setLiveAssignment(
    owner,
    event.orderId,
    liveAssignmentOf(event),
    event.revision,
  );
  if (!applied) {
    const order = await ctx.store.orders.findById(owner, event.orderId);
    if (!order) {
      // Normal when this database is younger than the topic (it is read from the beginning):
      // debug, not a warning per event of every older order.
      log.debug(where, 'delivery event for an order ordering does not have: skipped');
      return;
    }
    log.debug({ ...where, held: order.deliveryRevision }, 'delivery event not newer than the order’s: no change');
  }
  if (!deliveredEvent(type, event)) return;
  const { previous, completed } = await completeByDelivery(ctx, owner, event.orderId);
  if (completed) log.info({ ...where, previousStatus: statusName(previous) }, 'order completed by its delivery');
  else log.info({ ...where, status: statusName(previous) }, 'delivery delivered: order left in its status');
}
