import type { PromotionInput } from '@marketplace/contracts';
import { notFound, validationError } from '@marketplace/errors';
import type { PromotionDoc } from '../../adapters/promotions-repository';
import { checkPromotionInput, normalizeCode } from '../../domain/promotion';
import type { OrderingContext, TenantScope } from '../context';
import { loadPromotionWithUses, type PromotionWithUses } from './load-promotion-with-uses';

/** Replaces everything but the code (which must be sent unchanged). */
export async function updatePromotion(
  ctx: OrderingContext,
  tenant: TenantScope,
  id: string,
  input: PromotionInput,
): Promise<PromotionWithUses> {
  const existing = await ctx.store.promotions.findById(tenant, id);
  if (!existing) throw notFound();
  if (normalizeCode(input.code) !== existing.code)
    throw validationError('request.invalid', 'The promotion is invalid; see errors.', {
      code: ['cannot be changed; create a new promotion instead'],
    });
  const fields = checkPromotionInput(input, tenant);
  const promotion: PromotionDoc = {
    ...existing,
    description: input.description ?? null,
    ...fields,
    branchIds: input.branchIds ?? null,
    usageLimit: input.usageLimit ?? null,
    isActive: input.isActive ?? true,
    updatedAt: ctx.now(),
  };
  await ctx.store.promotions.replace(tenant, promotion);
  return loadPromotionWithUses(ctx, promotion, tenant);
}
