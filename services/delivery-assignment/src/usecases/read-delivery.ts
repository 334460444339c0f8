import { notFound } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import type { Delivery } from '../domain/delivery';
import type { DeliveryContext } from './context';

/** GET /api/tenant/v1/deliveries/{orderId}: the order's live assignment and the ended ones. */
export async function readDelivery(ctx: DeliveryContext, tenant: TenantOwner, orderId: string): Promise<Delivery> {
  const delivery = await ctx.store.deliveries.findByOrder(tenant, orderId);
  if (!delivery) throw notFound();
  return delivery;
}
