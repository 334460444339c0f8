/** Request bodies of the tenant API, after their JSON shape was checked (http/schemas.ts). */

export interface TranslationsInput {
  translations?: Record<string, string>;
}

export interface TaxCategoryInput extends TranslationsInput {
  name: string;
  rate: number;
  isInclusive: boolean;
}

export interface BranchInput extends TranslationsInput {
  name: string;
  isActive?: boolean;
  externalLocationId?: string | null;
  address?: { line1: string; line2?: string | null; city: string; postalCode?: string | null; countryCode: string } | null;
  coordinates?: { latitude: number; longitude: number } | null;
}

export interface CategoryInput extends TranslationsInput {
  name: string;
  sortOrder?: number;
}

export interface VariantInput extends TranslationsInput {
  id?: string;
  sku?: string | null;
  name: string;
  price: number;
  compareAtPrice?: number | null;
  isDefault: boolean;
  modifierGroupIds?: string[];
}

export interface ProductInput extends TranslationsInput {
  categoryId: string;
  sortOrder?: number;
  sku?: string | null;
  name: string;
  imageUrl?: string | null;
  taxCategoryId?: string | null;
  variants: VariantInput[];
}

export interface ModifierOptionInput extends TranslationsInput {
  id?: string;
  name: string;
  price: number;
  isDefault?: boolean;
  childGroupIds?: string[];
}

export interface ModifierGroupInput extends TranslationsInput {
  name: string;
  minSelections: number;
  maxSelections: number;
  isRequired: boolean;
  sortOrder?: number;
  options: ModifierOptionInput[];
}

/** Entries to set; 0 (Available) clears an entry. */
export interface AvailabilityPatch {
  products?: Record<string, 0 | 1 | 2>;
  variants?: Record<string, 0 | 1 | 2>;
  modifierOptions?: Record<string, 0 | 1 | 2>;
}
