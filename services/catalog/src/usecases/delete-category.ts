import type { CatalogContext, TenantScope } from './context';
import { deleteResource } from './delete-resource';

/** Deletes a category; refused while a live product is in it. */
export async function deleteCategory(ctx: CatalogContext, tenant: TenantScope, id: string): Promise<void> {
  return deleteResource(ctx, 'category', tenant, id, () => ctx.store.products.liveIdsInCategory(tenant, id));
}
