import type { PromotionDoc } from '../../adapters/promotions-repository';
import { promotionOf, type Promotion } from '../../domain/promotion';
import type { OrderingContext, TenantScope } from '../context';

/** A promotion with its uses taken so far (null when it has no limit: uses are not counted then). */
export interface PromotionWithUses {
  promotion: Promotion;
  timesUsed: number | null;
}

/** The promotion as the tenant API shows it: with its uses counted, when it has a limit. */
export async function loadPromotionWithUses(
  ctx: OrderingContext,
  p: PromotionDoc,
  tenant: TenantScope,
): Promise<PromotionWithUses> {
  const timesUsed = p.usageLimit === null ? null : await ctx.store.promotionUses.countUses(tenant, p._id);
  return { promotion: promotionOf(p), timesUsed };
}
