import { notFound } from '@marketplace/errors';
import type { OrderingContext, TenantScope } from '../context';

/** Orders keep their zone id and fee; deleting a zone only stops new orders to it. */
export async function deleteZone(ctx: OrderingContext, tenant: TenantScope, id: string) {
  if (!(await ctx.store.zones.delete(tenant, id))) throw notFound();
}
