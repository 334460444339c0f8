import { componentValidator, tenantDocumentOperationIds } from '@marketplace/testing';
import { tenantCatalogApiDocument } from '@marketplace/contracts';

const validator = (name: string) => componentValidator(tenantCatalogApiDocument, name);

it('is valid OpenAPI 3.1 and plain JSON, every operation with a unique id, the tenant token and a 401', () => {
  expect(tenantDocumentOperationIds(tenantCatalogApiDocument)).toHaveLength(28);
});

it('describes resources the way the service answers them', () => {
  const product = {
    id: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a11',
    categoryId: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a12',
    sortOrder: 0,
    sku: null,
    name: 'Margherita',
    imageUrl: null,
    taxCategoryId: null,
    translations: { de: 'Margherita' },
    variants: [
      {
        id: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a13',
        sku: null,
        name: 'Small',
        price: 7.5,
        compareAtPrice: null,
        isDefault: true,
        modifierGroupIds: [],
        translations: {},
      },
    ],
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
  };
  expect(validator('Product')(product)).toBe(true);
  expect(validator('Product')({ ...product, extra: 1 })).toBe(false);
  expect(
    validator('ProductInput')({
      categoryId: product.categoryId,
      name: 'X',
      variants: [{ name: 'S', price: 1, isDefault: true }],
    }),
  ).toBe(true);
  expect(validator('ProductInput')({ categoryId: product.categoryId, name: 'X', variants: [] })).toBe(false);
  expect(validator('AvailabilityPatch')({ products: { [product.id]: 3 } })).toBe(false);
});
