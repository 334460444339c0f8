import type { TaxCategoryInput } from '../domain/inputs';
import type { TaxCategory } from '../domain/model';
import { taxCategoryFields } from '../domain/rules';
import type { CatalogContext, TenantScope } from './context';
import { saveResource } from './save-resource';

/** Creates (`id` undefined) or replaces one of the tenant's tax categories. */
export async function saveTaxCategory(
  ctx: CatalogContext,
  tenant: TenantScope,
  id: string | undefined,
  input: TaxCategoryInput,
): Promise<TaxCategory> {
  return saveResource(ctx, 'tax-category', tenant, id, async () => taxCategoryFields(input, tenant));
}
