import { canonicalJson, checkIdempotencyKey, requestFingerprint } from './idempotency';

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

describe('request fingerprint', () => {
  it('ignores key order and whitespace but not values, method or path', () => {
    const a = requestFingerprint('POST', '/api/partner/v1/orders', JSON.parse('{"a":1,"b":{"d":[1,2],"c":null}}'));
    expect(
      requestFingerprint('post', '/api/partner/v1/orders', JSON.parse('{ "b": { "c": null, "d": [1, 2] }, "a": 1 }')),
    ).toBe(a);
    expect(requestFingerprint('POST', '/api/partner/v1/orders', { a: 1, b: { d: [2, 1], c: null } })).not.toBe(a);
    expect(requestFingerprint('PATCH', '/api/partner/v1/orders', { a: 1, b: { d: [1, 2], c: null } })).not.toBe(a);
    expect(requestFingerprint('POST', '/api/partner/v1/orders/x', { a: 1, b: { d: [1, 2], c: null } })).not.toBe(a);
  });

  it('tells no body from an empty object', () => {
    expect(requestFingerprint('POST', '/p', undefined)).not.toBe(requestFingerprint('POST', '/p', {}));
  });

  it('writes canonical JSON', () => {
    expect(canonicalJson({ b: [true, 'x', 1.5], a: { z: null, y: 'é' } })).toBe(
      '{"a":{"y":"é","z":null},"b":[true,"x",1.5]}',
    );
  });
});
