import { randomUUID } from 'node:crypto';
import { conflict, notFound, validationError, type FieldErrors } from '@marketplace/errors';
import { fromMinorUnits, toMinorUnits } from '@marketplace/money';
import type { PromotionDoc } from '../adapters/promotions-repository';
import type { PromotionEffect } from '../domain/pricing';
import { normalizeCode } from '../domain/promotion';
import type { OrderingContext, TenantScope } from './context';

export interface PromotionInput {
  code: string;
  description?: string | null;
  type: 'percentage' | 'fixed';
  /** percentage: percent off the subtotal (0.01 to 100, two decimals). */
  percent?: number;
  /** fixed: amount off, in the tenant's currency. */
  amount?: number;
  minimumSubtotal?: number;
  validFrom?: string | null;
  validUntil?: string | null;
  branchIds?: string[] | null;
  usageLimit?: number | null;
  isActive?: boolean;
}

export async function promotionView(ctx: OrderingContext, p: PromotionDoc, tenant: TenantScope) {
  const m = (minor: number) => fromMinorUnits(minor, tenant.decimals);
  const used = p.usageLimit === null ? null : await ctx.store.promotionUses.countUses(tenant, p._id);
  return {
    id: p._id,
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
    timesUsed: used,
    isActive: p.isActive,
    currencyCode: tenant.currencyCode,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

function checked(input: PromotionInput, tenant: TenantScope): { effect: PromotionEffect; minimumSubtotalMinor: number; validFrom: Date | null; validUntil: Date | null } {
  const errors: FieldErrors = {};
  let effect: PromotionEffect | undefined;
  if (input.type === 'percentage') {
    if (input.amount !== undefined) errors.amount = ['is only for type fixed'];
    const p = input.percent;
    if (p === undefined || !(p > 0 && p <= 100) || Number(p.toFixed(2)) !== p) errors.percent = ['must be more than 0 and at most 100, with at most 2 decimals'];
    else effect = { kind: 'percentage', percent: p };
  } else {
    if (input.percent !== undefined) errors.percent = ['is only for type percentage'];
    const minor = input.amount === undefined ? undefined : toMinorUnits(input.amount, tenant.decimals);
    if (!minor) errors.amount = [`must be a positive amount with at most ${tenant.decimals} decimals`];
    else effect = { kind: 'fixed', amountMinor: minor };
  }
  const minimumSubtotalMinor = toMinorUnits(input.minimumSubtotal ?? 0, tenant.decimals);
  if (minimumSubtotalMinor === undefined) errors.minimumSubtotal = [`must be a non-negative amount with at most ${tenant.decimals} decimals`];
  const validFrom = input.validFrom ? new Date(input.validFrom) : null;
  const validUntil = input.validUntil ? new Date(input.validUntil) : null;
  if (validFrom && validUntil && validUntil <= validFrom) errors.validUntil = ['must be after validFrom'];
  if (Object.keys(errors).length > 0) throw validationError('order.validation_failed', 'The promotion is invalid; see errors.', errors);
  return { effect: effect!, minimumSubtotalMinor: minimumSubtotalMinor!, validFrom, validUntil };
}

/**
 * Creates a promotion. Its code is unique per tenant, case-insensitively (claimed by a unique
 * insert), and cannot change afterwards: orders name it, and a partner may hold it.
 */
export async function createPromotion(ctx: OrderingContext, tenant: TenantScope, input: PromotionInput) {
  const fields = checked(input, tenant);
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
  return promotionView(ctx, promotion, tenant);
}

/** Replaces everything but the code (which must be sent unchanged). */
export async function updatePromotion(ctx: OrderingContext, tenant: TenantScope, id: string, input: PromotionInput) {
  const existing = await ctx.store.promotions.findById(tenant, id);
  if (!existing) throw notFound();
  if (normalizeCode(input.code) !== existing.code) throw validationError('order.validation_failed', 'The promotion is invalid; see errors.', { code: ['cannot be changed; create a new promotion instead'] });
  const fields = checked(input, tenant);
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
  return promotionView(ctx, promotion, tenant);
}

export async function getPromotion(ctx: OrderingContext, tenant: TenantScope, id: string) {
  const p = await ctx.store.promotions.findById(tenant, id);
  if (!p) throw notFound();
  return promotionView(ctx, p, tenant);
}

export async function listPromotions(ctx: OrderingContext, tenant: TenantScope) {
  const all = await ctx.store.promotions.listByCode(tenant);
  return Promise.all(all.map((p) => promotionView(ctx, p, tenant)));
}

/** Deletes the promotion and frees its code; orders that used it keep their discount. */
export async function deletePromotion(ctx: OrderingContext, tenant: TenantScope, id: string) {
  const p = await ctx.store.promotions.findById(tenant, id);
  if (!p) throw notFound();
  await ctx.store.promotions.releaseCode(tenant, p.code, id);
  await ctx.store.promotions.delete(tenant, id);
}
