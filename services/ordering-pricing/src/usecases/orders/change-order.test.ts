import type { OutgoingEvent } from '@marketplace/events';
import type { Order } from '../../domain/order';
import { ORDER_STATUS } from '../../domain/order-status';
import type { OrderingContext } from '../context';
import type { OrderingRepositories } from '../ports';
import { changeOrder } from './change-order';

// Changing an order with its ports faked in memory: the decision runs under the order's lock on
// the order as read; a status change is added to the history; the events are written with the
// change and published right after, and a change without events publishes nothing.

const NOW = new Date('2026-01-10T12:00:00Z');
const stored = {
  _id: 'order-1',
  tenantId: 'tenant-1',
  status: ORDER_STATUS.Pending,
  history: [{ status: 'Pending', at: new Date('2026-01-10T11:00:00Z'), by: 'source' }],
  updatedAt: new Date('2026-01-10T11:00:00Z'),
} as unknown as Order;
const EVENT = { type: 'orders.status-changed' } as unknown as OutgoingEvent;

function fakes(order: Order | undefined) {
  const writes: Array<{ set: Partial<Order>; events: OutgoingEvent[] }> = [];
  const flushed: string[] = [];
  const locked: string[] = [];
  const orders: Pick<OrderingRepositories['orders'], 'findById' | 'updateWithEvents'> = {
    findById: async () => order,
    updateWithEvents: async (_owner, _id, set, events) => {
      writes.push({ set, events });
      return true;
    },
  };
  const ctx = {
    store: { orders } as OrderingRepositories,
    orderLock: {
      run: async (id, work) => {
        locked.push(id);
        return work();
      },
    },
    orderOutbox: { flush: async (id) => void flushed.push(id) },
    now: () => NOW,
  } as Pick<OrderingContext, 'store' | 'orderLock' | 'orderOutbox' | 'now'>;
  return { ctx: ctx as OrderingContext, writes, flushed, locked };
}

describe('changing an order', () => {
  it('writes a status change with its history entry and events, under the lock, then publishes', async () => {
    const { ctx, writes, flushed, locked } = fakes(stored);
    const next = await changeOrder(ctx, 'tenant-1', 'order-1', () => ({
      set: { status: ORDER_STATUS.Accepted },
      events: [EVENT],
      by: 'tenant',
    }));
    expect(next.status).toBe(ORDER_STATUS.Accepted);
    expect(next.history.at(-1)).toEqual({ status: 'Accepted', at: NOW, by: 'tenant' });
    expect(writes).toEqual([
      { set: { status: ORDER_STATUS.Accepted, updatedAt: NOW, history: next.history }, events: [EVENT] },
    ]);
    expect(locked).toEqual(['order-1']);
    expect(flushed).toEqual(['order-1']);
  });

  it('publishes nothing for a change without events, and writes nothing when unchanged', async () => {
    const quiet = fakes(stored);
    await changeOrder(quiet.ctx, 'tenant-1', 'order-1', () => ({
      set: { paymentStatus: 2 },
      events: [],
    }));
    expect(quiet.writes).toHaveLength(1);
    expect(quiet.flushed).toEqual([]);

    const unchanged = fakes(stored);
    expect(await changeOrder(unchanged.ctx, 'tenant-1', 'order-1', () => 'unchanged')).toBe(stored);
    expect(unchanged.writes).toEqual([]);
  });

  it('refuses a status change that does not say who made it', async () => {
    const { ctx, writes } = fakes(stored);
    await expect(
      changeOrder(ctx, 'tenant-1', 'order-1', () => ({ set: { status: ORDER_STATUS.Accepted }, events: [] })),
    ).rejects.toThrow('a status change must name who made it');
    expect(writes).toEqual([]);
  });

  it('is a 404 for an order the tenant does not have', async () => {
    const { ctx } = fakes(undefined);
    await expect(changeOrder(ctx, 'tenant-1', 'order-1', () => 'unchanged')).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});
