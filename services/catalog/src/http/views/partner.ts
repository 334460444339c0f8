import type {
  Branch as BranchBody,
  Category as CategoryBody,
  ModifierGroup as ModifierGroupBody,
  ModifierOption as ModifierOptionBody,
  ProductDetailResponse,
  ProductListResponse,
  ProductSummary,
  VariantDetail,
  VariantSummary,
} from '@marketplace/contracts';
import { fromMinorUnits } from '@marketplace/money';
import {
  emptyAvailability,
  optionAvailability,
  productAvailability,
  variantAvailability,
  type BranchAvailability,
} from '../../domain/availability';
import { nameIn } from '../../domain/language';
import { startingPriceMinor, type Menu } from '../../domain/menu';
import type { Branch, ModifierGroup, Product, Variant } from '../../domain/model';
import type { PartnerViews } from '../../usecases/ports';

/**
 * Partner API bodies (endpoints 1 to 3), from the menu: each object is typed with the published
 * document's type (the callbacks too, where an extra field would otherwise pass unchecked), so a
 * view that drifts from the Partner API schema does not compile.
 */

/** Spec: Branch. */
export function branchView(branch: Branch): BranchBody {
  return {
    id: branch._id,
    name: branch.name,
    isActive: branch.isActive,
    externalLocationId: branch.externalLocationId,
  };
}

/** Spec endpoint 1: the list of branches. */
export function branchListView(branches: readonly Branch[]): BranchBody[] {
  return branches.map(branchView);
}

function taxView(menu: Menu, taxCategoryId: string | null): ProductSummary['taxCategory'] {
  const tax = taxCategoryId ? menu.taxes.get(taxCategoryId) : undefined;
  return tax ? { rate: tax.rate, isInclusive: tax.isInclusive } : null;
}

function variantSummary(
  menu: Menu,
  av: BranchAvailability,
  product: Product,
  v: Variant,
  language: string,
): VariantSummary {
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

function productHead(
  menu: Menu,
  av: BranchAvailability,
  product: Product,
  language: string,
): Omit<ProductSummary, 'startingPrice' | 'variants'> {
  return {
    id: product._id,
    sku: product.sku,
    name: nameIn(product, language),
    imageUrl: product.imageUrl,
    taxCategory: taxView(menu, product.taxCategoryId),
    availability: productAvailability(
      av,
      product._id,
      product.variants.map((v) => v.id),
    ),
  };
}

/** Spec: Product list response. */
export function productListView(menu: Menu, branchId: string, language: string): ProductListResponse {
  const av = menu.availability.get(branchId) ?? emptyAvailability();
  return {
    categories: menu.categories.map(({ category, products }): CategoryBody => ({
      id: category._id,
      name: nameIn(category, language),
      products: products.map((product): ProductSummary => ({
        ...productHead(menu, av, product, language),
        startingPrice: fromMinorUnits(startingPriceMinor(av, product), menu.decimals),
        variants: product.variants.map((v) => variantSummary(menu, av, product, v, language)),
      })),
    })),
    resolvedLanguage: language,
  };
}

/** Spec: Product detail response, with every modifier group nested through its options. */
export function productDetailView(
  menu: Menu,
  branchId: string,
  product: Product,
  language: string,
): ProductDetailResponse {
  const av = menu.availability.get(branchId) ?? emptyAvailability();
  const groupsView = (ids: readonly string[]): ModifierGroupBody[] =>
    ids
      .map((id) => menu.groups.get(id))
      .filter((g): g is ModifierGroup => g !== undefined)
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map((g): ModifierGroupBody => ({
        id: g._id,
        name: nameIn(g, language),
        minSelections: g.minSelections,
        maxSelections: g.maxSelections,
        isRequired: g.isRequired,
        sortOrder: g.sortOrder,
        options: g.options.map((o): ModifierOptionBody => ({
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
    variants: product.variants.map((v): VariantDetail => ({
      ...variantSummary(menu, av, product, v, language),
      modifierGroups: groupsView(v.modifierGroupIds),
    })),
    resolvedLanguage: language,
  };
}

/** What the partner reads render (usecases/read-branches.ts and the two product reads beside it). */
export const partnerViews: PartnerViews = {
  branches: branchListView,
  productList: productListView,
  productDetail: productDetailView,
};
