import { type JsonSchema, bool, nullable, object, text, uuid } from '../json-schema';

/**
 * Request bodies of catalog's tenant API. The rules that need more than a shape (money precision,
 * languages, references, cycles) are checked by catalog's domain and use cases; both answer 400
 * `request.invalid` with the offending fields.
 */
const name = text(200);
const sku = nullable(text(64));
/** Decimals are the tenant currency's (EUR 2, JPY 0, KWD 3): the domain checks them, no schema can. */
const amount: JsonSchema = {
  type: 'number',
  minimum: 0,
  maximum: 1_000_000,
  description: "In the tenant currency's major unit, with at most its decimals.",
};
/**
 * A BCP 47 language tag: language, then optionally a script, a region and variants (`de`, `de-AT`,
 * `zh-Hant-TW`, `sl-rozaj`). The catalog canonicalises it; a repeated variant is the one malformed
 * tag this grammar lets through, and the catalog refuses it.
 */
const LANGUAGE_TAG =
  '^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?(-([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$';
const sortOrder: JsonSchema = { type: 'integer', minimum: -1_000_000, maximum: 1_000_000 };
const translations: JsonSchema = {
  type: 'object',
  description: 'Names by language tag (at most 50).',
  maxProperties: 50,
  propertyNames: { minLength: 1, maxLength: 35, pattern: LANGUAGE_TAG },
  additionalProperties: name,
};
const ids = (max: number): JsonSchema => ({ type: 'array', maxItems: max, uniqueItems: true, items: uuid() });
const latitude: JsonSchema = { type: 'number', minimum: -90, maximum: 90 };
const longitude: JsonSchema = { type: 'number', minimum: -180, maximum: 180 };

export const TaxCategoryInput = object(
  {
    name,
    rate: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      description: 'Percent, 0 to 100, at most 4 decimals: 19 is 19 %.',
    },
    isInclusive: bool('The rate is already included in the prices.'),
    translations,
  },
  { optional: ['translations'] },
);

export const BranchInput = object(
  {
    name,
    isActive: bool(
      'Default true. An active branch takes orders, so it needs an address and coordinates (the pickup a driver ' +
        'is sent to): without them 400 `request.invalid` naming `address` and `coordinates`.',
    ),
    externalLocationId: nullable(text(256)),
    address: nullable(
      object(
        {
          line1: name,
          line2: nullable(name),
          city: name,
          postalCode: nullable(text(20)),
          countryCode: { type: 'string', pattern: '^[A-Z]{2}$' },
        },
        { optional: ['line2', 'postalCode'] },
      ),
    ),
    coordinates: nullable(object({ latitude, longitude })),
    translations,
  },
  { optional: ['isActive', 'externalLocationId', 'address', 'coordinates', 'translations'] },
);

export const CategoryInput = object({ name, sortOrder, translations }, { optional: ['sortOrder', 'translations'] });

export const VariantInput = {
  ...object(
    {
      id: uuid(),
      sku,
      name,
      price: amount,
      compareAtPrice: nullable(amount),
      isDefault: bool(),
      modifierGroupIds: ids(50),
      translations,
    },
    { optional: ['id', 'sku', 'compareAtPrice', 'modifierGroupIds', 'translations'] },
  ),
  title: 'VariantInput',
};

export const ProductInput = object(
  {
    categoryId: uuid(),
    sortOrder,
    sku,
    name,
    imageUrl: nullable({ ...text(2048), format: 'uri', pattern: '^https://', description: 'An absolute https URL.' }),
    taxCategoryId: nullable(uuid()),
    translations,
    variants: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: VariantInput,
      description: 'Exactly one is the default (isDefault).',
    },
  },
  { optional: ['sortOrder', 'sku', 'imageUrl', 'taxCategoryId', 'translations'] },
);

export const ModifierOptionInput = {
  ...object(
    { id: uuid(), name, price: amount, isDefault: bool(), childGroupIds: ids(20), translations },
    { optional: ['id', 'isDefault', 'childGroupIds', 'translations'] },
  ),
  title: 'ModifierOptionInput',
};

export const ModifierGroupInput = object(
  {
    name,
    minSelections: { type: 'integer', minimum: 0, maximum: 100 },
    maxSelections: { type: 'integer', minimum: 1, maximum: 100 },
    isRequired: bool(),
    sortOrder,
    translations,
    options: { type: 'array', minItems: 1, maxItems: 100, items: ModifierOptionInput },
  },
  {
    optional: ['sortOrder', 'translations'],
    // Rules between fields, checked by catalog with messages that name both (a schema's if/then
    // would blame minSelections alone with "must be >= 1").
    description:
      'minSelections at most maxSelections, maxSelections at most the number of options, and isRequired true exactly when minSelections is at least 1.',
  },
);

const availabilityMap: JsonSchema = {
  type: 'object',
  description: 'Id mapped to 0 Available (clears the entry), 1 SoldOut or 2 Unavailable.',
  maxProperties: 10_000,
  propertyNames: { format: 'uuid' },
  additionalProperties: { type: 'integer', enum: [0, 1, 2] },
};
export const AvailabilityPatch = object(
  { products: availabilityMap, variants: availabilityMap, modifierOptions: availabilityMap },
  {
    optional: ['products', 'variants', 'modifierOptions'],
    description: 'Entries to set; 0 (Available) clears an entry.',
  },
);
