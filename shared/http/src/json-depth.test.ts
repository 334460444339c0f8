import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from './json-depth';

describe('jsonNestedDeeperThan', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it('counts arrays and objects, up to the limit inclusive', () => {
    expect(jsonNestedDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestedDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestedDeeperThan('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
    expect(jsonNestedDeeperThan('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestedDeeperThan(JSON.stringify({ text: '[[[[[[[[ {{{{ \\" [[[[' }), 1)).toBe(false);
    expect(jsonNestedDeeperThan('{"a":"\\"[[["}', 1)).toBe(false);
  });
});
