import type { TenantDelivery, TenantDeliveryAssignment } from '@marketplace/contracts';
import { assignmentResponse } from '../../domain/assignment-response';
import type { Assignment, Delivery } from '../../domain/delivery';

const iso = (date: Date | null) => date && date.toISOString();

/** What the tenant sees of one assignment: the partner's view (domain/assignment-response.ts), the status name, when it ended, the pickup snapshot. */
export function tenantAssignmentView(orderId: string, a: Assignment): TenantDeliveryAssignment {
  const { branchId: _branchId, ...pickup } = a.pickup;
  return {
    ...assignmentResponse(orderId, a),
    statusName: a.status,
    endedAtUtc: iso(a.endedAt),
    pickup,
  };
}

export function tenantDeliveryView(delivery: Delivery): TenantDelivery {
  return {
    orderId: delivery._id,
    orderNumber: delivery.order.orderNumber,
    live: delivery.live && tenantAssignmentView(delivery._id, delivery.live),
    history: delivery.history.map((a) => tenantAssignmentView(delivery._id, a)),
  };
}
