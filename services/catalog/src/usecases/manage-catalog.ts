import type { BranchDoc, CategoryDoc, ModifierGroupDoc, ProductDoc, TaxCategoryDoc } from '../domain/model';
import type { BranchInput, CategoryInput, ModifierGroupInput, ProductInput, TaxCategoryInput } from '../domain/inputs';
import { nestingProblem, MAX_NESTING_DEPTH } from '../domain/modifier-graph';
import { branchFields, categoryFields, modifierGroupFields, Problems, productFields, taxCategoryFields } from '../domain/rules';
import type { CatalogContext, TenantScope } from './context';
import { deleteResource, live, saveResource, type ResourceType } from './resources';

/** The tenant's management of its catalog: one function per resource and action. */

export const TAX_CATEGORIES: ResourceType<TaxCategoryDoc> = { kind: 'tax-category', collectionName: 'tax_categories', collection: (ctx) => ctx.store.taxCategories };
export const BRANCHES: ResourceType<BranchDoc> = { kind: 'branch', collectionName: 'branches', collection: (ctx) => ctx.store.branches };
export const CATEGORIES: ResourceType<CategoryDoc> = { kind: 'category', collectionName: 'categories', collection: (ctx) => ctx.store.categories };
export const MODIFIER_GROUPS: ResourceType<ModifierGroupDoc> = { kind: 'modifier-group', collectionName: 'modifier_groups', collection: (ctx) => ctx.store.modifierGroups };
export const PRODUCTS: ResourceType<ProductDoc> = { kind: 'product', collectionName: 'products', collection: (ctx) => ctx.store.products };

const ids = (docs: { _id: string }[]) => docs.map((d) => d._id);

export const saveTaxCategory = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: TaxCategoryInput) =>
  saveResource(ctx, TAX_CATEGORIES, tenant, id, async () => taxCategoryFields(input, tenant));

export const deleteTaxCategory = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, TAX_CATEGORIES, tenant, id, async () => ids(await ctx.store.products.find(live(tenant, { taxCategoryId: id }), { projection: { _id: 1 } }).toArray()));

export const saveBranch = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: BranchInput) =>
  saveResource(ctx, BRANCHES, tenant, id, async () => branchFields(input, tenant));

export const deleteBranch = (ctx: CatalogContext, tenant: TenantScope, id: string) => deleteResource(ctx, BRANCHES, tenant, id);

export const saveCategory = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: CategoryInput) =>
  saveResource(ctx, CATEGORIES, tenant, id, async () => categoryFields(input, tenant));

export const deleteCategory = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, CATEGORIES, tenant, id, async () => ids(await ctx.store.products.find(live(tenant, { categoryId: id }), { projection: { _id: 1 } }).toArray()));

export const saveModifierGroup = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: ModifierGroupInput) =>
  saveResource(ctx, MODIFIER_GROUPS, tenant, id, async (existing) => {
    const fields = modifierGroupFields(input, tenant, new Set(existing?.options.map((o) => o.id)));
    const groups = await ctx.store.modifierGroups.find(live(tenant), { projection: { _id: 1, 'options.childGroupIds': 1 } }).toArray();
    const graph = new Map(groups.map((g) => [g._id, g.options.flatMap((o) => o.childGroupIds)]));
    const problems = new Problems();
    fields.options.forEach((option, i) =>
      option.childGroupIds.forEach((child, j) => {
        if (!graph.has(child)) problems.add(`options[${i}].childGroupIds[${j}]`, 'is not a modifier group of this catalog');
      }),
    );
    problems.throwIfAny();
    const groupId = existing?._id ?? 'new-group';
    const problem = nestingProblem(graph, groupId, fields.options.flatMap((o) => o.childGroupIds));
    if (problem === 'cycle') problems.add('options', 'nests groups in a cycle: a group would contain itself');
    if (problem === 'too_deep') problems.add('options', `nests groups more than ${MAX_NESTING_DEPTH} levels deep`);
    problems.throwIfAny();
    return fields;
  });

export const deleteModifierGroup = (ctx: CatalogContext, tenant: TenantScope, id: string) =>
  deleteResource(ctx, MODIFIER_GROUPS, tenant, id, async () => [
    ...ids(await ctx.store.products.find(live(tenant, { 'variants.modifierGroupIds': id }), { projection: { _id: 1 } }).toArray()),
    ...ids(await ctx.store.modifierGroups.find(live(tenant, { 'options.childGroupIds': id }), { projection: { _id: 1 } }).toArray()),
  ]);

export const saveProduct = (ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: ProductInput) =>
  saveResource(ctx, PRODUCTS, tenant, id, async (existing) => {
    const fields = productFields(input, tenant, new Set(existing?.variants.map((v) => v.id)));
    const groupIds = [...new Set(fields.variants.flatMap((v) => v.modifierGroupIds))];
    const [category, tax, groups] = await Promise.all([
      ctx.store.categories.findOne(live(tenant, { _id: fields.categoryId }), { projection: { _id: 1 } }),
      fields.taxCategoryId ? ctx.store.taxCategories.findOne(live(tenant, { _id: fields.taxCategoryId }), { projection: { _id: 1 } }) : null,
      groupIds.length > 0 ? ctx.store.modifierGroups.find(live(tenant, { _id: { $in: groupIds } }), { projection: { _id: 1 } }).toArray() : [],
    ]);
    const problems = new Problems();
    if (!category) problems.add('categoryId', 'is not a category of this catalog');
    if (fields.taxCategoryId && !tax) problems.add('taxCategoryId', 'is not a tax category of this catalog');
    const known = new Set(ids(groups));
    fields.variants.forEach((variant, i) =>
      variant.modifierGroupIds.forEach((groupId, j) => {
        if (!known.has(groupId)) problems.add(`variants[${i}].modifierGroupIds[${j}]`, 'is not a modifier group of this catalog');
      }),
    );
    problems.throwIfAny();
    return fields;
  });

export const deleteProduct = (ctx: CatalogContext, tenant: TenantScope, id: string) => deleteResource(ctx, PRODUCTS, tenant, id);
