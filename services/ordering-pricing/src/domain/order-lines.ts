import type { FieldErrors } from '@marketplace/errors';
import type { CopiedAvailability, CopiedModifierGroup, CopiedOption, MenuSlice } from './catalog-copy';
import type { LineToPrice, TaxRule } from './pricing';

/** An order line as the partner sends it (shape already checked by the request schema). */
export interface LineRequest {
  productId: string;
  variantId: string;
  quantity: number;
  modifierSelections: SelectionRequest[];
  customerNote?: string | null;
}

export interface SelectionRequest {
  selectionId: string;
  modifierGroupId: string;
  modifierOptionId: string;
  parentSelectionId?: string | null;
}

/** A line checked against the catalog, with the names and prices the order keeps. */
export interface ResolvedLine {
  productId: string;
  productName: string;
  variantId: string;
  variantName: string;
  quantity: number;
  customerNote: string | null;
  variantPriceMinor: number;
  tax: (TaxRule & { taxCategoryId: string; name: string }) | null;
  modifiers: ResolvedModifier[];
}

export interface ResolvedModifier {
  selectionId: string;
  parentSelectionId: string | null;
  modifierGroupId: string;
  modifierGroupName: string;
  modifierOptionId: string;
  modifierOptionName: string;
  priceMinor: number;
}

const available = (map: Record<string, 1 | 2>, id: string) => (map[id] ?? 0) === 0;

/** Collects problems keyed by field path. */
type AddProblem = (path: string, message: string) => void;

/** What the selections of one line resolved to, per slot ("parent|group") and per selection. */
interface ResolvedSelections {
  bySelection: Map<string, { option: CopiedOption; group: CopiedModifierGroup }>;
  modifiers: ResolvedModifier[];
  /** "parent|group" → option ids chosen there. */
  chosen: Map<string, string[]>;
  /** Slots with a refused selection: their counts say nothing more. */
  refusedIn: Set<string>;
}

/**
 * Checks every line against the tenant's current catalog (create-order rules): product, variant,
 * each selection's group (attached to the variant, or to the option its parent selection chose),
 * option and availability; unique selection ids; min, max and required at every level. Returns
 * the resolved lines, or every problem found keyed by field path, so a partner fixes all at once.
 */
