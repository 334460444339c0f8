import { normalizeCode, promotionProblem, type Promotion } from './promotion';

const base: Promotion = {
  id: 'p1',
  tenantId: 't1',
  code: 'SUMMER10',
  description: null,
  effect: { kind: 'percentage', percent: 10 },
  minimumSubtotalMinor: 2000,
  validFrom: new Date('2026-06-01T00:00:00Z'),
  validUntil: new Date('2026-09-01T00:00:00Z'),
  branchIds: ['b1'],
  usageLimit: 100,
  isActive: true,
  createdAt: new Date('2026-05-01T00:00:00Z'),
  updatedAt: new Date('2026-05-01T00:00:00Z'),
};
const order = { branchId: 'b1', subtotalMinor: 2000, at: new Date('2026-07-01T12:00:00Z') };

describe('promotionProblem', () => {
  it('applies within every condition, the minimum and the start included', () => {
    expect(promotionProblem(base, order)).toBeUndefined();
    expect(promotionProblem(base, { ...order, at: new Date('2026-06-01T00:00:00Z') })).toBeUndefined();
  });

  it.each([
    ['inactive', { ...base, isActive: false }, order, 'is not active'],
    ['before its start', base, { ...order, at: new Date('2026-05-31T23:59:59Z') }, 'is not valid yet'],
    ['at its end (exclusive)', base, { ...order, at: new Date('2026-09-01T00:00:00Z') }, 'has expired'],
    ['another branch', base, { ...order, branchId: 'b2' }, 'is not valid at this branch'],
    ['a subtotal one cent short', base, { ...order, subtotalMinor: 1999 }, 'needs a higher subtotal'],
  ])('refuses %s', (_name, promotion, o, message) => {
    expect(promotionProblem(promotion, o)).toBe(message);
  });

  it('without window or branch scope applies anywhere, any time', () => {
    expect(
      promotionProblem(
        { ...base, validFrom: null, validUntil: null, branchIds: null },
        { ...order, branchId: 'b9', at: new Date('2030-01-01') },
      ),
    ).toBeUndefined();
  });

  it('matches codes case-insensitively', () => {
    expect(normalizeCode(' summer10 ')).toBe('SUMMER10');
  });
});
