import { randomUUID } from 'node:crypto';
import { conflict, notFound, validationError, type FieldErrors } from '@marketplace/errors';
import { toMinorUnits } from '@marketplace/money';
import { promotionOf, type PromotionDoc } from '../adapters/promotions-repository';
import type { PromotionEffect } from '../domain/pricing';
import { normalizeCode, type Promotion } from '../domain/promotion';
import type { OrderingContext, TenantScope } from './context';

import type { PromotionInput } from '@marketplace/contracts';

/** A promotion with its uses taken so far (null when it has no limit: uses are not counted then). */
export interface PromotionWithUses {
  promotion: Promotion;
  timesUsed: number | null;
}

async function withUses(ctx: OrderingContext, p: PromotionDoc, tenant: TenantScope): Promise<PromotionWithUses> {
  const timesUsed = p.usageLimit === null ? null : await ctx.store.promotionUses.countUses(tenant, p._id);
  return { promotion: promotionOf(p), timesUsed };
}

function checked(
  input: PromotionInput,
  tenant: TenantScope,
): { effect: PromotionEffect; minimumSubtotalMinor: number; validFrom: Date | null; validUntil: Date | null } {
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

/**
 * Creates a promotion. Its code is unique per tenant, case-insensitively (claimed by a unique
 * insert), and cannot change afterwards: orders name it, and a partner may hold it.
 */
export async function createPromotion(
  ctx: OrderingContext,
  tenant: TenantScope,
  input: PromotionInput,
): Promise<PromotionWithUses> {
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
  return withUses(ctx, promotion, tenant);
}

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
  return withUses(ctx, promotion, tenant);
}

export async function getPromotion(ctx: OrderingContext, tenant: TenantScope, id: string): Promise<PromotionWithUses> {
  const p = await ctx.store.promotions.findById(tenant, id);
  if (!p) throw notFound();
  return withUses(ctx, p, tenant);
}

export async function listPromotions(ctx: OrderingContext, tenant: TenantScope): Promise<PromotionWithUses[]> {
  const all = await ctx.store.promotions.listByCode(tenant);
  return Promise.all(all.map((p) => withUses(ctx, p, tenant)));
}

/** Deletes the promotion and frees its code; orders that used it keep their discount. */
export async function deletePromotion(ctx: OrderingContext, tenant: TenantScope, id: string) {
  const p = await ctx.store.promotions.findById(tenant, id);
  if (!p) throw notFound();
  await ctx.store.promotions.releaseCode(tenant, p.code, id);
  await ctx.store.promotions.delete(tenant, id);
}
