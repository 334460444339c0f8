import type { Outcome, Status } from '../../model';
import { heldBetween, judgeOutcome } from './lifecycle-race';

const at = (status: Status, timeMs: number) => ({ status, timeMs });

describe('heldBetween', () => {
  it('takes the read after and events timed between the reads', () => {
    const events = [at('driver_assigned', 5), at('picked_up', 12), at('on_the_way', 13), at('delivered', 30)];
    expect(heldBetween(at('driver_assigned', 5), at('on_the_way', 13), events, ['cancelled'])).toEqual([
      'on_the_way',
      'picked_up',
    ]);
  });
  it('leaves out what the request produced, and events from its time on', () => {
    const events = [at('on_the_way', 10), at('delivered', 20), at('cancelled', 20)];
    expect(heldBetween(at('on_the_way', 10), at('cancelled', 20), events, ['cancelled'])).toEqual([]);
    expect(heldBetween(at('on_the_way', 10), at('cancelled', 25), events, ['cancelled'])).toEqual(['delivered']);
  });
  it('keeps a produced status that was already the status before', () => {
    expect(heldBetween(at('cancelled', 10), at('cancelled', 10), [], ['cancelled'])).toEqual([]);
  });
  it('uses no events when a read has no time', () => {
    expect(heldBetween(at('on_the_way', NaN), at('on_the_way', 10), [at('delivered', 5)], [])).toEqual([]);
  });
});

describe('judgeOutcome', () => {
  const declared = (table: Partial<Record<Status, Outcome>>) => (s: Status) => table[s];
  const table = declared({ on_the_way: 'confirmed', delivered: 'refused' });
  it('passes the outcome of the status read before', () => {
    expect(judgeOutcome('cancel', 'confirmed', 'on_the_way', ['delivered'], table)).toEqual({
      ok: true,
      note: 'cancel: confirmed, as declared for on_the_way (the status read just before)',
    });
  });
  it('passes the outcome of a status held until the read after, and says so', () => {
    const verdict = judgeOutcome('cancel', 'refused', 'on_the_way', ['delivered'], table);
    expect(verdict).toMatchObject({ ok: true, note: expect.stringContaining('as declared for delivered') });
  });
  it('fails another outcome, naming what was expected', () => {
    const verdict = judgeOutcome('cancel', 'refused', 'on_the_way', [], table, (o) =>
      o === 'confirmed' ? 'accepted' : 'refused',
    );
    expect(verdict).toEqual({
      ok: false,
      reason: 'cancel: expected accepted (declared for on_the_way, the status read just before), got refused',
    });
  });
  it('does not check a status the declaration leaves out', () => {
    expect(judgeOutcome('cancel', 'refused', 'picked_up', [], table)).toMatchObject({
      ok: true,
      note: expect.stringContaining('not checked'),
    });
  });
});
