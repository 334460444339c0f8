import { emptyAvailability, optionAvailability, productAvailability, variantAvailability, type BranchAvailability } from './availability';
import { nameIn } from './language';
import { fromMinorUnits } from '@marketplace/money';
import type { AvailabilityDoc, BranchDoc, CategoryDoc, ModifierGroupDoc, ProductDoc, TaxCategoryDoc, Variant } from './model';

/**
 * One tenant's whole catalog in memory, as partners read it: built once per catalog revision, then
 * every branch's product list and every product detail is a walk over maps.
 */
export interface Menu {
  decimals: number;
  defaultLanguage: string;
  /** The default language and every language that has at least one translation. */
  languages: ReadonlySet<string>;
  branches: ReadonlyMap<string, BranchDoc>;
  /** Sorted, each with its products sorted. */
  categories: ReadonlyArray<{ category: CategoryDoc; products: ProductDoc[] }>;
  products: ReadonlyMap<string, ProductDoc>;
  groups: ReadonlyMap<string, ModifierGroupDoc>;
  taxes: ReadonlyMap<string, TaxCategoryDoc>;
  availability: ReadonlyMap<string, BranchAvailability>;
}

export interface MenuDocs {
  branches: BranchDoc[];
  categories: CategoryDoc[];
  products: ProductDoc[];
  groups: ModifierGroupDoc[];
  taxes: TaxCategoryDoc[];
  availability: AvailabilityDoc[];
}

const bySortOrder = <T extends { sortOrder: number; name: string; _id: string }>(a: T, b: T) =>
  a.sortOrder - b.sortOrder || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || (a._id < b._id ? -1 : 1);

export function buildMenu(docs: MenuDocs, decimals: number, defaultLanguage: string): Menu {
  const languages = new Set([defaultLanguage]);
  const collect = (t: Record<string, string>) => Object.keys(t).forEach((tag) => languages.add(tag));
  const productsByCategory = new Map<string, ProductDoc[]>();
  for (const product of docs.products) {
    collect(product.translations);
    product.variants.forEach((v) => collect(v.translations));
    (productsByCategory.get(product.categoryId) ?? productsByCategory.set(product.categoryId, []).get(product.categoryId)!).push(product);
  }
  for (const group of docs.groups) {
    collect(group.translations);
    group.options.forEach((o) => collect(o.translations));
  }
  docs.categories.forEach((c) => collect(c.translations));
  const categories = [...docs.categories].sort(bySortOrder).map((category) => ({ category, products: (productsByCategory.get(category._id) ?? []).sort(bySortOrder) }));
  return {
    decimals,
    defaultLanguage,
    languages,
    branches: new Map(docs.branches.map((b) => [b._id, b])),
    categories: categories.filter((c) => c.products.length > 0),
    products: new Map(docs.products.map((p) => [p._id, p])),
    groups: new Map(docs.groups.map((g) => [g._id, g])),
    taxes: new Map(docs.taxes.map((t) => [t._id, t])),
    availability: new Map(docs.availability.map((a) => [a._id, { products: a.products, variants: a.variants, modifierOptions: a.modifierOptions }])),
  };
}

/** Spec: Branch. */
export function branchView(branch: BranchDoc) {
  return { id: branch._id, name: branch.name, isActive: branch.isActive, externalLocationId: branch.externalLocationId };
}

/** The active branch, or undefined (inactive, deleted or unknown are all "not found"). */
export function activeBranch(menu: Menu, branchId: string): BranchDoc | undefined {
  const branch = menu.branches.get(branchId);
  return branch?.isActive ? branch : undefined;
}

export function activeBranches(menu: Menu) {
  return [...menu.branches.values()].filter((b) => b.isActive).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a._id < b._id ? -1 : 1)).map(branchView);
}

function taxView(menu: Menu, taxCategoryId: string | null) {
  const tax = taxCategoryId ? menu.taxes.get(taxCategoryId) : undefined;
  return tax ? { rate: tax.rate, isInclusive: tax.isInclusive } : null;
}

function variantSummary(menu: Menu, av: BranchAvailability, product: ProductDoc, v: Variant, language: string) {
  return {
    id: v.id,
    sku: v.sku,
    name: nameIn(v, language),
    price: fromMinorUnits(v.priceMinor, menu.decimals),
    compareAtPrice: v.compareAtPriceMinor === null ? null : fromMinorUnits(v.compareAtPriceMinor, menu.decimals),
    isDefault: v.isDefault,
    availability: variantAvailability(av, product._id, v.id),
  };
}

/** The lowest price among variants available at the branch, or among all when none is. */
function startingPriceMinor(av: BranchAvailability, product: ProductDoc): number {
  const available = product.variants.filter((v) => variantAvailability(av, product._id, v.id) === 0);
  return Math.min(...(available.length > 0 ? available : product.variants).map((v) => v.priceMinor));
}

function productHead(menu: Menu, av: BranchAvailability, product: ProductDoc, language: string) {
  return {
    id: product._id,
    sku: product.sku,
    name: nameIn(product, language),
    imageUrl: product.imageUrl,
    taxCategory: taxView(menu, product.taxCategoryId),
    availability: productAvailability(av, product._id, product.variants.map((v) => v.id)),
  };
}

/** Spec: Product list response (without resolvedLanguage, added by the caller). */
export function productListView(menu: Menu, branchId: string, language: string) {
  const av = menu.availability.get(branchId) ?? emptyAvailability();
  return {
    categories: menu.categories.map(({ category, products }) => ({
      id: category._id,
      name: nameIn(category, language),
      products: products.map((product) => ({
        ...productHead(menu, av, product, language),
        startingPrice: fromMinorUnits(startingPriceMinor(av, product), menu.decimals),
        variants: product.variants.map((v) => variantSummary(menu, av, product, v, language)),
      })),
    })),
    resolvedLanguage: language,
  };
}

/** Spec: Product detail response, with every modifier group nested through its options. */
export function productDetailView(menu: Menu, branchId: string, product: ProductDoc, language: string) {
  const av = menu.availability.get(branchId) ?? emptyAvailability();
  const groupsView = (ids: readonly string[]): unknown[] =>
    ids
      .map((id) => menu.groups.get(id))
      .filter((g): g is ModifierGroupDoc => g !== undefined)
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map((g) => ({
        id: g._id,
        name: nameIn(g, language),
        minSelections: g.minSelections,
        maxSelections: g.maxSelections,
        isRequired: g.isRequired,
        sortOrder: g.sortOrder,
        options: g.options.map((o) => ({
          id: o.id,
          name: nameIn(o, language),
          price: fromMinorUnits(o.priceMinor, menu.decimals),
          isDefault: o.isDefault,
          availability: optionAvailability(av, o.id),
          childGroups: groupsView(o.childGroupIds),
        })),
      }));
  return {
    ...productHead(menu, av, product, language),
    variants: product.variants.map((v) => ({ ...variantSummary(menu, av, product, v, language), modifierGroups: groupsView(v.modifierGroupIds) })),
    resolvedLanguage: language,
  };
}
