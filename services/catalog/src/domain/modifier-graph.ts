/** Nesting of modifier groups through their options' child groups, checked before a write. */

export const MAX_NESTING_DEPTH = 10;

/** Child group ids of each group (from every option), for the whole tenant. */
export type GroupGraph = ReadonlyMap<string, readonly string[]>;

/**
 * Whether the graph, with `groupId` given the children `children`, is free of cycles and no deeper
 * than MAX_NESTING_DEPTH levels below `groupId`'s parents. Returns the problem, or undefined.
 */
export function nestingProblem(
  graph: GroupGraph,
  groupId: string,
  children: readonly string[],
): 'cycle' | 'too_deep' | undefined {
  const edges = new Map(graph);
  edges.set(groupId, children);
  // Depth-first search from the changed group: a cycle through it must come back to it, and any
  // cycle elsewhere was refused when it would have been written.
  const depthBelow = new Map<string, number>();
  const onPath = new Set<string>();
  const visit = (id: string): number | 'cycle' => {
    if (onPath.has(id)) return 'cycle';
    const known = depthBelow.get(id);
    if (known !== undefined) return known;
    onPath.add(id);
    let deepest = 0;
    for (const child of edges.get(id) ?? []) {
      const below = visit(child);
      if (below === 'cycle') return 'cycle';
      deepest = Math.max(deepest, below + 1);
    }
    onPath.delete(id);
    depthBelow.set(id, deepest);
    return deepest;
  };
  const depth = visit(groupId);
  if (depth === 'cycle') return 'cycle';
  // Levels below, plus the levels above (the longest chain of parents leading to this group).
  const parents = new Map<string, string[]>();
  for (const [id, kids] of edges) for (const kid of kids) (parents.get(kid) ?? parents.set(kid, []).get(kid)!).push(id);
  // The graph has no cycle now, so each group's height is computed once (memoized): shared groups
  // reached by many paths (diamonds) cost nothing extra.
  const heights = new Map<string, number>();
  const heightAbove = (id: string): number => {
    const known = heights.get(id);
    if (known !== undefined) return known;
    let highest = 0;
    for (const parent of parents.get(id) ?? []) highest = Math.max(highest, heightAbove(parent) + 1);
    heights.set(id, highest);
    return highest;
  };
  return depth + heightAbove(groupId) + 1 > MAX_NESTING_DEPTH ? 'too_deep' : undefined;
}
