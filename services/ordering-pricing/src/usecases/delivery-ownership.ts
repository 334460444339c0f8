import type { Order } from '../domain/order';

/**
 * Whether an installation holds the order's live delivery assignment (the delivery-assignment-owned
 * read). The delivery feature keeps `liveAssignment` on the order from its events; a different
 * source of truth plugs in here.
 */
export interface DeliveryOwnership {
  holds(order: Order, installationId: string): Promise<boolean> | boolean;
}

export const liveAssignmentOwnership: DeliveryOwnership = {
  holds: (order, installationId) => order.liveAssignment?.installationId === installationId,
};
