import {
  canRecordPayment,
  refundDueMinor,
  ORDER_STATUS,
  PAYMENT_STATUS,
  statusName,
  transition,
  type OrderAction,
  type OrderStatus,
} from './order-status';

const { Pending, Accepted, Completed, Rejected, Cancelled } = ORDER_STATUS;
const ALL: OrderStatus[] = [Pending, Accepted, Completed, Rejected, Cancelled];

describe('order status values', () => {
  it('keeps the values the spec fixes', () => {
    expect([Pending, Completed, Rejected, Cancelled]).toEqual([1, 6, 7, 8]);
    expect(statusName(Cancelled)).toBe('Cancelled');
    expect(statusName(Accepted)).toBe('Accepted');
  });
});

describe('transitions', () => {
  // Every (status, action) pair: the allowed ones with their target, every other one refused.
  const allowed: Array<[OrderStatus, OrderAction, OrderStatus]> = [
    [Pending, 'accept', Accepted],
    [Pending, 'reject', Rejected],
    [Accepted, 'complete', Completed],
    [Pending, 'cancelByTenant', Cancelled],
    [Accepted, 'cancelByTenant', Cancelled],
    [Completed, 'cancelByTenant', Cancelled],
    [Rejected, 'cancelByTenant', Cancelled],
    [Pending, 'cancelBySource', Cancelled],
    [Pending, 'completeByDelivery', Completed],
    [Accepted, 'completeByDelivery', Completed],
  ];
  const actions: OrderAction[] = [
    'accept',
    'reject',
    'complete',
    'cancelByTenant',
    'cancelBySource',
    'completeByDelivery',
  ];

  it.each(allowed)('from %p, %s leads to %p', (from, action, to) => {
    expect(transition(from, action)).toBe(to);
  });

  const refused = ALL.flatMap((from) => actions.map((action) => [from, action] as const)).filter(
    ([from, action]) => !allowed.some(([f, a]) => f === from && a === action),
  );
  it.each(refused)('from %p, %s is refused', (from, action) => {
    expect(transition(from, action)).toBeUndefined();
  });

  it('lets the tenant cancel from every state but Cancelled itself (spec: any | tenant cancels)', () => {
    expect(ALL.filter((from) => transition(from, 'cancelByTenant') === Cancelled)).toEqual([
      Pending,
      Accepted,
      Completed,
      Rejected,
    ]);
    // A second cancel is a 409 like every other repeated tenant action: no second orders.cancelled.
    expect(transition(Cancelled, 'cancelByTenant')).toBeUndefined();
  });

  it('refuses a source cancel once the tenant accepted (spec)', () => {
    expect(transition(Accepted, 'cancelBySource')).toBeUndefined();
  });
});

describe('recording a payment', () => {
  it.each([
    [Pending, true],
    [Accepted, true],
    [Completed, true],
    [Rejected, false],
    [Cancelled, false],
  ] as const)('on an unpaid order in status %p: %p', (status, expected) => {
    expect(canRecordPayment(status, PAYMENT_STATUS.Unpaid)).toBe(expected);
  });

  it('happens once', () => {
    expect(canRecordPayment(Pending, PAYMENT_STATUS.Paid)).toBe(false);
  });
});

describe('the refund due', () => {
  it('is the grand total of a Paid order that was Cancelled (from any state) or Rejected', () => {
    expect(refundDueMinor(Cancelled, PAYMENT_STATUS.Paid, 1795)).toBe(1795);
    expect(refundDueMinor(Rejected, PAYMENT_STATUS.Paid, 1795)).toBe(1795);
  });

  it('is 0 for an unpaid order, and for a paid order still going ahead or Completed', () => {
    expect(refundDueMinor(Cancelled, PAYMENT_STATUS.Unpaid, 1795)).toBe(0);
    for (const status of [Pending, Accepted, Completed])
      expect(refundDueMinor(status, PAYMENT_STATUS.Paid, 1795)).toBe(0);
  });
});
