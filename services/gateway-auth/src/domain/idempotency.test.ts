import { checkIdempotencyKey } from './idempotency';

describe('Idempotency-Key rule', () => {
  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['k'.repeat(129), 'invalid'],
    [' leading', 'invalid'],
    ['trailing\t', 'invalid'],
    ['\u00a0nbsp', 'invalid'],
    ['bell\u0007', 'invalid'],
    ['k'.repeat(128), undefined],
    ['order 42 / attempt 1', undefined],
    ['x', undefined],
  ])('%j → %s', (key, problem) => {
    expect(checkIdempotencyKey(key)).toBe(problem);
  });
});
