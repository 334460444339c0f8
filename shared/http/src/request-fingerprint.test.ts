import { canonicalJson, requestFingerprint } from './request-fingerprint';

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
