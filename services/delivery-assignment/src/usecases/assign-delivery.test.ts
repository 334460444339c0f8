import type { OutgoingEvent } from '@marketplace/events';
import type { BranchCopyDoc } from '../adapters/branch-copies-repository';
import type { InstallationCopyDoc } from '../adapters/installation-copies-repository';
import type { Delivery } from '../domain/delivery';
import type { AssignmentTransition } from '../domain/transitions';
import { assignDelivery } from './assign-delivery';
import type { DeliveryContext } from './context';
import type { RecentDeliveries } from './ports';

// assignDelivery waits for the copies, checks the installation and the branch, and writes the
// assignment with its events: run on in-memory ports (a map of deliveries, a list of published ids).
const now = new Date('2026-01-01T12:00:00Z');
const tenant = { tenantId: 't-1' };
const pending: Delivery = {
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
const installation: InstallationCopyDoc = {
  _id: 'inst-a',
  tenantId: 't-1',
  revision: 1,
  connected: true,
  scopes: ['Delivery.Accept'],
  webhookUrl: 'https://provider.example/hook',
  subscribedEvents: ['delivery.assigned'],
  hasWebhookSecret: true,
};
const branch: BranchCopyDoc = {
  _id: 'b-1',
  tenantId: 't-1',
  sequence: 3,
  deleted: false,
  name: 'Mitte',
  address: 'Street 1',
  latitude: 52.5,
  longitude: 13.4,
  externalLocationId: null,
};

function fakeContext(options: { installation?: InstallationCopyDoc; branch?: BranchCopyDoc } = {}) {
  const deliveries = new Map([[pending._id, pending]]);
  const published: string[] = [];
  const written: OutgoingEvent[][] = [];
  const transitions: AssignmentTransition[] = [];
  const waitedFor: Date[] = [];
  const recent: RecentDeliveries = { get: () => undefined, remember: () => undefined, forget: () => undefined };
  const ctx = {
    store: {
      deliveries: {
        findByOrder: async (_owner: unknown, orderId: string) => deliveries.get(orderId),
        replaceIfUnchanged: async (_owner: unknown, next: Delivery, events: OutgoingEvent[]) => {
          if (deliveries.get(next._id)?.version !== next.version - 1) return false;
          deliveries.set(next._id, next);
          written.push(events);
          return true;
        },
      },
      installations: { find: async () => ('installation' in options ? options.installation : installation) },
      branches: { find: async () => ('branch' in options ? options.branch : branch) },
      connectionInstallations: { find: async () => undefined },
      connections: { find: async () => undefined },
    },
    events: { publish: async (orderId: string) => void published.push(orderId) },
    recent,
    metrics: { transitioned: (t: AssignmentTransition) => void transitions.push(t) },
    copiesCaughtUp: async (time: Date) => void waitedFor.push(time),
    now: () => now,
    newId: () => 'as-1',
  } as unknown as DeliveryContext;
  return { ctx, deliveries, published, written, transitions, waitedFor };
}

describe('assignDelivery', () => {
  it('waits for the copies, assigns with a pickup from the branch copy, and publishes', async () => {
    const { ctx, deliveries, published, written, transitions, waitedFor } = fakeContext();
    const { assignment, created } = await assignDelivery(ctx, tenant, 'o-1', 'inst-a');
    expect(waitedFor).toEqual([now]);
    expect(created).toBe(true);
    expect(assignment).toMatchObject({
      assignmentId: 'as-1',
      installationId: 'inst-a',
      status: 'Assigned',
      pickup: { branchId: 'b-1', name: 'Mitte', address: 'Street 1', latitude: 52.5, longitude: 13.4 },
    });
    expect(deliveries.get('o-1')).toMatchObject({ version: 2, live: { assignmentId: 'as-1' } });
    expect(written[0]!.length).toBeGreaterThan(0);
    expect(published).toEqual(['o-1']);
    expect(transitions).toEqual([{ from: 'none', to: 'Assigned' }]);
  });

  it('answers the live assignment unchanged when the same installation holds it', async () => {
    const { ctx, published } = fakeContext();
    await assignDelivery(ctx, tenant, 'o-1', 'inst-a');
    const again = await assignDelivery(ctx, tenant, 'o-1', 'inst-a');
    expect(again.created).toBe(false);
    expect(again.assignment.assignmentId).toBe('as-1');
    expect(published).toEqual(['o-1']);
  });

  it('refuses an installation the tenant does not have (422), writing nothing', async () => {
    const { ctx, published } = fakeContext({ installation: undefined });
    await expect(assignDelivery(ctx, tenant, 'o-1', 'inst-x')).rejects.toMatchObject({
      kind: 'unprocessable',
      code: 'delivery.installation_unknown',
    });
    expect(published).toEqual([]);
  });

  it('refuses a disconnected installation with its own code', async () => {
    const { ctx } = fakeContext({ installation: { ...installation, connected: false } });
    await expect(assignDelivery(ctx, tenant, 'o-1', 'inst-a')).rejects.toMatchObject({
      code: 'delivery.installation_not_connected',
    });
  });

  it('refuses a branch without coordinates as a pickup', async () => {
    const { ctx, deliveries } = fakeContext({ branch: { ...branch, latitude: null } });
    await expect(assignDelivery(ctx, tenant, 'o-1', 'inst-a')).rejects.toMatchObject({
      code: 'delivery.branch_not_locatable',
      message: expect.stringContaining('the branch has no coordinates'),
    });
    expect(deliveries.get('o-1')!.version).toBe(1);
  });

  it('answers 404 for an order it has no delivery of', async () => {
    const { ctx } = fakeContext();
    await expect(assignDelivery(ctx, tenant, 'o-2', 'inst-a')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
