import { requestSchemas } from '@marketplace/contracts';
import { bodyValidator } from '@marketplace/http';
import type {
  AvailabilityPatch,
  BranchInput,
  CategoryInput,
  ModifierGroupInput,
  ProductInput,
  TaxCategoryInput,
} from '../domain/inputs';

/**
 * Request bodies of the tenant API: the contracts' schemas, which the OpenAPI document shows. The
 * rules that need more than a shape (money, languages, references, cycles) are in domain/rules.ts
 * and the use cases; both answer 400 `request.invalid` with the offending fields.
 */
export const validateTaxCategory = bodyValidator<TaxCategoryInput>(requestSchemas.TaxCategoryInput);
export const validateBranch = bodyValidator<BranchInput>(requestSchemas.BranchInput);
export const validateCategory = bodyValidator<CategoryInput>(requestSchemas.CategoryInput);
export const validateProduct = bodyValidator<ProductInput>(requestSchemas.ProductInput);
export const validateModifierGroup = bodyValidator<ModifierGroupInput>(requestSchemas.ModifierGroupInput);
export const validateAvailabilityPatch = bodyValidator<AvailabilityPatch>(requestSchemas.AvailabilityPatch);
