import type { AppError } from '@marketplace/errors';
import type { Assignment, Delivery, Pickup } from './delivery';
import { assign, moveStatus, orderStatusChanged, partnerAction, updateDetails } from './rules';
import { deliveryEvents } from './delivery-events';

const NOW = new Date('2026-11-24T10:00:00Z');
const LATER = new Date('2026-11-24T10:05:00Z');
const A = 'inst-a';
const B = 'inst-b';
const pickup: Pickup = {
  branchId: 'branch-1',
  name: 'Mitte',
  address: 'Torstrasse 1, 10119 Berlin, DE',
  latitude: 52.53,
  longitude: 13.4,
  externalLocationId: 'loc-mitte',
};

function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    _id: 'order-1',
    tenantId: 'tenant-1',
    order: { orderNumber: '1001', branchId: 'branch-1', orderMode: 1, status: 'Pending' },
    live: null,
    history: [],
    version: 3,
    eventRevision: 2,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

function assignment(status: Assignment['status'], installationId = A, id = 'asg-1'): Assignment {
  return {
    assignmentId: id,
    installationId,
    status,
    assignedAt: NOW,
    respondedAt: status === 'Assigned' ? null : NOW,
    endedAt: null,
    driverName: null,
    driverPhone: null,
    eta: null,
    trackingUrl: null,
    pickup,
  };
}

const withLive = (status: Assignment['status'], installationId = A) =>
  delivery({ live: assignment(status, installationId) });

/** The error a rule throws: its code and its `status_detail`. */
function refusal(run: () => unknown): { kind: string; code: string; status?: string } {
  try {
    run();
  } catch (error) {
    const e = error as AppError;
    const detail = e.details?.status_detail as { status?: string } | undefined;
    return { kind: e.kind, code: e.code, ...(detail?.status ? { status: detail.status } : {}) };
  }
  throw new Error('the rule did not refuse');
}

describe('partner actions (spec: States and transitions, Delivery assignment)', () => {
  it('accept: Assigned → Accepted with respondedAt; one status-changed event', () => {
    const change = partnerAction(withLive('Assigned'), A, 'accept', LATER);
    expect(change.subject).toMatchObject({ status: 'Accepted', respondedAt: LATER });
    expect(change.next.live?.status).toBe('Accepted');
    expect(change.events).toEqual([
      { type: 'delivery.status-changed', assignment: change.subject, previousStatus: 'Assigned' },
    ]);
  });

  it('reject: Assigned → Rejected, moved to the history (no live assignment: nothing reassigned)', () => {
    const change = partnerAction(withLive('Assigned'), A, 'reject', LATER);
    expect(change.next.live).toBeNull();
    expect(change.next.history).toEqual([
      expect.objectContaining({ status: 'Rejected', endedAt: LATER, respondedAt: LATER }),
    ]);
    expect(change.subject.status).toBe('Rejected');
    expect(change.next.order).toEqual(delivery().order); // the order is untouched
  });

  it('cancel: from Accepted or InTransit only; the event is status-changed (no delivery.cancelled)', () => {
    for (const from of ['Accepted', 'InTransit'] as const) {
      const change = partnerAction(withLive(from), A, 'cancel', LATER);
      expect(change.subject.status).toBe('Cancelled');
      expect(change.events.map((e) => e.type)).toEqual(['delivery.status-changed']);
    }
  });

  it.each([
    ['accept', 'Accepted', 'delivery.accept_not_allowed'],
    ['accept', 'Delivered', 'delivery.accept_not_allowed'],
    ['reject', 'Accepted', 'delivery.reject_not_allowed'],
    ['reject', 'InTransit', 'delivery.reject_not_allowed'],
    ['cancel', 'Assigned', 'delivery.cancel_not_allowed'],
    ['cancel', 'Delivered', 'delivery.cancel_not_allowed'],
  ] as const)('%s while %s is 409 %s', (action, status, code) => {
    expect(refusal(() => partnerAction(withLive(status), A, action, LATER))).toEqual({
      kind: 'conflict',
      code,
      status,
    });
  });

  it('another installation, an ended assignment or no delivery: the generic 404', () => {
    expect(refusal(() => partnerAction(withLive('Assigned'), B, 'accept', LATER)).code).toBe('resource.not_found');
    expect(refusal(() => partnerAction(delivery(), A, 'accept', LATER)).code).toBe('resource.not_found');
    expect(refusal(() => partnerAction(undefined, A, 'accept', LATER)).code).toBe('resource.not_found');
  });
});

