import type { Delivery } from '../domain/delivery';
import type { AssignmentTransition } from '../domain/transitions';
import { changeDelivery } from './change-delivery';
import type { DeliveryContext } from './context';
import { RecentDeliveryCache } from '../adapters/recent-deliveries';

// changeDelivery reports the status transitions of the writes that landed, and only those.
const now = new Date('2026-01-01T12:00:00Z');
const pickup = {
  branchId: 'b-1',
  name: 'Mitte',
  address: 'Street 1',
  latitude: 52.5,
  longitude: 13.4,
  externalLocationId: null,
};
const stored: Delivery = {
  _id: 'o-1',
  tenantId: 't-1',
  order: { orderNumber: '1', branchId: 'b-1', orderMode: 1, status: 'Pending' },
  live: {
    assignmentId: 'as-1',
    installationId: 'inst-a',
    status: 'Assigned',
    assignedAt: now,
    respondedAt: null,
    endedAt: null,
    driverName: null,
    driverPhone: null,
    eta: null,
    trackingUrl: null,
    pickup,
  },
  history: [],
  version: 1,
  eventRevision: 1,
  createdAt: now,
  updatedAt: now,
};

function context(writes: boolean[]) {
  const seen: AssignmentTransition[] = [];
  const ctx = {
    store: {
      deliveries: {
        findByOrder: async () => stored,
        replaceIfUnchanged: async () => writes.shift() ?? false,
      },
    },
    events: { publish: async () => undefined },
    recent: new RecentDeliveryCache(),
    metrics: { transitioned: (t: AssignmentTransition) => seen.push(t) },
    logger: undefined,
    now: () => now,
    newId: () => 'id',
    copiesCaughtUp: async () => undefined,
  } as unknown as DeliveryContext;
  return { ctx, seen };
}

const accept = (delivery: Delivery | undefined) => ({
  next: { ...delivery!, live: { ...delivery!.live!, status: 'Accepted' as const, respondedAt: now } },
  events: [],
});

describe('changeDelivery metrics', () => {
  it('reports the transition of a write that landed, once, after a lost race', async () => {
    const { ctx, seen } = context([false, true]);
    await changeDelivery(ctx, { tenantId: 't-1' }, 'o-1', accept);
    expect(seen).toEqual([{ from: 'Assigned', to: 'Accepted' }]);
  });

  it('reports nothing for a decision that changes nothing', async () => {
    const { ctx, seen } = context([true]);
    await changeDelivery(ctx, { tenantId: 't-1' }, 'o-1', () => ({ unchanged: null }));
    expect(seen).toEqual([]);
  });
});
