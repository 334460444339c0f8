import { cameBefore, heldUntil, SEQUENCE_HOLD, subjectOf } from './webhook-sequence';

describe('the per-order sequence of partner webhooks', () => {
  it('names the order an event is about, and nothing for an event about none', () => {
    expect(subjectOf({ orderId: 'o-1', orderNumber: 7 })).toBe('order:o-1');
    expect(subjectOf({ orderId: '' })).toBeUndefined();
    expect(subjectOf({ message: 'test' })).toBeUndefined();
    expect(subjectOf(null as never)).toBeUndefined();
  });

  it('orders by creation time, then by id', () => {
    const t = new Date('2026-12-01T10:00:00Z');
    const later = new Date(t.getTime() + 1);
    expect(cameBefore({ _id: 'b', createdAt: t }, { _id: 'a', createdAt: later })).toBe(true);
    expect(cameBefore({ _id: 'a', createdAt: later }, { _id: 'b', createdAt: t })).toBe(false);
    expect(cameBefore({ _id: 'a', createdAt: t }, { _id: 'b', createdAt: t })).toBe(true);
    expect(cameBefore({ _id: 'b', createdAt: t }, { _id: 'a', createdAt: t })).toBe(false);
  });

  it('holds until the earlier delivery’s next attempt, or a step when that is due already', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    const step = new Date(now.getTime() + SEQUENCE_HOLD.stepMs);
    expect(heldUntil(now, null)).toEqual(step);
    expect(heldUntil(now, new Date(now.getTime() - 5_000))).toEqual(step);
    expect(heldUntil(now, new Date(now.getTime() + 60_000))).toEqual(
      new Date(now.getTime() + 60_000 + SEQUENCE_HOLD.stepMs),
    );
  });
});
