import type { ProductInput } from '../domain/inputs';
import type { Product } from '../domain/model';
import { productFields, Problems } from '../domain/rules';
import type { CatalogContext, TenantScope } from './context';
import { saveResource } from './save-resource';

/**
 * Creates (`id` undefined) or replaces a product: its category, tax category and the modifier
 * groups its variants offer must be live resources of this tenant.
 */
export async function saveProduct(
  ctx: CatalogContext,
  tenant: TenantScope,
  id: string | undefined,
  input: ProductInput,
): Promise<Product> {
  return saveResource(ctx, 'product', tenant, id, async (existing) => {
    const fields = productFields(input, tenant, new Set(existing?.variants.map((v) => v.id)));
    const groupIds = [...new Set(fields.variants.flatMap((v) => v.modifierGroupIds))];
    const [category, tax, groups] = await Promise.all([
      ctx.store.categories.existsLive(tenant, fields.categoryId),
      fields.taxCategoryId ? ctx.store.taxCategories.existsLive(tenant, fields.taxCategoryId) : false,
      ctx.store.modifierGroups.liveIdsAmong(tenant, groupIds),
    ]);
    const problems = new Problems();
    if (!category) problems.add('categoryId', 'is not a category of this catalog');
    if (fields.taxCategoryId && !tax) problems.add('taxCategoryId', 'is not a tax category of this catalog');
    const known = new Set(groups);
    fields.variants.forEach((variant, i) =>
      variant.modifierGroupIds.forEach((groupId, j) => {
        if (!known.has(groupId))
          problems.add(`variants[${i}].modifierGroupIds[${j}]`, 'is not a modifier group of this catalog');
      }),
    );
    problems.throwIfAny();
    return fields;
  });
}
