import { Counter, type Registry } from 'prom-client';
import type { AssignmentMetrics } from '../usecases/ports';

/**
 * Assignment status transitions, `from` (`none` for a new assignment) and `to` by status name:
 * assignments made, accepted, rejected, superseded, delivered, terminated. Both labels are the
 * bounded list of assignment statuses; no label names a tenant, an order or an installation.
 */
export function assignmentMetrics(registry: Registry): AssignmentMetrics {
  const transitions = new Counter({
    name: 'delivery_assignment_transitions_total',
    help: 'Delivery assignment status changes, by the status before (none: a new assignment) and after.',
    labelNames: ['from', 'to'],
    registers: [registry],
  });
  return { transitioned: ({ from, to }) => transitions.inc({ from, to }) };
}
