import { holdsLiveAssignment, type LiveAssignment } from '../domain/delivery';
import type { Order } from '../domain/order';

/**
 * Which installation may read an order as its delivery provider (the delivery-assignment-owned
 * read). Ordering keeps `liveAssignment` on the order from the `deliveries` topic
 * (usecases/delivery-copy.ts); a different source of truth plugs in here.
 */
export interface DeliveryOwnership {
  /** The order's live assignment when the installation holds it, else undefined. */
  heldBy(order: Order, installationId: string): LiveAssignment | undefined;
}

export const liveAssignmentOwnership: DeliveryOwnership = {
  heldBy: (order, installationId) =>
    holdsLiveAssignment(order.liveAssignment, installationId) ? order.liveAssignment : undefined,
};

/**
 * How far ordering's copy of the `deliveries` topic has read it. A provider learns of its
 * assignment by webhook (sent from the same topic by webhook-sender) and may read the order at
 * once, before ordering has applied the event: a read that finds no assignment first waits for the
 * copy to reach the time of the request.
 */
export interface DeliveriesCopyProgress {
  /** Called by the copy's consumer after each message it handled (repeats included). */
  handledUpTo(partition: number, offset: string): void;
  /**
   * Waits, for a bounded time, until the copy holds every event published before `time`:
   * undefined once it does, else what is still behind (for the log). Rejects when Kafka cannot
   * tell.
   */
  waitUntil(time: Date): Promise<string | undefined>;
}
