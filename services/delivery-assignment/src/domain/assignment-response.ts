import type { DeliveryAssignmentResponse } from '@marketplace/contracts';
import { statusValue, type Assignment } from './delivery';

const iso = (date: Date | null) => date && date.toISOString();

/**
 * Spec: Delivery assignment response, the ten fields, statuses as integers. Built here, not in the
 * HTTP layer: the partner actions store it with the change, to answer a repeated request with it.
 */
export function assignmentResponse(orderId: string, a: Assignment): DeliveryAssignmentResponse {
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