describe('status moves', () => {
  it('4 only from Accepted, 5 only from InTransit; Delivered stays the live assignment', () => {
    expect(moveStatus(withLive('Accepted'), A, 4, LATER).subject.status).toBe('InTransit');
    const delivered = moveStatus(withLive('InTransit'), A, 5, LATER);
    expect(delivered.next.live?.status).toBe('Delivered');
    expect(delivered.events[0]).toMatchObject({ type: 'delivery.status-changed', previousStatus: 'InTransit' });
  });

  it.each([
    [4, 'Assigned'],
    [4, 'InTransit'],
    [4, 'Delivered'],
    [5, 'Assigned'],
    [5, 'Accepted'],
    [5, 'Delivered'],
  ] as const)('%s from %s is 409 delivery.transition_not_allowed', (target, status) => {
    expect(refusal(() => moveStatus(withLive(status), A, target, LATER))).toEqual({
      kind: 'conflict',
      code: 'delivery.transition_not_allowed',
      status,
    });
  });
});

describe('driver, ETA and tracking', () => {
  it('change the live assignment while Accepted or InTransit, without events', () => {
    const change = updateDetails(withLive('InTransit'), A, { driverName: 'Max', driverPhone: '+49 170 1' }, LATER);
    expect(change.subject).toMatchObject({ driverName: 'Max', driverPhone: '+49 170 1', status: 'InTransit' });
    expect(change.events).toEqual([]);
  });

  it.each(['Assigned', 'Delivered'] as const)('while %s: 409 delivery.update_not_allowed', (status) => {
    expect(refusal(() => updateDetails(withLive(status), A, { eta: null }, LATER)).code).toBe(
      'delivery.update_not_allowed',
    );
  });
});

describe('assign (tenant)', () => {
  const input = (installationId = A) => ({ installationId, assignmentId: 'asg-new', pickup });

  it('a Delivery order without a live assignment: Assigned, with the pickup snapshot; delivery.assigned', () => {
    const change = assign(delivery(), input(), LATER);
    if ('unchanged' in change) throw new Error('expected a change');
    expect(change.subject).toMatchObject({ assignmentId: 'asg-new', status: 'Assigned', pickup, assignedAt: LATER });
    expect(change.events.map((e) => e.type)).toEqual(['delivery.assigned']);
  });

  it('the same installation while Assigned: unchanged', () => {
    const current = withLive('Assigned');
    expect(assign(current, input(A), LATER)).toEqual({ unchanged: current.live });
  });

  it('another installation while Assigned: the old one Superseded (told first), the new one Assigned', () => {
    const change = assign(withLive('Assigned'), input(B), LATER);
    if ('unchanged' in change) throw new Error('expected a change');
    expect(change.next.history).toEqual([expect.objectContaining({ assignmentId: 'asg-1', status: 'Superseded' })]);
    expect(change.events.map((e) => [e.type, e.assignment.installationId])).toEqual([
      ['delivery.superseded', A],
      ['delivery.assigned', B],
    ]);
  });

  it.each([
    ['Accepted', 'delivery.assignment_in_progress'],
    ['InTransit', 'delivery.assignment_in_progress'],
    ['Delivered', 'delivery.already_delivered'],
  ] as const)('while %s: 409 %s', (status, code) => {
    expect(refusal(() => assign(withLive(status), input(B), LATER))).toEqual({ kind: 'conflict', code, status });
  });

  it('a Pickup order is 422; a finished order is 409 with its status; a branch without a location is 422', () => {
    const pickupOrder = delivery({ order: { ...delivery().order, orderMode: 2 } });
    expect(refusal(() => assign(pickupOrder, input(), LATER))).toMatchObject({
      kind: 'unprocessable',
      code: 'delivery.order_not_deliverable',
    });
    for (const status of ['Completed', 'Rejected', 'Cancelled'] as const) {
      const finished = delivery({ order: { ...delivery().order, status } });
      expect(refusal(() => assign(finished, input(), LATER))).toEqual({
        kind: 'conflict',
        code: 'delivery.order_not_assignable',
        status,
      });
    }
    expect(
      refusal(() => assign(delivery(), { ...input(), pickup: 'the branch has no coordinates' }, LATER)),
    ).toMatchObject({
      kind: 'unprocessable',
      code: 'delivery.branch_not_locatable',
    });
  });
});

