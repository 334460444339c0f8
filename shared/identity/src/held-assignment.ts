/**
 * A delivery provider's order read (Partner API 5) is decided by two services: delivery-assignment
 * knows who holds the order's live assignment, ordering has the order. The gateway asks the first
 * at this path (with the caller's identity signed for it, like any forwarded request) and puts the
 * answer into the identity it signs for the read at ordering. Not a Partner API endpoint: the
 * gateway routes no partner request to it.
 */
export const HELD_ASSIGNMENT_PATTERN = '/api/partner/v1/orders/:orderId/held-assignment';

export const heldAssignmentPath = (orderId: string): string =>
  HELD_ASSIGNMENT_PATTERN.replace(':orderId', encodeURIComponent(orderId));

/** A live delivery assignment of one order, as its holder may read the order (the pickup it was sent to). */
export interface HeldAssignment {
  orderId: string;
  assignmentId: string;
  /** The branch as it was at assignment. */
  pickup: {
    branchId: string;
    name: string;
    address: string;
    latitude: number;
    longitude: number;
    externalLocationId: string | null;
  };
}
