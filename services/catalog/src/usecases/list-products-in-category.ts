import type { Product } from '../domain/model';
import type { CatalogContext, TenantScope } from './context';

/** The tenant's live products in a category (the tenant API's `?categoryId=`). */
export async function listProductsInCategory(
  ctx: CatalogContext,
  tenant: TenantScope,
  categoryId: string,
): Promise<Product[]> {
  return ctx.store.products.listLiveInCategory(tenant, categoryId);
}