export function resolveLines(
  lines: readonly LineRequest[],
  menu: MenuSlice,
): { lines: ResolvedLine[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add: AddProblem = (path, message) => (errors[path] ??= []).push(message);
  const seenSelections = new Set<string>();
  const resolved: ResolvedLine[] = [];
  lines.forEach((line, i) => {
    const found = resolveLine(line, `lines[${i}]`, menu, seenSelections, add);
    if (found) resolved.push(found);
  });
  return Object.keys(errors).length > 0 ? { errors } : { lines: resolved };
}

/** One line: its product and variant, then its selections, then the counts of every slot they reach. */
function resolveLine(
  line: LineRequest,
  at: string,
  menu: MenuSlice,
  seenSelections: Set<string>,
  add: AddProblem,
): ResolvedLine | undefined {
  const av: CopiedAvailability = menu.availability;
  const refuse = (path: string, message: string) => void add(`${at}.${path}`, message);
  const product = menu.products.get(line.productId);
  if (!product) return refuse('productId', 'is not a product of this catalog');
  if (!available(av.products, product.id)) return refuse('productId', 'is not available at this branch');
  const variant = product.variants.find((v) => v.id === line.variantId);
  if (!variant) return refuse('variantId', 'is not a variant of this product');
  if (!available(av.variants, variant.id)) return refuse('variantId', 'is not available at this branch');

  line.modifierSelections.forEach((s, j) => {
    const sat = `${at}.modifierSelections[${j}]`;
    if (seenSelections.has(s.selectionId)) return add(`${sat}.selectionId`, 'is used more than once in this order');
    seenSelections.add(s.selectionId);
  });
  const selections = resolveSelections(line, at, variant.modifierGroupIds, menu, add);
  checkSlotCounts(at, variant.modifierGroupIds, selections, menu, add);

  const tax = product.taxCategoryId ? menu.taxes.get(product.taxCategoryId) : undefined;
  return {
    productId: product.id,
    productName: product.name,
    variantId: variant.id,
    variantName: variant.name,
    quantity: line.quantity,
    customerNote: line.customerNote ?? null,
    variantPriceMinor: variant.priceMinor,
    tax: tax ? { taxCategoryId: tax.id, name: tax.name, ratePercent: tax.rate, inclusive: tax.isInclusive } : null,
    modifiers: selections.modifiers,
  };
}

/**
 * Each selection's slot: the groups it may belong to are those of the variant (top level) or of
 * the option its parent chose. Problems are reported per selection; parents are resolved before
 * their children, whatever the order in the request.
 */
function resolveSelections(
  line: LineRequest,
  at: string,
  variantGroupIds: readonly string[],
  menu: MenuSlice,
  add: AddProblem,
): ResolvedSelections {
  const found: ResolvedSelections = { bySelection: new Map(), modifiers: [], chosen: new Map(), refusedIn: new Set() };
  const pending = line.modifierSelections.map((s, j) => ({ s, j }));
  const ids = new Set(line.modifierSelections.map((s) => s.selectionId));
  for (let progress = true; pending.length > 0 && progress;) {
    progress = false;
    for (let k = 0; k < pending.length; k++) {
      const { s, j } = pending[k]!;
      const parentId = s.parentSelectionId ?? null;
      const sat = `${at}.modifierSelections[${j}]`;
      if (parentId !== null && !ids.has(parentId)) {
        add(`${sat}.parentSelectionId`, 'is not a selection of this line');
      } else if (parentId !== null && !found.bySelection.has(parentId)) {
        continue; // parent not resolved (yet, or never: reported for the parent or as a cycle below)
      } else {
        const slots = parentId === null ? variantGroupIds : found.bySelection.get(parentId)!.option.childGroupIds;
        resolveSelection(s, sat, parentId, slots, menu, found, add);
      }
      pending.splice(k--, 1);
      progress = true;
    }
  }
  for (const { j } of pending)
    add(
      `${at}.modifierSelections[${j}].parentSelectionId`,
      'does not lead to a valid selection (unresolved or circular parent)',
    );
  return found;
}

/** One selection whose parent (if any) is resolved: its group must be one of `slots`. */
function resolveSelection(
  s: SelectionRequest,
  sat: string,
  parentId: string | null,
  slots: readonly string[],
  menu: MenuSlice,
  found: ResolvedSelections,
  add: AddProblem,
): void {
  const group = menu.groups.get(s.modifierGroupId);
  const option = group?.options.find((o) => o.id === s.modifierOptionId);
  if (!group || !slots.includes(group.id)) {
    add(
      `${sat}.modifierGroupId`,
      parentId === null
        ? 'is not a modifier group of this variant'
        : 'is not a modifier group of the option chosen by the parent selection',
    );
    return;
  }
  const slot = `${parentId ?? ''}|${group.id}`;
  if (!option || !available(menu.availability.modifierOptions, option.id)) {
    add(
      `${sat}.modifierOptionId`,
      option ? 'is not available at this branch' : 'is not an option of this modifier group',
    );
    found.refusedIn.add(slot);
    return;
  }
  const options = found.chosen.get(slot) ?? found.chosen.set(slot, []).get(slot)!;
  if (options.includes(option.id)) {
    add(`${sat}.modifierOptionId`, 'is chosen more than once in this modifier group');
    return;
  }
  options.push(option.id);
  found.bySelection.set(s.selectionId, { option, group });
  found.modifiers.push({
    selectionId: s.selectionId,
    parentSelectionId: parentId,
    modifierGroupId: group.id,
    modifierGroupName: group.name,
    modifierOptionId: option.id,
    modifierOptionName: option.name,
    priceMinor: option.priceMinor,
  });
}

/** Counts per group slot: the variant's groups, and the child groups of every chosen option. */
function checkSlotCounts(
  at: string,
  variantGroupIds: readonly string[],
  selections: ResolvedSelections,
  menu: MenuSlice,
  add: AddProblem,
): void {
  const slotsToCheck: Array<{ parent: string | null; groupIds: readonly string[]; where: string }> = [
    { parent: null, groupIds: variantGroupIds, where: 'this variant' },
  ];
  for (const [selectionId, { option }] of selections.bySelection)
    slotsToCheck.push({ parent: selectionId, groupIds: option.childGroupIds, where: `the option '${option.name}'` });
  for (const { parent, groupIds, where } of slotsToCheck) {
    for (const groupId of groupIds) {
      const group = menu.groups.get(groupId);
      if (!group || selections.refusedIn.has(`${parent ?? ''}|${groupId}`)) continue; // deleted groups impose nothing
      const count = selections.chosen.get(`${parent ?? ''}|${groupId}`)?.length ?? 0;
      const min = Math.max(group.minSelections, group.isRequired ? 1 : 0);
      if (count < min)
        add(
          `${at}.modifierSelections`,
          `the modifier group '${group.name}' of ${where} needs at least ${min} selection${min === 1 ? '' : 's'}`,
        );
      if (count > group.maxSelections)
        add(
          `${at}.modifierSelections`,
          `the modifier group '${group.name}' of ${where} allows at most ${group.maxSelections} selection${group.maxSelections === 1 ? '' : 's'}`,
        );
    }
  }
}

/** The lines as the pricing rule takes them: quantity, variant price, every chosen option's price, tax. */
export function linesToPrice(lines: readonly ResolvedLine[]): LineToPrice[] {
  return lines.map((l) => ({
    quantity: l.quantity,
    variantPriceMinor: l.variantPriceMinor,
    modifierPricesMinor: l.modifiers.map((m) => m.priceMinor),
    tax: l.tax,
  }));
}
