import type { DeliveryAssignmentResponse, TenantDelivery, TenantDeliveryAssignment } from '@marketplace/contracts';
import type { Assignment, Delivery } from '../../domain/delivery';
import { statusValue } from '../../domain/delivery';

const iso = (date: Date | null) => date && date.toISOString();

/** Spec: Delivery assignment response, the ten fields, statuses as integers. */
export function assignmentView(orderId: string, a: Assignment): DeliveryAssignmentResponse {
  return {
    assignmentId: a.assignmentId,
    orderId,
    appInstallationId: a.installationId,
    status: statusValue(a.status) as DeliveryAssignmentResponse['status'],
    assignedAtUtc: a.assignedAt.toISOString(),
    respondedAtUtc: iso(a.respondedAt),
    driverName: a.driverName,
    driverPhone: a.driverPhone,
    etaUtc: iso(a.eta),
    trackingUrl: a.trackingUrl,
  };
}

/** What the tenant sees of one assignment: the partner's view, the status name, when it ended, the pickup snapshot. */
export function tenantAssignmentView(orderId: string, a: Assignment): TenantDeliveryAssignment {
  const { branchId: _branchId, ...pickup } = a.pickup;
  return {
    ...assignmentView(orderId, a),
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
