import { notFound } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import type { Order } from '../domain/order';
import type { OrderingContext, TenantScope } from './context';

/**
 * GET /orders/{orderId} (spec, Read order rules): the source-owned read needs Orders.Create and an
 * order created by the caller's installation and shows everything; the delivery-assignment-owned
 * read needs Orders.Read and the order's live assignment and nulls the financial fields. Any other
 * case is the same 404 as an order that does not exist. `financial` says which read it was.
 */
export async function readOrderAsPartner(
  ctx: OrderingContext,
  caller: PartnerIdentity,
  orderId: string,
): Promise<{ order: Order; financial: boolean }> {
  const order = await ctx.store.orders.findById(caller, orderId);
  if (!order) throw notFound();
  if (caller.scopes.includes('Orders.Create') && order.source.installationId === caller.installationId)
    return { order, financial: true };
  if (caller.scopes.includes('Orders.Read') && (await ctx.deliveryOwnership.holds(order, caller.installationId)))
    return { order, financial: false };
  throw notFound();
}

export async function readOrderAsTenant(ctx: OrderingContext, tenant: TenantScope, orderId: string): Promise<Order> {
  const order = await ctx.store.orders.findById(tenant, orderId);
  if (!order) throw notFound();
  return order;
}

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
