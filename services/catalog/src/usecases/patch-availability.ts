import { patchedAvailability } from '../domain/availability';
import { catalogEvent } from '../domain/catalog-event';
import { eventState } from '../domain/event-state';
import type { AvailabilityPatch } from '../domain/inputs';
import type { AvailabilityResource } from '../domain/model';
import { Problems } from '../domain/rules';
import { applyChange } from './apply-change';
import type { CatalogContext, TenantScope } from './context';
import { requireBranch } from './require-branch';

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
    const next = patchedAvailability(current ?? undefined, patch);
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
    return { result: doc, written: ctx.store.availability, id: branchId };
  });
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
