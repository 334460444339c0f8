import { TOPICS, type DeliveryEvent } from '@marketplace/contracts';
import type { Delivery } from './delivery';
import type { DeliveryEventSpec } from './rules';

/**
 * One event to stage in the outbox: the shape `@marketplace/events` publishes on the deliveries
 * topic, spelled out from the contracts so that the domain loads no Kafka client. Its data is the
 * schema's type (schemas/deliveries.schema.json): an event that drifts from it does not compile.
 */
export interface OutgoingDeliveryEvent {
  topic: typeof TOPICS.deliveries;
  key: string;
  type: DeliveryEventSpec['type'];
  data: DeliveryEvent;
}

/**
 * The events of one change, numbered after the delivery's last revision. Each carries the order's
 * live assignment after the whole change (with the branch snapshot), so that a consumer keeping
 * the highest revision holds the right one whichever event it saw last.
 */
export function deliveryEvents(
  next: Delivery,
  specs: readonly DeliveryEventSpec[],
  at: Date,
): { events: OutgoingDeliveryEvent[]; eventRevision: number } {
  const live = next.live && {
    assignmentId: next.live.assignmentId,
    installationId: next.live.installationId,
    status: next.live.status,
    pickup: next.live.pickup,
  };
  const events = specs.map((spec, i): OutgoingDeliveryEvent => ({
    topic: TOPICS.deliveries,
    key: next._id,
    type: spec.type,
    data: {
      tenantId: next.tenantId,
      orderId: next._id,
      orderNumber: next.order.orderNumber,
      assignmentId: spec.assignment.assignmentId,
      installationId: spec.assignment.installationId,
      status: spec.assignment.status,
      previousStatus: spec.previousStatus,
      live,
      revision: next.eventRevision + i + 1,
      changedAt: at.toISOString(),
    },
  }));
  return { events, eventRevision: next.eventRevision + specs.length };
}
