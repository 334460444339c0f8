import {
  type JsonSchema,
  arrayOf,
  bool,
  double,
  int32,
  nullableDouble,
  nullableRef,
  nullableStr,
  object,
  ref,
  str,
  uuid,
} from '../json-schema';

/** Partner API catalog reads (owner: catalog): branches, the effective menu, a product. */
const variantSummaryProperties: Record<string, JsonSchema> = {
  id: uuid(),
  sku: nullableStr(),
  name: str(),
  price: double('Display price, not a locked price.'),
  compareAtPrice: nullableDouble(),
  isDefault: bool(),
  availability: ref('Availability'),
};

export const partnerCatalogSchemas: Record<string, JsonSchema> = {
  Availability: {
    type: 'integer',
    format: 'int32',
    enum: [0, 1, 2],
    'x-enum-varnames': ['Available', 'SoldOut', 'Unavailable'],
    description: '0 Available, 1 SoldOut at this branch, 2 Unavailable at this branch. An integer, never a boolean.',
  },
  Branch: object({
    id: uuid(),
    name: str(),
    isActive: bool(),
    externalLocationId: {
      ...nullableStr('Opaque string configured by the tenant; null when unmapped.'),
      maxLength: 256,
    },
  }),
  ProductListResponse: object({
    categories: arrayOf(ref('Category')),
    resolvedLanguage: nullableStr('The language resolved from the `language` query parameter.'),
  }),
  Category: object({ id: uuid(), name: str(), products: arrayOf(ref('ProductSummary')) }),
  ProductSummary: object({
    id: uuid(),
    sku: nullableStr(),
    name: str(),
    imageUrl: nullableStr(),
    taxCategory: nullableRef('TaxCategory'),
    availability: ref('Availability'),
    startingPrice: double(),
    variants: arrayOf(ref('VariantSummary')),
  }),
  TaxCategory: object({ rate: double(), isInclusive: bool() }),
  VariantSummary: object(variantSummaryProperties),
  ProductDetailResponse: object({
    id: uuid(),
    sku: nullableStr(),
    name: str(),
    imageUrl: nullableStr(),
    taxCategory: nullableRef('TaxCategory'),
    availability: ref('Availability'),
    variants: arrayOf(ref('VariantDetail')),
    resolvedLanguage: nullableStr('The language resolved from the `language` query parameter.'),
  }),
  VariantDetail: object(
    { ...variantSummaryProperties, modifierGroups: arrayOf(ref('ModifierGroup')) },
    'All Variant summary fields plus the modifier groups.',
  ),
  ModifierGroup: object({
    id: uuid(),
    name: str(),
    minSelections: int32(),
    maxSelections: int32(),
    isRequired: bool(),
    sortOrder: int32(),
    options: arrayOf(ref('ModifierOption')),
  }),
  ModifierOption: object({
    id: uuid(),
    name: str(),
    price: double(),
    isDefault: bool(),
    availability: ref('Availability'),
    childGroups: arrayOf(ref('ModifierGroup'), 'Nested modifier groups, recursively; empty when none.'),
  }),
};
