import { decideProcessorPayment, decisionRecorded, type PaymentRecord } from './payment';

const at = new Date('2026-11-27T12:00:00Z');
const processorRecord = (eventId: string): PaymentRecord => ({
  by: 'processor',
  at,
  eventId,
  paymentReference: `pay_${eventId}`,
  amountMinor: 1795,
  occurredAt: at,
});
const order = (overrides: Partial<Parameters<typeof decideProcessorPayment>[0]> = {}) => ({
  paymentMethod: 2,
  currencyCode: 'EUR',
  totals: { grandTotalMinor: 1795 } as Parameters<typeof decideProcessorPayment>[0]['totals'],
  paymentRecords: [] as PaymentRecord[],
  ...overrides,
});
const paid = { amountMinor: 1795, currencyCode: 'EUR' };

describe('a payment processor’s confirmation of an order', () => {
  it('confirms the grand total of a card-on-delivery order, the first time', () => {
    expect(decideProcessorPayment(order(), paid)).toEqual({ result: 'confirmed' });
    // An order without records (stored before they existed) is the same as one with none.
    expect(decideProcessorPayment(order({ paymentRecords: undefined }), paid)).toEqual({ result: 'confirmed' });
  });

  it('confirms after a record by hand (that one claimed no confirmation); a second capture is only kept', () => {
    const byHand: PaymentRecord = { by: 'tenant', at, reason: 'cash' };
    expect(decideProcessorPayment(order({ paymentRecords: [byHand] }), paid)).toEqual({ result: 'confirmed' });
    expect(decideProcessorPayment(order({ paymentRecords: [processorRecord('a')] }), paid)).toEqual({
      result: 'already_confirmed',
    });
  });

  it.each([
    ['a Cash order', order({ paymentMethod: 1 }), paid, 'payment.method_not_card'],
    ['another currency', order(), { ...paid, currencyCode: 'USD' }, 'payment.currency_mismatch'],
    ['one minor unit less', order(), { ...paid, amountMinor: 1794 }, 'payment.amount_mismatch'],
    ['one minor unit more', order(), { ...paid, amountMinor: 1796 }, 'payment.amount_mismatch'],
  ])('refuses %s', (_name, o, n, code) => {
    expect(decideProcessorPayment(o, n)).toMatchObject({ refused: code, message: expect.any(String) });
  });

  it('finds the decision already taken for an event the order holds', () => {
    const records = [{ by: 'tenant', at, reason: 'cash' } as PaymentRecord, processorRecord('a'), processorRecord('b')];
    expect(decisionRecorded({ paymentRecords: records }, 'a')).toEqual({ result: 'confirmed' });
    expect(decisionRecorded({ paymentRecords: records }, 'b')).toEqual({ result: 'already_confirmed' });
    expect(decisionRecorded({ paymentRecords: records }, 'c')).toBeUndefined();
    expect(decisionRecorded({}, 'a')).toBeUndefined();
  });
});
