import { notFound } from '@marketplace/errors';
import type { Order } from '../../domain/order';
import type { OrderingContext, TenantScope } from '../context';

/** One of the tenant's orders; another tenant's is not found. */
export async function readOrderAsTenant(ctx: OrderingContext, tenant: TenantScope, orderId: string): Promise<Order> {
  const order = await ctx.store.orders.findById(tenant, orderId);
  if (!order) throw notFound();
  return order;
}
