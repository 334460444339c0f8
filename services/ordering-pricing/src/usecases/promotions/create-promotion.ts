import { randomUUID } from 'node:crypto';
import type { PromotionInput } from '@marketplace/contracts';
import { conflict } from '@marketplace/errors';
import type { PromotionDoc } from '../../adapters/promotions-repository';
import { checkPromotionInput, normalizeCode } from '../../domain/promotion';
import type { OrderingContext, TenantScope } from '../context';
import { loadPromotionWithUses, type PromotionWithUses } from './load-promotion-with-uses';

/**
 * Creates a promotion. Its code is unique per tenant, case-insensitively (claimed by a unique
 * insert), and cannot change afterwards: orders name it, and a partner may hold it.
 */
export async function createPromotion(
  ctx: OrderingContext,
  tenant: TenantScope,
  input: PromotionInput,
): Promise<PromotionWithUses> {
  const fields = checkPromotionInput(input, tenant);
  const now = ctx.now();
  const code = normalizeCode(input.code);
  const promotion: PromotionDoc = {
    _id: randomUUID(),
    tenantId: tenant.tenantId,
    code,
    description: input.description ?? null,
    ...fields,
    branchIds: input.branchIds ?? null,
    usageLimit: input.usageLimit ?? null,
    isActive: input.isActive ?? true,
    createdAt: now,
    updatedAt: now,
  };
  // The promotion first, then its code: a crash in between leaves an unreachable promotion, never
  // a code pointing nowhere.
  await ctx.store.promotions.insert(tenant, promotion);
  let claimed: boolean;
  try {
    claimed = await ctx.store.promotions.claimCode(tenant, code, promotion._id);
  } catch (error) {
    await ctx.store.promotions.delete(tenant, promotion._id);
    throw error;
  }
  if (!claimed) {
    await ctx.store.promotions.delete(tenant, promotion._id);
    throw conflict('promotion.code_taken', 'This restaurant already has a promotion with this code.');
  }
  return loadPromotionWithUses(ctx, promotion, tenant);
}
