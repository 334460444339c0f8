import { MAX_NESTING_DEPTH, nestingProblem } from './modifier-graph';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

it('allows a tree and a diamond (one group shared by two options)', () => {
  expect(nestingProblem(graph({ b: ['d'], c: ['d'], d: [] }), 'a', ['b', 'c'])).toBeUndefined();
});

it('refuses a group inside itself, directly or through others', () => {
  expect(nestingProblem(graph({}), 'a', ['a'])).toBe('cycle');
  expect(nestingProblem(graph({ b: ['a'] }), 'a', ['b'])).toBe('cycle');
  expect(nestingProblem(graph({ b: ['c'], c: ['a'] }), 'a', ['b'])).toBe('cycle');
});

it(`refuses more than ${MAX_NESTING_DEPTH} levels, counting the levels above the changed group`, () => {
  const chain = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`g${i}`, i + 1 < n ? [`g${i + 1}`] : []]));
  // g0 → … → g8 is 9 levels; adding a child under g8 makes 10, one more makes 11.
  expect(nestingProblem(graph(chain(9)), 'g8', ['x'])).toBeUndefined();
  expect(nestingProblem(graph({ ...chain(9), x: ['y'], y: [] }), 'g8', ['x'])).toBe('too_deep');
  expect(nestingProblem(graph({ ...chain(10), z: ['g0'] }), 'z', ['g0'])).toBe('too_deep');
});
