import type { OrderEvent } from '@marketplace/contracts';
import type { Delivery } from '../domain/delivery';
import { applyOrderEvent } from './apply-order-event';
import type { DeliveryContext } from './context';
import type { RecentDeliveries } from './ports';

// The orders copy: orders.created keeps the order's delivery (not without a branch and a mode);
// a final order status ends the live assignment. Run on in-memory ports.
const now = new Date('2026-01-01T12:00:00Z');

function fakeContext(stored?: Delivery) {
  const deliveries = new Map<string, Delivery>(stored ? [[stored._id, stored]] : []);
  const warnings: string[] = [];
  const published: string[] = [];
  const recent: RecentDeliveries = { get: () => undefined, remember: () => undefined, forget: () => undefined };
  const ctx = {
    store: {
      deliveries: {
        insert: async (_owner: unknown, delivery: Delivery) => void deliveries.set(delivery._id, delivery),
        findByOrder: async (_owner: unknown, orderId: string) => deliveries.get(orderId),
        replaceIfUnchanged: async (_owner: unknown, next: Delivery) => {
          deliveries.set(next._id, next);
          return true;
        },
      },
    },
    events: { publish: async (orderId: string) => void published.push(orderId) },
    recent,
    metrics: { transitioned: () => undefined },
    logger: { warn: (_fields: unknown, message: string) => void warnings.push(message), info: () => undefined },
    now: () => now,
  } as unknown as DeliveryContext;
  return { ctx, deliveries, warnings, published };
}

const created = {
  orderId: 'o-1',
  tenantId: 't-1',
  orderNumber: '42',
  branchId: 'b-1',
  orderMode: 1,
  status: 'Pending',
  createdAt: '2026-01-01T11:00:00.000Z',
} as unknown as OrderEvent;

describe('applyOrderEvent', () => {
  it('keeps a created order as a delivery without an assignment, dated by the order', async () => {
    const { ctx, deliveries } = fakeContext();
    await applyOrderEvent(ctx, 'orders.created', created);
    expect(deliveries.get('o-1')).toEqual({
      _id: 'o-1',
      tenantId: 't-1',
      order: { orderNumber: '42', branchId: 'b-1', orderMode: 1, status: 'Pending' },
      live: null,
      history: [],
      version: 1,
      eventRevision: 0,
      createdAt: new Date('2026-01-01T11:00:00.000Z'),
      updatedAt: new Date('2026-01-01T11:00:00.000Z'),
    });
  });

  it('does not keep an order without a branch, and says so', async () => {
    const { ctx, deliveries, warnings } = fakeContext();
    await applyOrderEvent(ctx, 'orders.created', { ...created, branchId: undefined });
    expect(deliveries.size).toBe(0);
    expect(warnings).toHaveLength(1);
  });

  it('changes nothing for a status of an order it never kept, nor for a payment', async () => {
    const { ctx, deliveries, published } = fakeContext();
    await applyOrderEvent(ctx, 'orders.status-changed', { ...created, status: 'Accepted' } as unknown as OrderEvent);
    await applyOrderEvent(ctx, 'payment.completed', created);
    expect(deliveries.size).toBe(0);
    expect(published).toEqual([]);
  });
});
