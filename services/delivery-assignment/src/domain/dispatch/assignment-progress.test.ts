import type { ProviderStatusName } from '@marketplace/contracts';
import type { Assignment, Delivery, Pickup } from '../delivery';
import type { DeliveryChange, NoChange } from '../rules';
import { endUnstarted, followProvider } from './assignment-progress';
import type { ProviderState } from './provider-state';

const ASSIGNED_AT = new Date('2026-11-24T10:00:00Z');
const EVENT = new Date('2026-11-24T10:04:00Z');
const NOW = new Date('2026-11-24T10:05:00Z');
const ETA = new Date('2026-11-24T10:40:00Z');
const ASG = 'asg-1';

const pickup: Pickup = {
  branchId: 'branch-1',
  name: 'Mitte',
  address: 'Torstrasse 1, 10119 Berlin, DE',
  latitude: 52.53,
  longitude: 13.4,
  externalLocationId: null,
};

function assignment(status: Assignment['status'], overrides: Partial<Assignment> = {}): Assignment {
  return {
    assignmentId: ASG,
    installationId: 'inst-conn-1',
    status,
    assignedAt: ASSIGNED_AT,
    respondedAt: status === 'Assigned' ? null : ASSIGNED_AT,
    endedAt: null,
    driverName: null,
    driverPhone: null,
    eta: null,
    trackingUrl: null,
    pickup,
    ...overrides,
  };
}

function delivery(live: Assignment | null, history: Assignment[] = []): Delivery {
  return {
    _id: 'order-1',
    tenantId: 'tenant-1',
    order: { orderNumber: '1001', branchId: 'branch-1', orderMode: 1, status: 'Accepted' },
    live,
    history,
    version: 3,
    eventRevision: 2,
    createdAt: ASSIGNED_AT,
    updatedAt: ASSIGNED_AT,
  };
}

function provider(status: ProviderStatusName, overrides: Partial<ProviderState> = {}): ProviderState {
  return {
    status,
    eventTime: EVENT,
    driverName: null,
    driverPhone: null,
    driverLat: null,
    driverLng: null,
    trackingUrl: null,
    eta: null,
    ...overrides,
  };
}

const withDriver = {
  driverName: 'Dana',
  driverPhone: '+49 170 1',
  trackingUrl: 'https://track.example/d-1',
  eta: ETA,
};

