import type { ModifierGroup } from '../../domain/model';
import { product } from '../../domain/product.fixture';
import { availabilityView, modifierGroupView, productView } from './tenant';

it('shows tenant API money in major units, with id and ISO timestamps and no bookkeeping', () => {
  expect(productView(product, 2)).toEqual({
    id: 'p',
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
        price: 9.99,
        compareAtPrice: 10.99,
        isDefault: true,
        modifierGroupIds: ['g'],
        translations: {},
      },
    ],
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-02T11:30:00.000Z',
  });
  const group: ModifierGroup = {
    ...product,
    name: 'G',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    sortOrder: 0,
    translations: {},
    options: [{ id: 'o', name: 'O', priceMinor: 5, isDefault: false, childGroupIds: [], translations: {} }],
  };
  expect(modifierGroupView(group, 0).options[0]!.price).toBe(5);
  expect(availabilityView('b', null)).toEqual({ branchId: 'b', products: {}, variants: {}, modifierOptions: {} });
});
