import type { PromotionEffect } from './pricing';

/**
 * A tenant's promotion code. Codes are matched case-insensitively (stored upper-case): partners
 * pass on what a customer typed.
 */
export interface Promotion {
  id: string;
  tenantId: string;
  code: string;
  description: string | null;
  effect: PromotionEffect;
  /** Smallest subtotal (before the discount) the code applies to, in minor units. */
  minimumSubtotalMinor: number;
  validFrom: Date | null;
  validUntil: Date | null;
  /** Branches the code is valid at; null for every branch. */
  branchIds: string[] | null;
  /** Orders that may use the code; null for no limit. */
  usageLimit: number | null;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const normalizeCode = (code: string) => code.trim().toUpperCase();

/**
 * Why the promotion cannot apply to this order, or undefined when it applies. The messages name
 * the reason; an unknown code is reported by the caller with the same field.
 */
export function promotionProblem(
  promotion: Promotion,
  order: { branchId: string; subtotalMinor: number; at: Date },
): string | undefined {
  if (!promotion.isActive) return 'is not active';
  if (promotion.validFrom && order.at < promotion.validFrom) return 'is not valid yet';
  if (promotion.validUntil && order.at >= promotion.validUntil) return 'has expired';
  if (promotion.branchIds && !promotion.branchIds.includes(order.branchId)) return 'is not valid at this branch';
  if (order.subtotalMinor < promotion.minimumSubtotalMinor) return 'needs a higher subtotal';
  return undefined;
}
