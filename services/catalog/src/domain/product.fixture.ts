import type { Product } from './model';

/** One stored product with a variant, for the unit tests of what is made of it (events, views); not built. */
export const createdAt = new Date('2026-01-01T10:00:00Z');
export const updatedAt = new Date('2026-01-02T11:30:00Z');
export const product: Product = {
  _id: 'p',
  tenantId: 't1',
  seq: 7,
  deleted: false,
  createdAt,
  updatedAt,
  categoryId: 'c',
  sortOrder: 1,
  sku: null,
  name: 'Margherita',
  imageUrl: null,
  taxCategoryId: null,
  translations: { de: 'Margherita' },
  variants: [
    {
      id: 'v',
      sku: null,
      name: 'S',
      priceMinor: 999,
      compareAtPriceMinor: 1099,
      isDefault: true,
      modifierGroupIds: ['g'],
      translations: {},
    },
  ],
};
