import { notFound } from '@marketplace/errors';
import { updateWithOutbox } from '@marketplace/outbox';
import type { AvailabilityPatch } from '../domain/inputs';
import type { AvailabilityDoc } from '../domain/model';
import { Problems } from '../domain/rules';
import { availabilityView, eventState } from '../domain/views';
import { applyChange, catalogEvent } from './change';
import type { CatalogContext, TenantScope } from './context';
import { live } from './resources';

/** A branch's availability overrides (tenant API). */
export async function getAvailability(ctx: CatalogContext, tenant: TenantScope, branchId: string) {
  await requireBranch(ctx, tenant, branchId);
  return availabilityView(branchId, await ctx.store.availability.findOne({ _id: branchId, tenantId: tenant.tenantId }));
}

/**
 * Sets some entries of a branch's availability (0 clears one). The whole availability of a branch is
 * one document, so a change is one atomic write, and its event carries the whole of it.
 */
export async function patchAvailability(ctx: CatalogContext, tenant: TenantScope, branchId: string, patch: AvailabilityPatch) {
  return applyChange(ctx, tenant, async (seq, now) => {
    await requireBranch(ctx, tenant, branchId);
    await checkIds(ctx, tenant, patch);
    const current = await ctx.store.availability.findOne({ _id: branchId, tenantId: tenant.tenantId });
    const next: Pick<AvailabilityDoc, 'products' | 'variants' | 'modifierOptions'> = {
      products: merge(current?.products, patch.products),
      variants: merge(current?.variants, patch.variants),
      modifierOptions: merge(current?.modifierOptions, patch.modifierOptions),
    };
    const doc = { _id: branchId, tenantId: tenant.tenantId, deleted: false, createdAt: current?.createdAt ?? now, updatedAt: now, seq, ...next };
    const event = catalogEvent('availability', tenant, seq, branchId, false, eventState(doc));
    await ctx.store.availability.updateOne(
      { _id: branchId, tenantId: tenant.tenantId },
      updateWithOutbox({ $set: { ...next, seq, updatedAt: now, deleted: false }, $setOnInsert: { createdAt: now } }, [event], now),
      { upsert: true },
    );
    return { result: availabilityView(branchId, doc as AvailabilityDoc), collection: 'availability', id: branchId };
  });
}

function merge(current: Record<string, 1 | 2> | undefined, patch: Record<string, 0 | 1 | 2> | undefined): Record<string, 1 | 2> {
  const out = { ...(current ?? {}) };
  for (const [id, value] of Object.entries(patch ?? {})) {
    if (value === 0) delete out[id.toLowerCase()];
    else out[id.toLowerCase()] = value;
  }
  return out;
}

async function requireBranch(ctx: CatalogContext, tenant: TenantScope, branchId: string): Promise<void> {
  if (!(await ctx.store.branches.findOne(live(tenant, { _id: branchId }), { projection: { _id: 1 } }))) throw notFound();
}

/** Every id in the patch must be a product, variant or option of this tenant. */
async function checkIds(ctx: CatalogContext, tenant: TenantScope, patch: AvailabilityPatch): Promise<void> {
  const [products, groups] = await Promise.all([
    ctx.store.products.find(live(tenant), { projection: { _id: 1, 'variants.id': 1 } }).toArray(),
    Object.keys(patch.modifierOptions ?? {}).length > 0 ? ctx.store.modifierGroups.find(live(tenant), { projection: { 'options.id': 1 } }).toArray() : [],
  ]);
  const known = {
    products: new Set(products.map((p) => p._id)),
    variants: new Set(products.flatMap((p) => p.variants.map((v) => v.id))),
    modifierOptions: new Set(groups.flatMap((g) => g.options.map((o) => o.id))),
  };
  const problems = new Problems();
  for (const kind of ['products', 'variants', 'modifierOptions'] as const) {
    for (const id of Object.keys(patch[kind] ?? {})) {
      if (!known[kind].has(id.toLowerCase())) problems.add(`${kind}.${id}`, `is not one of this catalog's ${kind === 'modifierOptions' ? 'modifier options' : kind}`);
    }
  }
  problems.throwIfAny();
}
