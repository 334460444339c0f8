import { notFound } from '@marketplace/errors';
import type { OrderingContext, TenantScope } from '../context';
import { loadPromotionWithUses, type PromotionWithUses } from './load-promotion-with-uses';

export async function getPromotion(ctx: OrderingContext, tenant: TenantScope, id: string): Promise<PromotionWithUses> {
  const p = await ctx.store.promotions.findById(tenant, id);
  if (!p) throw notFound();
  return loadPromotionWithUses(ctx, p, tenant);
}