type Outcome = DeliveryChange | NoChange | { gone: true };
function change(outcome: Outcome): DeliveryChange {
  if (!('next' in outcome)) throw new Error(`expected a change, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('followProvider: the assignment moves forward', () => {
  it.each<[Assignment['status'], ProviderStatusName, Assignment['status']]>([
    ['Assigned', 'provider_accepted', 'Accepted'],
    ['Assigned', 'driver_assigned', 'Accepted'],
    ['Assigned', 'arrived_at_pickup', 'Accepted'],
    ['Assigned', 'picked_up', 'InTransit'],
    ['Assigned', 'on_the_way', 'InTransit'],
    ['Assigned', 'delivered', 'Delivered'],
    ['Accepted', 'picked_up', 'InTransit'],
    ['Accepted', 'on_the_way', 'InTransit'],
    ['Accepted', 'return_requested', 'InTransit'],
    ['Accepted', 'returning_to_origin', 'InTransit'],
    ['Accepted', 'delivered', 'Delivered'],
    ['InTransit', 'delivered', 'Delivered'],
  ])('%s, the provider %s: %s, with one status-changed event', (from, status, to) => {
    const before = delivery(assignment(from));
    const moved = change(followProvider(before, ASG, provider(status), NOW));
    expect(moved.subject).toMatchObject({ assignmentId: ASG, status: to, endedAt: null });
    expect(moved.next.live).toEqual(moved.subject);
    expect(moved.next.history).toEqual([]);
    expect(moved.next.updatedAt).toEqual(NOW);
    expect(moved.events).toEqual([
      { type: 'delivery.status-changed', assignment: moved.subject, previousStatus: from },
    ]);
  });

  it('out of Assigned, the assignment is responded to now; later moves keep that time', () => {
    const accepted = change(followProvider(delivery(assignment('Assigned')), ASG, provider('provider_accepted'), NOW));
    expect(accepted.subject.respondedAt).toEqual(NOW);
    const skipped = change(followProvider(delivery(assignment('Assigned')), ASG, provider('picked_up'), NOW));
    expect(skipped.subject.respondedAt).toEqual(NOW);
    const inTransit = change(followProvider(delivery(assignment('Accepted')), ASG, provider('on_the_way'), NOW));
    expect(inTransit.subject.respondedAt).toEqual(ASSIGNED_AT);
  });

  it("takes the provider's driver, phone, tracking URL and ETA with the move", () => {
    const moved = change(
      followProvider(delivery(assignment('Assigned')), ASG, provider('driver_assigned', withDriver), NOW),
    );
    expect(moved.subject).toEqual({ ...assignment('Accepted', withDriver), respondedAt: NOW });
  });

  it('the coordinates are not copied (the assignment has no position)', () => {
    const moved = change(
      followProvider(
        delivery(assignment('Accepted')),
        ASG,
        provider('on_the_way', { driverLat: 52.5, driverLng: 13.4 }),
        NOW,
      ),
    );
    expect(moved.subject).toEqual(assignment('InTransit'));
  });

  it('does not touch the order, the history or the other fields of the delivery', () => {
    const old = assignment('Rejected', { assignmentId: 'asg-0', endedAt: ASSIGNED_AT });
    const before = delivery(assignment('Accepted'), [old]);
    const moved = change(followProvider(before, ASG, provider('picked_up'), NOW));
    expect(moved.next).toEqual({ ...before, live: assignment('InTransit'), updatedAt: NOW });
  });
});

describe('followProvider: never backward', () => {
  it.each<[Assignment['status'], ProviderStatusName]>([
    ['Assigned', 'sent_to_provider'],
    ['Accepted', 'sent_to_provider'],
    ['Accepted', 'provider_accepted'],
    ['Accepted', 'driver_assigned'],
    ['Accepted', 'arrived_at_pickup'],
    ['InTransit', 'sent_to_provider'],
    ['InTransit', 'provider_accepted'],
    ['InTransit', 'arrived_at_pickup'],
    ['InTransit', 'picked_up'],
    ['InTransit', 'on_the_way'],
    ['InTransit', 'returning_to_origin'],
    ['Delivered', 'provider_accepted'],
    ['Delivered', 'on_the_way'],
    ['Delivered', 'delivered'],
  ])('%s, the provider %s with nothing new: unchanged', (from, status) => {
    const live = assignment(from);
    expect(followProvider(delivery(live), ASG, provider(status), NOW)).toEqual({ unchanged: live });
  });

  it('unchanged when the assignment says all the provider does already', () => {
    const live = assignment('InTransit', withDriver);
    const state = provider('on_the_way', { ...withDriver, eta: new Date(ETA.getTime()) });
    expect(followProvider(delivery(live), ASG, state, NOW)).toEqual({ unchanged: live });
  });
});

describe('followProvider: details only', () => {
  it.each<[Assignment['status'], ProviderStatusName]>([
    ['Assigned', 'sent_to_provider'],
    ['Accepted', 'driver_assigned'],
    ['InTransit', 'on_the_way'],
    ['InTransit', 'picked_up'],
  ])('%s, the provider %s with a new driver: the details change, the status not, no event', (from, status) => {
    const updated = change(followProvider(delivery(assignment(from)), ASG, provider(status, withDriver), NOW));
    expect(updated.subject).toEqual(assignment(from, withDriver));
    expect(updated.next.live).toEqual(updated.subject);
    expect(updated.next.updatedAt).toEqual(NOW);
    expect(updated.events).toEqual([]);
  });

  it('each detail alone is taken, and a null clears it', () => {
    const live = assignment('InTransit', withDriver);
    const base = provider('on_the_way', withDriver);
    const cases: Array<[Partial<ProviderState>, Partial<Assignment>]> = [
      [{ driverName: 'Max' }, { driverName: 'Max' }],
      [{ driverPhone: '+49 170 2' }, { driverPhone: '+49 170 2' }],
      [{ trackingUrl: 'https://track.example/d-2' }, { trackingUrl: 'https://track.example/d-2' }],
      [{ eta: new Date('2026-11-24T10:50:00Z') }, { eta: new Date('2026-11-24T10:50:00Z') }],
      [{ eta: null }, { eta: null }],
      [
        { driverName: null, driverPhone: null },
        { driverName: null, driverPhone: null },
      ],
      [{ trackingUrl: null }, { trackingUrl: null }],
    ];
    for (const [reported, expected] of cases) {
      const updated = change(followProvider(delivery(live), ASG, { ...base, ...reported }, NOW));
      expect(updated.subject).toEqual({ ...live, ...expected });
      expect(updated.events).toEqual([]);
    }
  });
});

describe('followProvider: the provider delivery ended without delivering', () => {
  it.each<[Assignment['status'], ProviderStatusName]>([
    ['Assigned', 'cancelled'],
    ['Assigned', 'failed'],
    ['Accepted', 'cancelled'],
    ['Accepted', 'failed'],
    ['InTransit', 'cancelled'],
    ['InTransit', 'failed'],
    ['InTransit', 'returned_to_origin'],
    ['InTransit', 'return_failed'],
    ['Accepted', 'returned_to_origin'],
  ])('%s, the provider %s: Cancelled, moved to the history with endedAt', (from, status) => {
    const before = delivery(assignment(from));
    const ended = change(followProvider(before, ASG, provider(status), NOW));
    expect(ended.next.live).toBeNull();
    expect(ended.subject).toEqual({ ...assignment(from), status: 'Cancelled', endedAt: NOW });
    expect(ended.next.history).toEqual([ended.subject]);
    expect(ended.next.updatedAt).toEqual(NOW);
    expect(ended.events).toEqual([
      { type: 'delivery.status-changed', assignment: ended.subject, previousStatus: from },
    ]);
  });

  it('the last details reported are kept on the ended assignment, after the earlier ones in the history', () => {
    const old = assignment('Superseded', { assignmentId: 'asg-0', endedAt: ASSIGNED_AT });
    const ended = change(
      followProvider(delivery(assignment('Accepted'), [old]), ASG, provider('cancelled', withDriver), NOW),
    );
    expect(ended.next.history).toEqual([
      old,
      { ...assignment('Accepted', withDriver), status: 'Cancelled', endedAt: NOW },
    ]);
  });
});

describe('followProvider: the assignment is not the live one', () => {
  it('no delivery, no live assignment, or another live assignment: gone', () => {
    expect(followProvider(undefined, ASG, provider('picked_up'), NOW)).toEqual({ gone: true });
    const ended = assignment('Superseded', { endedAt: ASSIGNED_AT });
    expect(followProvider(delivery(null, [ended]), ASG, provider('picked_up'), NOW)).toEqual({ gone: true });
    const other = delivery(assignment('Assigned', { assignmentId: 'asg-2' }), [ended]);
    expect(followProvider(other, ASG, provider('picked_up'), NOW)).toEqual({ gone: true });
    expect(followProvider(other, ASG, provider('cancelled'), NOW)).toEqual({ gone: true });
  });
});

describe('endUnstarted (the provider refused, or the create failed)', () => {
  it('an Assigned assignment ends Rejected, responded to and ended now, with one event', () => {
    const ended = change(endUnstarted(delivery(assignment('Assigned')), ASG, NOW));
    expect(ended.next.live).toBeNull();
    expect(ended.subject).toEqual({ ...assignment('Assigned'), status: 'Rejected', respondedAt: NOW, endedAt: NOW });
    expect(ended.next.history).toEqual([ended.subject]);
    expect(ended.events).toEqual([
      { type: 'delivery.status-changed', assignment: ended.subject, previousStatus: 'Assigned' },
    ]);
  });

  it.each(['Accepted', 'InTransit', 'Delivered'] as const)(
    'a %s assignment (the callbacks moved it already): unchanged',
    (status) => {
      const live = assignment(status);
      expect(endUnstarted(delivery(live), ASG, NOW)).toEqual({ unchanged: live });
    },
  );

  it('not the live assignment: gone', () => {
    expect(endUnstarted(undefined, ASG, NOW)).toEqual({ gone: true });
    expect(endUnstarted(delivery(null), ASG, NOW)).toEqual({ gone: true });
    expect(endUnstarted(delivery(assignment('Assigned', { assignmentId: 'asg-2' })), ASG, NOW)).toEqual({
      gone: true,
    });
  });
});
