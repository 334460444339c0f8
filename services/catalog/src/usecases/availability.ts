import { notFound } from '@marketplace/errors';
import type { AvailabilityPatch } from '../domain/inputs';
import type { AvailabilityResource } from '../domain/model';
import type { AvailabilityEntries } from '../adapters/availability-repository';
import { Problems } from '../domain/rules';
import { eventState } from '../domain/event-state';
import { applyChange, catalogEvent } from './change';
import type { CatalogContext, TenantScope } from './context';

/** A branch's availability overrides (tenant API), or null when none was ever set. */
export async function getAvailability(
  ctx: CatalogContext,
  tenant: TenantScope,
  branchId: string,
): Promise<AvailabilityResource | null> {
  await requireBranch(ctx, tenant, branchId);
  return ctx.store.availability.findOfBranch(tenant, branchId);
}

/**
 * Sets some entries of a branch's availability (0 clears one). The whole availability of a branch is
 * one document, so a change is one atomic write, and its event carries the whole of it.
 */
export async function patchAvailability(
  ctx: CatalogContext,
  tenant: TenantScope,
  branchId: string,
  patch: AvailabilityPatch,
): Promise<AvailabilityResource> {
  return applyChange(ctx, tenant, async (seq, now) => {
    await requireBranch(ctx, tenant, branchId);
    await checkIds(ctx, tenant, patch);
    const current = await ctx.store.availability.findOfBranch(tenant, branchId);
    const next: AvailabilityEntries = {
      products: merge(current?.products, patch.products),
      variants: merge(current?.variants, patch.variants),
      modifierOptions: merge(current?.modifierOptions, patch.modifierOptions),
    };
    const doc: AvailabilityResource = {
      _id: branchId,
      tenantId: tenant.tenantId,
      deleted: false,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
      seq,
      ...next,
    };
    const event = catalogEvent('availability', tenant, seq, branchId, false, eventState(doc));
    await ctx.store.availability.saveOfBranch(tenant, branchId, next, seq, [event], now);
    return { result: doc, collection: 'availability', id: branchId };
  });
}

function merge(
  current: Record<string, 1 | 2> | undefined,
  patch: Record<string, 0 | 1 | 2> | undefined,
): Record<string, 1 | 2> {
  const out = { ...(current ?? {}) };
  for (const [id, value] of Object.entries(patch ?? {})) {
    if (value === 0) delete out[id.toLowerCase()];
    else out[id.toLowerCase()] = value;
  }
  return out;
}

async function requireBranch(ctx: CatalogContext, tenant: TenantScope, branchId: string): Promise<void> {
  if (!(await ctx.store.branches.existsLive(tenant, branchId))) throw notFound();
}

/** Every id in the patch must be a product, variant or option of this tenant. */
async function checkIds(ctx: CatalogContext, tenant: TenantScope, patch: AvailabilityPatch): Promise<void> {
  const [products, optionIds] = await Promise.all([
    ctx.store.products.liveProductAndVariantIds(tenant),
    Object.keys(patch.modifierOptions ?? {}).length > 0 ? ctx.store.modifierGroups.liveOptionIds(tenant) : [],
  ]);
  const known = {
    products: new Set(products.map((p) => p.id)),
    variants: new Set(products.flatMap((p) => p.variantIds)),
    modifierOptions: new Set(optionIds),
  };
  const problems = new Problems();
  for (const kind of ['products', 'variants', 'modifierOptions'] as const) {
    for (const id of Object.keys(patch[kind] ?? {})) {
      if (!known[kind].has(id.toLowerCase()))
        problems.add(
          `${kind}.${id}`,
          `is not one of this catalog's ${kind === 'modifierOptions' ? 'modifier options' : kind}`,
        );
    }
  }
  problems.throwIfAny();
}
