import { variantAvailability, type BranchAvailability } from './availability';
import type { AvailabilityResource, Branch, Category, ModifierGroup, Product, TaxCategory } from './model';

/**
 * One tenant's whole catalog in memory, as partners read it: built once per catalog revision, then
 * every branch's product list and every product detail is a walk over maps (http/views/partner.ts).
 */
export interface Menu {
  decimals: number;
  defaultLanguage: string;
  /** The default language and every language that has at least one translation. */
  languages: ReadonlySet<string>;
  branches: ReadonlyMap<string, Branch>;
  /** Sorted, each with its products sorted. */
  categories: ReadonlyArray<{ category: Category; products: Product[] }>;
  products: ReadonlyMap<string, Product>;
  groups: ReadonlyMap<string, ModifierGroup>;
  taxes: ReadonlyMap<string, TaxCategory>;
  availability: ReadonlyMap<string, BranchAvailability>;
}

export interface MenuResources {
  branches: Branch[];
  categories: Category[];
  products: Product[];
  groups: ModifierGroup[];
  taxes: TaxCategory[];
  availability: AvailabilityResource[];
}

const bySortOrder = <T extends { sortOrder: number; name: string; _id: string }>(a: T, b: T) =>
  a.sortOrder - b.sortOrder || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || (a._id < b._id ? -1 : 1);

export function buildMenu(resources: MenuResources, decimals: number, defaultLanguage: string): Menu {
  const languages = new Set([defaultLanguage]);
  const collect = (t: Record<string, string>) => Object.keys(t).forEach((tag) => languages.add(tag));
  const productsByCategory = new Map<string, Product[]>();
  for (const product of resources.products) {
    collect(product.translations);
    product.variants.forEach((v) => collect(v.translations));
    (
      productsByCategory.get(product.categoryId) ??
      productsByCategory.set(product.categoryId, []).get(product.categoryId)!
    ).push(product);
  }
  for (const group of resources.groups) {
    collect(group.translations);
    group.options.forEach((o) => collect(o.translations));
  }
  resources.categories.forEach((c) => collect(c.translations));
  const categories = [...resources.categories]
    .sort(bySortOrder)
    .map((category) => ({ category, products: (productsByCategory.get(category._id) ?? []).sort(bySortOrder) }));
  return {
    decimals,
    defaultLanguage,
    languages,
    branches: new Map(resources.branches.map((b) => [b._id, b])),
    categories: categories.filter((c) => c.products.length > 0),
    products: new Map(resources.products.map((p) => [p._id, p])),
    groups: new Map(resources.groups.map((g) => [g._id, g])),
    taxes: new Map(resources.taxes.map((t) => [t._id, t])),
    availability: new Map(
      resources.availability.map((a) => [
        a._id,
        { products: a.products, variants: a.variants, modifierOptions: a.modifierOptions },
      ]),
    ),
  };
}

/** The active branch, or undefined (inactive, deleted or unknown are all "not found"). */
export function activeBranch(menu: Menu, branchId: string): Branch | undefined {
  const branch = menu.branches.get(branchId);
  return branch?.isActive ? branch : undefined;
}

/** The active branches, by name (then id). */
export function activeBranches(menu: Menu): Branch[] {
  return [...menu.branches.values()]
    .filter((b) => b.isActive)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a._id < b._id ? -1 : 1));
}

/** The lowest price among variants available at the branch, or among all when none is. */
export function startingPriceMinor(av: BranchAvailability, product: Product): number {
  const available = product.variants.filter((v) => variantAvailability(av, product._id, v.id) === 0);
  return Math.min(...(available.length > 0 ? available : product.variants).map((v) => v.priceMinor));
}
