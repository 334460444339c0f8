import type { ModifierGroupInput } from '../domain/inputs';
import type { ModifierGroup } from '../domain/model';
import { nestingProblem, MAX_NESTING_DEPTH } from '../domain/modifier-graph';
import { modifierGroupFields, Problems } from '../domain/rules';
import type { CatalogContext, TenantScope } from './context';
import { saveResource } from './save-resource';

/**
 * Creates (`id` undefined) or replaces a modifier group: the groups its options nest must be this
 * tenant's, and the nesting may neither loop nor go deeper than the limit.
 */
export async function saveModifierGroup(
  ctx: CatalogContext,
  tenant: TenantScope,
  id: string | undefined,
  input: ModifierGroupInput,
): Promise<ModifierGroup> {
  return saveResource(ctx, 'modifier-group', tenant, id, async (existing) => {
    const fields = modifierGroupFields(input, tenant, new Set(existing?.options.map((o) => o.id)));
    const graph = await ctx.store.modifierGroups.nestingGraph(tenant);
    const problems = new Problems();
    fields.options.forEach((option, i) =>
      option.childGroupIds.forEach((child, j) => {
        if (!graph.has(child))
          problems.add(`options[${i}].childGroupIds[${j}]`, 'is not a modifier group of this catalog');
      }),
    );
    problems.throwIfAny();
    const groupId = existing?._id ?? 'new-group';
    const problem = nestingProblem(
      graph,
      groupId,
      fields.options.flatMap((o) => o.childGroupIds),
    );
    if (problem === 'cycle') problems.add('options', 'nests groups in a cycle: a group would contain itself');
    if (problem === 'too_deep') problems.add('options', `nests groups more than ${MAX_NESTING_DEPTH} levels deep`);
    problems.throwIfAny();
    return fields;
  });
}