describe('the order changes', () => {
  it.each(['Cancelled', 'Rejected'] as const)('%s terminates an active assignment: delivery.cancelled', (status) => {
    for (const live of ['Assigned', 'Accepted', 'InTransit'] as const) {
      const change = orderStatusChanged(withLive(live), status, LATER)!;
      expect(change.next.live).toBeNull();
      expect(change.next.history).toEqual([expect.objectContaining({ status: 'Terminated', endedAt: LATER })]);
      expect(change.events).toEqual([
        { type: 'delivery.cancelled', assignment: change.next.history[0], previousStatus: live },
      ]);
    }
  });

  it('a Delivered assignment stays; Accepted or Completed only record the status', () => {
    const delivered = orderStatusChanged(withLive('Delivered'), 'Cancelled', LATER)!;
    expect(delivered.next.live?.status).toBe('Delivered');
    expect(delivered.events).toEqual([]);
    expect(orderStatusChanged(withLive('Accepted'), 'Accepted', LATER)?.next.order.status).toBe('Accepted');
    expect(orderStatusChanged(withLive('InTransit'), 'Completed', LATER)?.events).toEqual([]);
  });

  it('Cancelled after Completed (the tenant cancels from any status) still terminates an active assignment', () => {
    const completed = withLive('InTransit');
    const base = { ...completed, order: { ...completed.order, status: 'Completed' as const } };
    const change = orderStatusChanged(base, 'Cancelled', LATER)!;
    expect(change.next.order.status).toBe('Cancelled');
    expect(change.next.live).toBeNull();
    expect(change.events).toEqual([
      { type: 'delivery.cancelled', assignment: change.next.history[0], previousStatus: 'InTransit' },
    ]);
    // Cancelled is the last status: a late Completed or Rejected after it changes nothing.
    const cancelled = delivery({ order: { ...delivery().order, status: 'Cancelled' } });
    expect(orderStatusChanged(cancelled, 'Completed', LATER)).toBeUndefined();
    expect(orderStatusChanged(cancelled, 'Rejected', LATER)).toBeUndefined();
  });

  it('a repeated or late status changes nothing (statuses only move forward)', () => {
    const cancelled = delivery({ order: { ...delivery().order, status: 'Cancelled' } });
    expect(orderStatusChanged(cancelled, 'Cancelled', LATER)).toBeUndefined();
    expect(orderStatusChanged(cancelled, 'Accepted', LATER)).toBeUndefined();
    expect(orderStatusChanged(delivery(), 'Pending', LATER)).toBeUndefined();
  });
});

describe('events', () => {
  it('numbered after the last revision, each carrying the live assignment after the whole change', () => {
    const change = assign(withLive('Assigned'), { installationId: B, assignmentId: 'asg-2', pickup }, LATER);
    if ('unchanged' in change) throw new Error('expected a change');
    const { events, eventRevision } = deliveryEvents(change.next, change.events, LATER);
    expect(eventRevision).toBe(4);
    expect(events.map((e) => [e.type, e.data.revision, e.data.assignmentId, e.data.installationId])).toEqual([
      ['delivery.superseded', 3, 'asg-1', A],
      ['delivery.assigned', 4, 'asg-2', B],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ topic: 'deliveries', key: 'order-1' });
      expect(event.data.live).toEqual({ assignmentId: 'asg-2', installationId: B, status: 'Assigned', pickup });
    }
    expect(events[0]!.data).toMatchObject({ status: 'Superseded', previousStatus: 'Assigned', orderNumber: '1001' });
  });
});
