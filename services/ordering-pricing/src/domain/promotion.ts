import type { PromotionInput } from '@marketplace/contracts';
import { validationError, type FieldErrors } from '@marketplace/errors';
import { toMinorUnits } from '@marketplace/money';
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

/** A promotion as its repository stores it: the id as `_id`. */
export type StoredPromotion = Omit<Promotion, 'id'> & { _id: string };

/** The promotion a stored document holds. */
export function promotionOf(doc: StoredPromotion): Promotion {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest };
}

/** The fields of a promotion a tenant sends that need checking, as the promotion keeps them. */
export interface CheckedPromotionFields {
  effect: PromotionEffect;
  minimumSubtotalMinor: number;
  validFrom: Date | null;
  validUntil: Date | null;
}

/**
 * Checks a promotion as a tenant sends it (beyond its schema): the effect its type names, amounts
 * in the tenant's currency, and the validity window. Every problem is reported at once (400).
 */
export function checkPromotionInput(input: PromotionInput, tenant: { decimals: number }): CheckedPromotionFields {
  const errors: FieldErrors = {};
  let effect: PromotionEffect | undefined;
  if (input.type === 'percentage') {
    if (input.amount !== undefined) errors.amount = ['is only for type fixed'];
    const p = input.percent;
    if (p === undefined || !(p > 0 && p <= 100) || Number(p.toFixed(2)) !== p)
      errors.percent = ['must be more than 0 and at most 100, with at most 2 decimals'];
    else effect = { kind: 'percentage', percent: p };
  } else {
    if (input.percent !== undefined) errors.percent = ['is only for type percentage'];
    const minor = input.amount === undefined ? undefined : toMinorUnits(input.amount, tenant.decimals);
    if (!minor) errors.amount = [`must be a positive amount with at most ${tenant.decimals} decimals`];
    else effect = { kind: 'fixed', amountMinor: minor };
  }
  const minimumSubtotalMinor = toMinorUnits(input.minimumSubtotal ?? 0, tenant.decimals);
  if (minimumSubtotalMinor === undefined)
    errors.minimumSubtotal = [`must be a non-negative amount with at most ${tenant.decimals} decimals`];
  const validFrom = input.validFrom ? new Date(input.validFrom) : null;
  const validUntil = input.validUntil ? new Date(input.validUntil) : null;
  if (validFrom && validUntil && validUntil <= validFrom) errors.validUntil = ['must be after validFrom'];
  if (Object.keys(errors).length > 0)
    throw validationError('request.invalid', 'The promotion is invalid; see errors.', errors);
  return { effect: effect!, minimumSubtotalMinor: minimumSubtotalMinor!, validFrom, validUntil };
}
