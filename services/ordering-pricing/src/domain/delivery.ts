import type { DeliveryEvent, EventTypeOf, TOPICS } from '@marketplace/contracts';

/** An assignment status as the `deliveries` topic names it. */
export type AssignmentStatusName = DeliveryEvent['status'];

/**
 * The statuses in which an assignment is the order's live one (the `deliveries` schema's `live`);
 * only in these does its installation read the order.
 */
export const LIVE_ASSIGNMENT_STATUSES: readonly AssignmentStatusName[] = [
  'Assigned',
  'Accepted',
  'InTransit',
  'Delivered',
];

/** The branch as it was when the order was assigned: what a driver is sent to. */
export interface PickupSnapshot {
  branchId: string;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  externalLocationId: string | null;
}

/** The order's live delivery assignment, as the latest applied `deliveries` event gave it. */
export interface LiveAssignment {
  assignmentId: string;
  installationId: string;
  status: AssignmentStatusName;
  pickup: PickupSnapshot;
  /** The revision of the event that gave it. */
  revision: number;
}

/** The order's live assignment after the event (null: none), copied with the event's revision. */
export function liveAssignmentOf(event: DeliveryEvent): LiveAssignment | null {
  const live = event.live;
  if (!live) return null;
  const { branchId, name, address, latitude, longitude, externalLocationId } = live.pickup;
  return {
    assignmentId: live.assignmentId,
    installationId: live.installationId,
    status: live.status,
    pickup: { branchId, name, address, latitude, longitude, externalLocationId },
    revision: event.revision,
  };
}

/**
 * Whether the installation holds the live assignment. The status is checked again although `live`
 * only ever carries live statuses: a read is refused rather than granted on anything else.
 */
export function holdsLiveAssignment(live: LiveAssignment | null, installationId: string): live is LiveAssignment {
  return live !== null && live.installationId === installationId && LIVE_ASSIGNMENT_STATUSES.includes(live.status);
}

/** A delivery reported Delivered: its order is complete (see `completeByDelivery` in order-status.ts). */
export function deliveredEvent(type: EventTypeOf<typeof TOPICS.deliveries>, event: DeliveryEvent): boolean {
  return type === 'delivery.status-changed' && event.status === 'Delivered';
}

/** The Partner API's branch pickup info from the snapshot (the branch id is not part of it). */
export function pickupBranch(pickup: PickupSnapshot): Omit<PickupSnapshot, 'branchId'> {
  return {
    name: pickup.name,
    address: pickup.address,
    latitude: pickup.latitude,
    longitude: pickup.longitude,
    externalLocationId: pickup.externalLocationId,
  };
}
