import type { CategoryInput } from '../domain/inputs';
import type { Category } from '../domain/model';
import { categoryFields } from '../domain/rules';
import type { CatalogContext, TenantScope } from './context';
import { saveResource } from './save-resource';

/** Creates (`id` undefined) or replaces one of the tenant's categories. */
export async function saveCategory(
  ctx: CatalogContext,
  tenant: TenantScope,
  id: string | undefined,
  input: CategoryInput,
): Promise<Category> {
  return saveResource(ctx, 'category', tenant, id, async () => categoryFields(input, tenant));
}
