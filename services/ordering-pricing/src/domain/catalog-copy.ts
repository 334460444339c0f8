/**
 * Ordering's copy of the tenants' catalogs, kept from the `catalog` topic (see
 * usecases/catalog/apply-catalog-change.ts). Only what pricing and validation read is typed here; the copy stores
 * each resource's whole state as the catalog published it. Money in integer minor units.
 */
export interface CopiedBranch {
  id: string;
  name: string;
  isActive: boolean;
  externalLocationId: string | null;
  address: { line1: string; line2: string | null; city: string; postalCode: string | null; countryCode: string } | null;
  coordinates: { latitude: number; longitude: number } | null;
}

/** A branch with an address and coordinates: the pickup of its orders. */
export type LocatedBranch = CopiedBranch & {
  address: NonNullable<CopiedBranch['address']>;
  coordinates: NonNullable<CopiedBranch['coordinates']>;
};

/**
 * Whether the branch can take orders as far as its place goes: an order's branch pickup info has
 * numbers for latitude and longitude, always. Catalog refuses an active branch without an address
 * and coordinates; a branch stored before it did may still lack them.
 */
export const isLocated = (branch: CopiedBranch): branch is LocatedBranch =>
  branch.address !== null && branch.coordinates !== null;

export interface CopiedTaxCategory {
  id: string;
  name: string;
  rate: number;
  isInclusive: boolean;
}

export interface CopiedVariant {
  id: string;
  name: string;
  priceMinor: number;
  modifierGroupIds: string[];
}

export interface CopiedProduct {
  id: string;
  name: string;
  taxCategoryId: string | null;
  variants: CopiedVariant[];
}

export interface CopiedOption {
  id: string;
  name: string;
  priceMinor: number;
  childGroupIds: string[];
}

export interface CopiedModifierGroup {
  id: string;
  name: string;
  minSelections: number;
  maxSelections: number;
  isRequired: boolean;
  options: CopiedOption[];
}

/** A branch's overrides; an id absent from a map is Available (0). */
export interface CopiedAvailability {
  products: Record<string, 1 | 2>;
  variants: Record<string, 1 | 2>;
  modifierOptions: Record<string, 1 | 2>;
}

export type CopiedEntity = 'tax-category' | 'branch' | 'category' | 'modifier-group' | 'product' | 'availability';

/** The id of a copied resource of the tenant in the copy: tenant:entity:id. */
export const catalogCopyId = (owner: { tenantId: string }, entity: CopiedEntity, id: string) =>
  `${owner.tenantId}:${entity}:${id}`;

/** The part of one tenant's catalog an order touches, loaded for that order. */
export interface MenuSlice {
  branch: CopiedBranch | undefined;
  availability: CopiedAvailability;
  products: ReadonlyMap<string, CopiedProduct>;
  groups: ReadonlyMap<string, CopiedModifierGroup>;
  taxes: ReadonlyMap<string, CopiedTaxCategory>;
}
