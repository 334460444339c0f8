import type {
  CopiedAvailability,
  CopiedModifierGroup,
  CopiedProduct,
  CopiedTaxCategory,
  MenuSlice,
} from '../../domain/catalog-copy';
import type { LineRequest } from '../../domain/order-lines';
import type { CopyReader } from '../ports';
import { findBranch } from './find-branch';
import { loadCopiedResources as load } from './load-copied-resources';

/**
 * The part of the tenant's catalog the lines touch: the branch and its availability, the products,
 * their tax categories, and the modifier groups reachable from the chosen variants through the
 * chosen options (required child groups of a chosen option must be known even when nothing was
 * selected in them).
 */
export async function loadMenuSlice(
  store: CopyReader,
  tenantId: string,
  branchId: string,
  lines: readonly LineRequest[],
): Promise<MenuSlice> {
  const [branch, availability, products] = await Promise.all([
    findBranch(store, tenantId, branchId),
    load<CopiedAvailability>(store, tenantId, 'availability', [branchId]).then((m) => m.get(branchId)),
    load<CopiedProduct>(
      store,
      tenantId,
      'product',
      lines.map((l) => l.productId),
    ),
  ]);
  const variants = lines.flatMap((l) => products.get(l.productId)?.variants.filter((v) => v.id === l.variantId) ?? []);
  const chosenOptions = new Set(lines.flatMap((l) => l.modifierSelections.map((s) => s.modifierOptionId)));
  const taxIds = [...products.values()].flatMap((p) => (p.taxCategoryId ? [p.taxCategoryId] : []));
  // The taxes and the modifier groups load side by side, awaited together: a store failing in one
  // must not leave the other's rejection unhandled (that ended the process while MongoDB was away).
  const [taxes, groups] = await Promise.all([
    load<CopiedTaxCategory>(store, tenantId, 'tax-category', taxIds),
    loadModifierGroups(
      store,
      tenantId,
      [
        ...variants.flatMap((v) => v.modifierGroupIds),
        ...lines.flatMap((l) => l.modifierSelections.map((s) => s.modifierGroupId)),
      ],
      chosenOptions,
    ),
  ]);
  return {
    branch,
    availability: availability ?? { products: {}, variants: {}, modifierOptions: {} },
    products,
    groups,
    taxes,
  };
}

/** The groups named, and the child groups of the chosen options, level by level. */
async function loadModifierGroups(
  store: CopyReader,
  tenantId: string,
  named: string[],
  chosenOptions: ReadonlySet<string>,
): Promise<Map<string, CopiedModifierGroup>> {
  const groups = new Map<string, CopiedModifierGroup>();
  const asked = new Set<string>();
  let next = named;
  // The catalog forbids cycles and limits nesting to 10 levels, and `asked` stops a malformed copy
  // from looping.
  while (next.length > 0) {
    const wanted = next.filter((id) => !asked.has(id));
    wanted.forEach((id) => asked.add(id));
    const found = await load<CopiedModifierGroup>(store, tenantId, 'modifier-group', wanted);
    next = [];
    for (const [id, group] of found) {
      groups.set(id, group);
      for (const option of group.options) if (chosenOptions.has(option.id)) next.push(...option.childGroupIds);
    }
  }
  return groups;
}
