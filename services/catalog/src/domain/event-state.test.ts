import { eventState } from './event-state';
import { product, updatedAt } from './product.fixture';

it('gives events the stored state in minor units, without the tenant’s bookkeeping or the outbox', () => {
  const state = eventState({ ...product, _outbox: [{ eventId: 'e' }], _outboxSince: updatedAt } as never);
  expect(state).toEqual({
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
        priceMinor: 999,
        compareAtPriceMinor: 1099,
        isDefault: true,
        modifierGroupIds: ['g'],
        translations: {},
      },
    ],
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-02T11:30:00.000Z',
  });
});
