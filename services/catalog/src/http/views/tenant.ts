import { fromMinorUnits } from '@marketplace/money';
import type { AvailabilityResource, Branch, Category, ModifierGroup, Product, TaxCategory } from '../../domain/model';

/** Tenant API representations: money in major units, `id` instead of `_id`, no internal fields. */

const stamps = (doc: { createdAt: Date; updatedAt: Date }) => ({
  createdAt: doc.createdAt.toISOString(),
  updatedAt: doc.updatedAt.toISOString(),
});

export function taxCategoryView(doc: TaxCategory) {
  return {
    id: doc._id,
    name: doc.name,
    rate: doc.rate,
    isInclusive: doc.isInclusive,
    translations: doc.translations,
    ...stamps(doc),
  };
}

export function tenantBranchView(doc: Branch) {
  return {
    id: doc._id,
    name: doc.name,
    isActive: doc.isActive,
    externalLocationId: doc.externalLocationId,
    address: doc.address,
    coordinates: doc.coordinates,
    translations: doc.translations,
    ...stamps(doc),
  };
}

export function categoryView(doc: Category) {
  return { id: doc._id, name: doc.name, sortOrder: doc.sortOrder, translations: doc.translations, ...stamps(doc) };
}

export function productView(doc: Product, decimals: number) {
  return {
    id: doc._id,
    categoryId: doc.categoryId,
    sortOrder: doc.sortOrder,
    sku: doc.sku,
    name: doc.name,
    imageUrl: doc.imageUrl,
    taxCategoryId: doc.taxCategoryId,
    translations: doc.translations,
    variants: doc.variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      name: v.name,
      price: fromMinorUnits(v.priceMinor, decimals),
      compareAtPrice: v.compareAtPriceMinor === null ? null : fromMinorUnits(v.compareAtPriceMinor, decimals),
      isDefault: v.isDefault,
      modifierGroupIds: v.modifierGroupIds,
      translations: v.translations,
    })),
    ...stamps(doc),
  };
}

export function modifierGroupView(doc: ModifierGroup, decimals: number) {
  return {
    id: doc._id,
    name: doc.name,
    minSelections: doc.minSelections,
    maxSelections: doc.maxSelections,
    isRequired: doc.isRequired,
    sortOrder: doc.sortOrder,
    translations: doc.translations,
    options: doc.options.map((o) => ({
      id: o.id,
      name: o.name,
      price: fromMinorUnits(o.priceMinor, decimals),
      isDefault: o.isDefault,
      childGroupIds: o.childGroupIds,
      translations: o.translations,
    })),
    ...stamps(doc),
  };
}

export function availabilityView(branchId: string, doc: AvailabilityResource | null) {
  return {
    branchId,
    products: doc?.products ?? {},
    variants: doc?.variants ?? {},
    modifierOptions: doc?.modifierOptions ?? {},
  };
}
