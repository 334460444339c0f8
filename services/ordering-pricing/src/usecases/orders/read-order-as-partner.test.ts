import type { HeldAssignment, PartnerIdentity } from '@marketplace/identity';
import type { Order } from '../../domain/order';
import type { OrderingContext } from '../context';
import { readOrderAsPartner } from './read-order-as-partner';

// The partner read's decisions, with the order store faked. Who holds the live assignment comes
// with the caller's identity (the gateway asked delivery-assignment just before): the order's own
// copy of its assignment plays no part, whatever it says.

const SOURCE = 'source-installation';
const PROVIDER = 'provider-installation';

const held: HeldAssignment = {
  orderId: 'order-1',
  assignmentId: 'assignment-1',
  pickup: {
    branchId: 'b',
    name: 'Mitte',
    address: 'Torstrasse 1',
    latitude: 52.53,
    longitude: 13.4,
    externalLocationId: null,
  },
};
/** An order whose copy of its live assignment names the provider: it must not grant the read. */
const order = {
  _id: 'order-1',
  tenantId: 'tenant-1',
  source: { installationId: SOURCE },
  liveAssignment: { assignmentId: 'assignment-1', installationId: PROVIDER, status: 'Accepted', revision: 2 },
} as unknown as Order;

const caller = (installationId: string, scopes: string[], heldAssignment?: HeldAssignment) =>
  ({ kind: 'partner', tenantId: 'tenant-1', installationId, scopes, heldAssignment }) as unknown as PartnerIdentity;

const context = (stored: Order | undefined) =>
  ({ store: { orders: { findById: async () => stored } } }) as unknown as OrderingContext;

describe('reading an order as a partner', () => {
  it('gives the source everything', async () => {
    expect(await readOrderAsPartner(context(order), caller(SOURCE, ['Orders.Create']), 'order-1')).toEqual({
      read: 'source',
      order,
    });
  });

  it('gives the holder delivery-assignment named the delivery read, with the pickup it was sent to', async () => {
    expect(await readOrderAsPartner(context(order), caller(PROVIDER, ['Orders.Read'], held), 'order-1')).toEqual({
      read: 'delivery',
      order,
      pickup: held.pickup,
    });
  });

  it('is a 404 without a held assignment, whatever the order’s copy of it says', async () => {
    await expect(
      readOrderAsPartner(context(order), caller(PROVIDER, ['Orders.Read']), 'order-1'),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('is a 404 for a held assignment of another order', async () => {
    const other = caller(PROVIDER, ['Orders.Read'], { ...held, orderId: 'order-2' });
    await expect(readOrderAsPartner(context(order), other, 'order-1')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('is a 404 for a missing order, or a caller without Orders.Read', async () => {
    await expect(
      readOrderAsPartner(context(undefined), caller(PROVIDER, ['Orders.Read'], held), 'order-1'),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(
      readOrderAsPartner(context(order), caller(PROVIDER, ['Orders.Create'], held), 'order-1'),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });
});
