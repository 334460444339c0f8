import type { CatalogContext, TenantScope } from './context';
import { deleteResource } from './delete-resource';

/** Deletes a modifier group; refused while a live product offers it or another group nests it. */
export async function deleteModifierGroup(ctx: CatalogContext, tenant: TenantScope, id: string): Promise<void> {
  return deleteResource(ctx, 'modifier-group', tenant, id, async () => [
    ...(await ctx.store.products.liveIdsOfferingGroup(tenant, id)),
    ...(await ctx.store.modifierGroups.liveIdsNesting(tenant, id)),
  ]);
}
