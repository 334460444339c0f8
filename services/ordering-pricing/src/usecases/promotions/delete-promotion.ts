import { notFound } from '@marketplace/errors';
import type { OrderingContext, TenantScope } from '../context';

/** Deletes the promotion and frees its code; orders that used it keep their discount. */
export async function deletePromotion(ctx: OrderingContext, tenant: TenantScope, id: string) {
  const p = await ctx.store.promotions.findById(tenant, id);
  if (!p) throw notFound();
  await ctx.store.promotions.releaseCode(tenant, p.code, id);
  await ctx.store.promotions.delete(tenant, id);
}
