import type { CatalogContext, TenantScope } from './context';
import { deleteResource } from './delete-resource';

/** Deletes a tax category; refused while a live product is taxed by it. */
export async function deleteTaxCategory(ctx: CatalogContext, tenant: TenantScope, id: string): Promise<void> {
  return deleteResource(ctx, 'tax-category', tenant, id, () => ctx.store.products.liveIdsWithTaxCategory(tenant, id));
}
