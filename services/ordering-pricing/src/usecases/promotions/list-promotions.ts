import type { OrderingContext, TenantScope } from '../context';
import { loadPromotionWithUses, type PromotionWithUses } from './load-promotion-with-uses';

/** The tenant's promotions, by code. */
export async function listPromotions(ctx: OrderingContext, tenant: TenantScope): Promise<PromotionWithUses[]> {
  const all = await ctx.store.promotions.listByCode(tenant);
  return Promise.all(all.map((p) => loadPromotionWithUses(ctx, p, tenant)));
}
