import type { DeliveryEvent } from '@marketplace/contracts';
import {
  deliveredEvent,
  holdsLiveAssignment,
  LIVE_ASSIGNMENT_STATUSES,
  liveAssignmentOf,
  pickupBranch,
  type AssignmentStatusName,
  type LiveAssignment,
} from './delivery';

const installationId = '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a01';
const pickup = {
  branchId: '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a02',
  name: 'Mitte',
  address: 'Torstrasse 1, 10119 Berlin, DE',
  latitude: 52.53,
  longitude: 13.4,
  externalLocationId: 'loc-mitte',
};

const event = (overrides: Partial<DeliveryEvent> = {}): DeliveryEvent => ({
  tenantId: '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a03',
  orderId: '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a04',
  orderNumber: '1001',
  assignmentId: '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a05',
  installationId,
  status: 'Accepted',
  previousStatus: 'Assigned',
  live: { assignmentId: '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a05', installationId, status: 'Accepted', pickup },
  revision: 3,
  changedAt: '2026-11-22T10:00:00.000Z',
  ...overrides,
});

const live = (status: AssignmentStatusName): LiveAssignment => ({
  assignmentId: '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a05',
  installationId,
  status,
  pickup,
  revision: 1,
});

describe('the live assignment of a deliveries event', () => {
  it('is the event’s live assignment with its pickup snapshot and the event’s revision', () => {
    expect(liveAssignmentOf(event())).toEqual({
      assignmentId: '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a05',
      installationId,
      status: 'Accepted',
      pickup,
      revision: 3,
    });
  });

  it('is null when the order has none after the event', () => {
    expect(liveAssignmentOf(event({ live: null, status: 'Cancelled' }))).toBeNull();
  });
});

describe('holding the live assignment', () => {
  it.each(LIVE_ASSIGNMENT_STATUSES.map((status) => [status]))('is granted to its installation while %s', (status) => {
    expect(holdsLiveAssignment(live(status), installationId)).toBe(true);
  });

  it('is refused to another installation, without an assignment, and in a status that is not live', () => {
    expect(holdsLiveAssignment(live('Accepted'), '5a0c1a52-8a43-4f55-9d2b-0b1f4b9c7a99')).toBe(false);
    expect(holdsLiveAssignment(null, installationId)).toBe(false);
    for (const status of ['Rejected', 'Cancelled', 'Superseded', 'Terminated'] as const)
      expect(holdsLiveAssignment(live(status), installationId)).toBe(false);
  });
});

describe('a delivered event', () => {
  it('is a status change to Delivered, and nothing else', () => {
    expect(deliveredEvent('delivery.status-changed', event({ status: 'Delivered' }))).toBe(true);
    expect(deliveredEvent('delivery.status-changed', event({ status: 'InTransit' }))).toBe(false);
    expect(deliveredEvent('delivery.assigned', event({ status: 'Assigned' }))).toBe(false);
  });
});

it('shows the pickup snapshot as the Partner API’s branch, without the branch id', () => {
  expect(pickupBranch(pickup)).toEqual({
    name: 'Mitte',
    address: 'Torstrasse 1, 10119 Berlin, DE',
    latitude: 52.53,
    longitude: 13.4,
    externalLocationId: 'loc-mitte',
  });
});
