import type { PartnerIdentity } from '@marketplace/identity';
import type { LiveAssignment } from '../domain/delivery';
import type { Order } from '../domain/order';
import type { OrderingContext } from './context';
import { liveAssignmentOwnership, type DeliveriesCopyProgress } from './delivery-ownership';
import { readOrderAsPartner } from './order-reads';

// The partner read's decisions, with the order store and the deliveries copy faked: when it waits
// for the copy, and that whatever the wait ends in, a caller without the assignment gets the 404.

const SOURCE = 'source-installation';
const PROVIDER = 'provider-installation';

const assignment: LiveAssignment = {
  assignmentId: 'assignment-1',
  installationId: PROVIDER,
  status: 'Accepted',
  pickup: {
    branchId: 'b',
    name: 'Mitte',
    address: 'Torstrasse 1',
    latitude: 52.53,
    longitude: 13.4,
    externalLocationId: null,
  },
  revision: 2,
};
const order = (liveAssignment: LiveAssignment | null) =>
  ({ _id: 'order-1', tenantId: 'tenant-1', source: { installationId: SOURCE }, liveAssignment }) as unknown as Order;

const caller = (installationId: string, scopes: string[]) =>
  ({ kind: 'partner', tenantId: 'tenant-1', installationId, scopes }) as unknown as PartnerIdentity;

/** A context whose store answers `reads` in turn (the last one again after that). */
function context(reads: Array<Order | undefined>, wait: DeliveriesCopyProgress['waitUntil']) {
  const warnings: unknown[] = [];
  const waits: Date[] = [];
  let n = 0;
  const ctx = {
    store: { orders: { findById: async () => reads[Math.min(n++, reads.length - 1)] } },
    deliveryOwnership: liveAssignmentOwnership,
    deliveriesCopy: {
      handledUpTo: () => undefined,
      waitUntil: async (time: Date) => {
        waits.push(time);
        return wait(time);
      },
    },
    logger: { warn: (fields: unknown) => void warnings.push(fields) },
    now: () => new Date('2026-11-22T10:00:00.000Z'),
  } as unknown as OrderingContext;
  return { ctx, warnings, waits };
}

const caughtUp = async () => undefined;

describe('reading an order as a partner', () => {
  it('gives the source everything, without waiting', async () => {
    const { ctx, waits } = context([order(null)], caughtUp);
    expect(await readOrderAsPartner(ctx, caller(SOURCE, ['Orders.Create']), 'order-1')).toMatchObject({
      read: 'source',
    });
    expect(waits).toEqual([]);
  });

  it('gives the holder of the live assignment the delivery read, without waiting', async () => {
    const { ctx, waits } = context([order(assignment)], caughtUp);
    expect(await readOrderAsPartner(ctx, caller(PROVIDER, ['Orders.Read']), 'order-1')).toEqual({
      read: 'delivery',
      order: order(assignment),
      assignment,
    });
    expect(waits).toEqual([]);
  });

  it('waits for the deliveries copy to reach the request, then reads the order again', async () => {
    const { ctx, waits } = context([order(null), order(assignment)], caughtUp);
    expect(await readOrderAsPartner(ctx, caller(PROVIDER, ['Orders.Read']), 'order-1')).toMatchObject({
      read: 'delivery',
      assignment,
    });
    expect(waits).toEqual([new Date('2026-11-22T10:00:00.000Z')]);
  });

  it('is a 404 when the caller holds nothing once the copy caught up', async () => {
    const { ctx, warnings } = context([order({ ...assignment, installationId: 'another' })], caughtUp);
    await expect(readOrderAsPartner(ctx, caller(PROVIDER, ['Orders.Read']), 'order-1')).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(warnings).toEqual([]);
  });

  it('is a 404, logged, when the copy is still behind after the wait or Kafka cannot tell', async () => {
    const behind = context([order(null), order(assignment)], async () => 'deliveries: partition 0 at 3 of 4');
    await expect(readOrderAsPartner(behind.ctx, caller(PROVIDER, ['Orders.Read']), 'order-1')).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(behind.warnings).toEqual([expect.objectContaining({ behind: 'deliveries: partition 0 at 3 of 4' })]);

    const failing = context([order(null)], () => Promise.reject(new Error('broker away')));
    await expect(readOrderAsPartner(failing.ctx, caller(PROVIDER, ['Orders.Read']), 'order-1')).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(failing.warnings).toHaveLength(1);
  });

  it('is a 404 without waiting for a missing order, or a caller without Orders.Read', async () => {
    const missing = context([undefined], caughtUp);
    await expect(readOrderAsPartner(missing.ctx, caller(PROVIDER, ['Orders.Read']), 'order-1')).rejects.toMatchObject({
      kind: 'not_found',
    });
    const noScope = context([order(null)], caughtUp);
    await expect(readOrderAsPartner(noScope.ctx, caller(PROVIDER, ['Orders.Create']), 'order-1')).rejects.toMatchObject(
      {
        kind: 'not_found',
      },
    );
    expect([...missing.waits, ...noScope.waits]).toEqual([]);
  });
});
