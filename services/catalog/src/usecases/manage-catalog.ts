import type { Branch, Category, ModifierGroup, Product, TaxCategory } from '../domain/model';
import type { BranchInput, CategoryInput, ModifierGroupInput, ProductInput, TaxCategoryInput } from '../domain/inputs';
import { nestingProblem, MAX_NESTING_DEPTH } from '../domain/modifier-graph';
import { eventState } from '../domain/event-state';
import {
  branchFields,
  categoryFields,
  modifierGroupFields,
  Problems,
  productFields,
  taxCategoryFields,
} from '../domain/rules';
import type { CatalogContext, TenantScope } from './context';
import { deleteResource, saveResource, type ResourceType } from './resources';

/** The tenant's management of its catalog: one function per resource and action. */

export const TAX_CATEGORIES: ResourceType<TaxCategory, 'tax-category'> = {
  kind: 'tax-category',
  repository: (ctx) => ctx.store.taxCategories,
  eventState,
};
export const BRANCHES: ResourceType<Branch, 'branch'> = {
  kind: 'branch',
  repository: (ctx) => ctx.store.branches,
  eventState,
};
export const CATEGORIES: ResourceType<Category, 'category'> = {
  kind: 'category',
  repository: (ctx) => ctx.store.categories,
  eventState,
};
export const MODIFIER_GROUPS: ResourceType<ModifierGroup, 'modifier-group'> = {
  kind: 'modifier-group',
  repository: (ctx) => ctx.store.modifierGroups,
  eventState,
};
export const PRODUCTS: ResourceType<Product, 'product'> = {
  kind: 'product',
  repository: (ctx) => ctx.store.products,
  eventState,
};

export const saveTaxCategory = (
  ctx: CatalogContext,
  tenant: TenantScope,
  id: string | undefined,
  input: TaxCategoryInput,
) => saveResource(ctx, TAX_CATEGORIES, tenant, id, async () => taxCategoryFields(input, tenant));

export const deleteTaxCategory = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, TAX_CATEGORIES, tenant, id, () => ctx.store.products.liveIdsWithTaxCategory(tenant, id));

export const saveBranch = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: BranchInput) =>
  saveResource(ctx, BRANCHES, tenant, id, async () => branchFields(input, tenant));

export const deleteBranch = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, BRANCHES, tenant, id);

export const saveCategory = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: CategoryInput) =>
  saveResource(ctx, CATEGORIES, tenant, id, async () => categoryFields(input, tenant));

export const deleteCategory = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, CATEGORIES, tenant, id, () => ctx.store.products.liveIdsInCategory(tenant, id));

export const saveModifierGroup = (
  ctx: CatalogContext,
  tenant: TenantScope,
  id: string | undefined,
  input: ModifierGroupInput,
) =>
  saveResource(ctx, MODIFIER_GROUPS, tenant, id, async (existing) => {
    const fields = modifierGroupFields(input, tenant, new Set(existing?.options.map((o) => o.id)));
    const graph = await ctx.store.modifierGroups.nestingGraph(tenant);
    const problems = new Problems();
    fields.options.forEach((option, i) =>
      option.childGroupIds.forEach((child, j) => {
        if (!graph.has(child))
          problems.add(`options[${i}].childGroupIds[${j}]`, 'is not a modifier group of this catalog');
      }),
    );
    problems.throwIfAny();
    const groupId = existing?._id ?? 'new-group';
    const problem = nestingProblem(
      graph,
      groupId,
      fields.options.flatMap((o) => o.childGroupIds),
    );
    if (problem === 'cycle') problems.add('options', 'nests groups in a cycle: a group would contain itself');
    if (problem === 'too_deep') problems.add('options', `nests groups more than ${MAX_NESTING_DEPTH} levels deep`);
    problems.throwIfAny();
    return fields;
  });

export const deleteModifierGroup = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, MODIFIER_GROUPS, tenant, id, async () => [
    ...(await ctx.store.products.liveIdsOfferingGroup(tenant, id)),
    ...(await ctx.store.modifierGroups.liveIdsNesting(tenant, id)),
  ]);

export const saveProduct = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: ProductInput) =>
  saveResource(ctx, PRODUCTS, tenant, id, async (existing) => {
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

/** The tenant's live products in a category (the tenant API's `?categoryId=`). */
export const listProductsInCategory = (ctx: CatalogContext, tenant: TenantScope, categoryId: string) =>
  ctx.store.products.listLiveInCategory(tenant, categoryId);

export const deleteProduct = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, PRODUCTS, tenant, id);
