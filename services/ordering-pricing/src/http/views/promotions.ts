import { fromMinorUnits } from '@marketplace/money';
import type { TenantScope } from '../../domain/tenant-scope';
import type { PromotionWithUses } from '../../usecases/promotions/load-promotion-with-uses';

/** Tenant API: a promotion with how often it was used (null when it has no limit). */
export function promotionView({ promotion: p, timesUsed }: PromotionWithUses, tenant: TenantScope) {
  const m = (minor: number) => fromMinorUnits(minor, tenant.decimals);
  return {
    id: p.id,
    code: p.code,
    description: p.description,
    type: p.effect.kind,
    percent: p.effect.kind === 'percentage' ? p.effect.percent : null,
    amount: p.effect.kind === 'fixed' ? m(p.effect.amountMinor) : null,
    minimumSubtotal: m(p.minimumSubtotalMinor),
    validFrom: p.validFrom?.toISOString() ?? null,
    validUntil: p.validUntil?.toISOString() ?? null,
    branchIds: p.branchIds,
    usageLimit: p.usageLimit,
    timesUsed,
    isActive: p.isActive,
    currencyCode: tenant.currencyCode,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
