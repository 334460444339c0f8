import type { BranchAvailability } from './availability';

/**
 * The catalog's resources. Every resource belongs to one tenant; money is in integer minor units of
 * the tenant's currency; names come with `translations` (language tag → name). Deleted resources
 * stay as tombstones (`deleted: true`) so their last event can still be published from them. How
 * they are stored (the documents, with their outbox) is adapters/'s business.
 */
export type Translations = Record<string, string>;

/** What every catalog resource has besides its own fields (each kind below). */
export interface CatalogResource {
  _id: string;
  tenantId: string;
  /** The tenant-wide change sequence of the last change to this resource. */
  seq: number;
  deleted: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaxCategoryFields {
  name: string;
  /** Percent: 19 is 19 %. */
  rate: number;
  isInclusive: boolean;
  translations: Translations;
}

export interface Address {
  line1: string;
  line2: string | null;
  city: string;
  postalCode: string | null;
  countryCode: string;
}

export interface BranchFields {
  name: string;
  isActive: boolean;
  externalLocationId: string | null;
  address: Address | null;
  coordinates: { latitude: number; longitude: number } | null;
  translations: Translations;
}

export interface CategoryFields {
  name: string;
  sortOrder: number;
  translations: Translations;
}

export interface Variant {
  id: string;
  sku: string | null;
  name: string;
  priceMinor: number;
  compareAtPriceMinor: number | null;
  isDefault: boolean;
  modifierGroupIds: string[];
  translations: Translations;
}

export interface ProductFields {
  categoryId: string;
  sortOrder: number;
  sku: string | null;
  name: string;
  imageUrl: string | null;
  taxCategoryId: string | null;
  translations: Translations;
  variants: Variant[];
}

export interface ModifierOption {
  id: string;
  name: string;
  priceMinor: number;
  isDefault: boolean;
  childGroupIds: string[];
  translations: Translations;
}

export interface ModifierGroupFields {
  name: string;
  minSelections: number;
  maxSelections: number;
  isRequired: boolean;
  sortOrder: number;
  translations: Translations;
  options: ModifierOption[];
}

export type TaxCategory = CatalogResource & TaxCategoryFields;
export type Branch = CatalogResource & BranchFields;
export type Category = CatalogResource & CategoryFields;
export type Product = CatalogResource & ProductFields;
export type ModifierGroup = CatalogResource & ModifierGroupFields;
/** A branch's availability overrides as one resource (`_id` is the branch id). */
export type AvailabilityResource = CatalogResource & BranchAvailability;

/** The resources the tenant manages one by one, by the kind the catalog topic names them (its `entity`). */
export interface ManagedResources {
  'tax-category': TaxCategory;
  branch: Branch;
  category: Category;
  'modifier-group': ModifierGroup;
  product: Product;
}
export type ManagedKind = keyof ManagedResources;
