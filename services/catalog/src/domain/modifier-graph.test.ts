import { MAX_NESTING_DEPTH, nestingProblem } from './modifier-graph';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
/** g0 → g1 → … → g(n-1): n levels. */
const chain = (n: number, prefix = 'g') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i + 1 < n ? [`${prefix}${i + 1}`] : []]));

it('allows 10 levels at most', () => expect(MAX_NESTING_DEPTH).toBe(10));

describe('cycles', () => {
  it('refuses a group inside itself', () => {
    expect(nestingProblem(graph({ a: [] }), 'a', ['a'])).toBe('cycle');
    expect(nestingProblem(graph({}), 'a', ['b', 'a'])).toBe('cycle');
  });

  it('refuses a cycle through two groups', () => {
    expect(nestingProblem(graph({ a: [], b: ['a'] }), 'a', ['b'])).toBe('cycle');
  });

  it('refuses a cycle through three and through a long chain', () => {
    expect(nestingProblem(graph({ a: [], b: ['c'], c: ['a'] }), 'a', ['b'])).toBe('cycle');
    expect(nestingProblem(graph(chain(8)), 'g7', ['g0'])).toBe('cycle');
    expect(nestingProblem(graph(chain(8)), 'g7', ['g3'])).toBe('cycle');
  });

  it('finds a cycle reached through one of several children', () => {
    expect(nestingProblem(graph({ a: [], b: [], c: ['d'], d: ['a'] }), 'a', ['b', 'c'])).toBe('cycle');
  });

  it('uses the new children, not the group’s old ones', () => {
    // a used to contain b; replacing a's children drops that edge, so b may now contain a.
    expect(nestingProblem(graph({ a: ['b'], b: [] }), 'b', ['a'])).toBe('cycle');
    expect(nestingProblem(graph({ a: [], b: [] }), 'b', ['a'])).toBeUndefined();
    expect(nestingProblem(graph({ a: ['b'], b: ['c'], c: [] }), 'a', [])).toBeUndefined();
  });
});

describe('shared groups', () => {
  it('allows a diamond: one group under two options of different groups', () => {
    expect(nestingProblem(graph({ b: ['d'], c: ['d'], d: [] }), 'a', ['b', 'c'])).toBeUndefined();
  });

  it('allows a diamond whose top is the changed group, and one whose bottom is', () => {
    expect(nestingProblem(graph({ a: [], b: ['d'], c: ['d'], d: [] }), 'a', ['b', 'c'])).toBeUndefined();
    expect(nestingProblem(graph({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }), 'd', ['e'])).toBeUndefined();
  });

  it('allows the same group twice under one group', () => {
    expect(nestingProblem(graph({ x: [] }), 'a', ['x', 'x'])).toBeUndefined();
  });

  it('answers quickly for many stacked diamonds (a shared group reached by many paths)', () => {
    // 9 levels of 7 groups, each group nesting every group of the next level: 7^8 (5.7 million)
    // paths lead up from a bottom group, over only 9 levels and 63 groups. A new child under a
    // bottom group makes 10 levels. A tenant may build this (each group has up to 100 options of up
    // to 20 child groups), and the check runs on the event loop, under the tenant's write lock.
    const width = 7;
    const levels = 9;
    const edges = new Map<string, string[]>();
    for (let l = 0; l < levels; l++) {
      for (let i = 0; i < width; i++)
        edges.set(`l${l}g${i}`, l + 1 < levels ? Array.from({ length: width }, (_, j) => `l${l + 1}g${j}`) : []);
    }
    edges.set('x', []);
    const started = Date.now();
    expect(nestingProblem(edges, `l${levels - 1}g0`, ['x'])).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(250);
  });
});

describe(`at most ${MAX_NESTING_DEPTH} levels`, () => {
  it('allows a chain of exactly 10 levels, built at the bottom', () => {
    // g0 → … → g8 is 9 levels; a child under g8 makes 10.
    expect(nestingProblem(graph({ ...chain(9), x: [] }), 'g8', ['x'])).toBeUndefined();
  });

  it('refuses 11 levels, built at the bottom', () => {
    expect(nestingProblem(graph({ ...chain(9), x: ['y'], y: [] }), 'g8', ['x'])).toBe('too_deep');
    expect(nestingProblem(graph({ ...chain(10), x: [] }), 'g9', ['x'])).toBe('too_deep');
  });

  it('refuses 11 levels, built at the top', () => {
    expect(nestingProblem(graph(chain(10)), 'z', ['g0'])).toBe('too_deep');
    expect(nestingProblem(graph(chain(9)), 'z', ['g0'])).toBeUndefined();
  });

  it('counts the levels above and below a group changed in the middle', () => {
    // top: t0 → … → t4 → m (6 levels down to m); below: b0 → … → b4 (5 levels).
    const edges = { ...chain(5, 't'), t4: ['m'], m: [], ...chain(5, 'b') };
    expect(nestingProblem(graph(edges), 'm', ['b0'])).toBe('too_deep'); // 5 + 1 + 5 = 11
    expect(nestingProblem(graph({ ...edges, ...chain(4, 'b') }), 'm', ['b0'])).toBeUndefined(); // 10
  });

  it('counts the longest path when a group has several parents', () => {
    // m has a short parent chain (1 level) and a long one (t0 … t8, 9 levels).
    const edges = { ...chain(9, 't'), t8: ['m'], s: ['m'], m: [], x: [] };
    expect(nestingProblem(graph(edges), 'm', [])).toBeUndefined(); // 10 levels
    expect(nestingProblem(graph(edges), 'm', ['x'])).toBe('too_deep'); // 11 levels
  });

  it('counts a deep chain among several children', () => {
    expect(nestingProblem(graph({ ...chain(10), x: [] }), 'a', ['x', 'g0'])).toBe('too_deep');
    expect(nestingProblem(graph({ ...chain(9), x: [] }), 'a', ['x', 'g0'])).toBeUndefined();
  });
});
