/**
 * Request bodies of the tenant API after their JSON shape was checked (http/schemas.ts): the types
 * generated from the contracts' schemas.
 */
export type {
  TaxCategoryInput,
  BranchInput,
  CategoryInput,
  ProductInput,
  VariantInput,
  ModifierGroupInput,
  ModifierOptionInput,
  AvailabilityPatch,
} from '@marketplace/contracts';
