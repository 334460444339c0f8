import { notFound } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import type { ProviderConnection } from '../../domain/dispatch/connection';
import type { ProviderDispatch } from '../../domain/dispatch/dispatch';
import type { DispatchPlan } from '../../domain/dispatch/plan';
import type { DeliveryContext } from '../context';

/**
 * An order's plan (when dispatched by the tenant's rules) and its dispatches to provider
 * connections, oldest first, each with its connection (for its name) and how old the provider's last known state is now: the tenant sees which connection was
 * chosen and why, what the provider answered, and whether the state it sees is fresh. The same
 * 404 for another tenant's order as for none.
 */
export async function readDispatches(
  ctx: DeliveryContext,
  tenant: TenantOwner,
  orderId: string,
): Promise<{
  plan: DispatchPlan | null;
  dispatches: Array<{ dispatch: ProviderDispatch; connection: ProviderConnection | undefined }>;
  now: Date;
}> {
  const delivery = await ctx.store.deliveries.findByOrder(tenant, orderId);
  if (!delivery) throw notFound();
  const dispatches = await ctx.store.dispatches.listForOrder(tenant, orderId);
  const connections = new Map<string, ProviderConnection | undefined>();
  for (const d of dispatches)
    if (!connections.has(d.connectionId))
      connections.set(d.connectionId, await ctx.store.connections.find(tenant, d.connectionId));
  return {
    plan: delivery.dispatchPlan ?? null,
    dispatches: dispatches.map((dispatch) => ({ dispatch, connection: connections.get(dispatch.connectionId) })),
    now: ctx.now(),
  };
}
