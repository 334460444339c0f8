import type { Order } from '../../domain/order';
import type { OrderingContext, TenantScope } from '../context';

/** The tenant's latest orders, newest first. */
export async function listOrders(
  ctx: OrderingContext,
  tenant: TenantScope,
  options: { status?: number; limit: number },
): Promise<Order[]> {
  return ctx.store.orders.listRecent(tenant, {
    status: options.status as Order['status'] | undefined,
    limit: options.limit,
  });
}
