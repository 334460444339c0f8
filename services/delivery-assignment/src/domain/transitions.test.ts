import type { Assignment, Delivery } from './delivery';
import { assign } from './rules';
import { assignmentTransitions } from './transitions';

// Which assignment statuses a write changed: what delivery_assignment_transitions_total counts.
const now = new Date('2026-01-01T12:00:00Z');
const pickup = {
  branchId: 'b-1',
  name: 'Mitte',
  address: 'Street 1',
  latitude: 52.5,
  longitude: 13.4,
  externalLocationId: null,
};
const order: Delivery = {
  _id: 'o-1',
  tenantId: 't-1',
  order: { orderNumber: '1', branchId: 'b-1', orderMode: 1, status: 'Pending' },
  live: null,
  history: [],
  version: 1,
  eventRevision: 0,
  createdAt: now,
  updatedAt: now,
};
const next = (delivery: Delivery, installationId: string, assignmentId: string) => {
  const change = assign(delivery, { installationId, assignmentId, pickup }, now);
  if ('unchanged' in change) throw new Error('expected a change');
  return change.next;
};

describe('assignmentTransitions', () => {
  it('counts a new assignment from none, and a reassignment as the new one plus the superseded one', () => {
    const first = next(order, 'inst-a', 'as-1');
    expect(assignmentTransitions(order, first)).toEqual([{ from: 'none', to: 'Assigned' }]);
    const second = next(first, 'inst-b', 'as-2');
    expect(assignmentTransitions(first, second)).toEqual([
      { from: 'Assigned', to: 'Superseded' },
      { from: 'none', to: 'Assigned' },
    ]);
  });

  it('counts a status move of the live assignment once, and nothing when no status changed', () => {
    const assigned = next(order, 'inst-a', 'as-1');
    const accepted: Delivery = { ...assigned, live: { ...(assigned.live as Assignment), status: 'Accepted' } };
    expect(assignmentTransitions(assigned, accepted)).toEqual([{ from: 'Assigned', to: 'Accepted' }]);
    const withDriver: Delivery = { ...accepted, live: { ...(accepted.live as Assignment), driverName: 'Dana' } };
    expect(assignmentTransitions(accepted, withDriver)).toEqual([]);
    expect(assignmentTransitions(undefined, order)).toEqual([]);
  });
});
