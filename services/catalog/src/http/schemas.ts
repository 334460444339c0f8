import { bodyValidator } from '@marketplace/http';
import type { AvailabilityPatch, BranchInput, CategoryInput, ModifierGroupInput, ProductInput, TaxCategoryInput } from '../domain/inputs';
import { VALIDATION_FAILED } from '../domain/rules';

/**
 * JSON shapes of the tenant API's request bodies. The rules that need more than a shape (money,
 * languages, references, cycles) are in domain/rules.ts and the use cases; both answer 400
 * `catalog.validation_failed` with the offending fields. The OpenAPI document shows these same
 * schemas.
 */
const uuid = { type: 'string', format: 'uuid' };
const name = { type: 'string', minLength: 1, maxLength: 200 };
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const sku = nullable({ type: 'string', minLength: 1, maxLength: 64 });
const amount = { type: 'number', minimum: 0 };
const sortOrder = { type: 'integer', minimum: -1_000_000, maximum: 1_000_000 };
const translations = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { minLength: 1, maxLength: 35 },
  additionalProperties: name,
};
const ids = (max: number) => ({ type: 'array', maxItems: max, items: uuid });

const object = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required, properties });

export const taxCategoryInput = object(['name', 'rate', 'isInclusive'], {
  name,
  rate: { type: 'number', description: 'Percent, 0 to 100, at most 4 decimals: 19 is 19 %.' },
  isInclusive: { type: 'boolean', description: 'The rate is already included in the prices.' },
  translations,
});

export const branchInput = object(['name'], {
    name,
    isActive: { type: 'boolean' },
    externalLocationId: nullable({ type: 'string', minLength: 1, maxLength: 256 }),
    address: nullable(
      object(['line1', 'city', 'countryCode'], {
        line1: name,
        line2: nullable(name),
        city: name,
        postalCode: nullable({ type: 'string', minLength: 1, maxLength: 20 }),
        countryCode: { type: 'string', pattern: '^[A-Z]{2}$' },
      }),
    ),
    coordinates: nullable(object(['latitude', 'longitude'], { latitude: { type: 'number', minimum: -90, maximum: 90 }, longitude: { type: 'number', minimum: -180, maximum: 180 } })),
    translations,
});

export const categoryInput = object(['name'], { name, sortOrder, translations });

export const productInput = object(['categoryId', 'name', 'variants'], {
    categoryId: uuid,
    sortOrder,
    sku,
    name,
    imageUrl: nullable({ type: 'string', minLength: 1, maxLength: 2048 }),
    taxCategoryId: nullable(uuid),
    translations,
    variants: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: object(['name', 'price', 'isDefault'], {
        id: uuid,
        sku,
        name,
        price: amount,
        compareAtPrice: nullable(amount),
        isDefault: { type: 'boolean' },
        modifierGroupIds: ids(50),
        translations,
      }),
    },
});

export const modifierGroupInput = object(['name', 'minSelections', 'maxSelections', 'isRequired', 'options'], {
    name,
    minSelections: { type: 'integer', minimum: 0, maximum: 100 },
    maxSelections: { type: 'integer', minimum: 1, maximum: 100 },
    isRequired: { type: 'boolean' },
    sortOrder,
    translations,
    options: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: object(['name', 'price'], { id: uuid, name, price: amount, isDefault: { type: 'boolean' }, childGroupIds: ids(20), translations }),
    },
});

const availabilityMap = { type: 'object', maxProperties: 10_000, propertyNames: { format: 'uuid' }, additionalProperties: { type: 'integer', enum: [0, 1, 2] } };
export const availabilityPatchInput = object([], { products: availabilityMap, variants: availabilityMap, modifierOptions: availabilityMap });

export const validateTaxCategory = bodyValidator<TaxCategoryInput>(taxCategoryInput, VALIDATION_FAILED);
export const validateBranch = bodyValidator<BranchInput>(branchInput, VALIDATION_FAILED);
export const validateCategory = bodyValidator<CategoryInput>(categoryInput, VALIDATION_FAILED);
export const validateProduct = bodyValidator<ProductInput>(productInput, VALIDATION_FAILED);
export const validateModifierGroup = bodyValidator<ModifierGroupInput>(modifierGroupInput, VALIDATION_FAILED);
export const validateAvailabilityPatch = bodyValidator<AvailabilityPatch>(availabilityPatchInput, VALIDATION_FAILED);
