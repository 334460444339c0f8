import type { CatalogChange } from '@marketplace/contracts';
import type { TenantOwner } from '@marketplace/store';
import { catalogCopyId, type CatalogCopyDoc } from '../adapters/catalog-copy-repository';
import type {
  CopiedAvailability,
  CopiedBranch,
  CopiedEntity,
  CopiedModifierGroup,
  CopiedProduct,
  CopiedTaxCategory,
  MenuSlice,
} from '../domain/catalog-copy';
import type { LineRequest } from '../domain/order-lines';

/**
 * Ordering's copy of the catalog as these use cases need it; adapters/catalog-copy-repository.ts
 * keeps it in MongoDB (one document per resource, and per tenant the highest sequence applied).
 */
export interface CatalogCopyStore {
  /** Replaces the held resource if it holds an earlier sequence; false when it holds this one or a later one, or none. */
  replaceIfOlder(owner: TenantOwner, doc: CatalogCopyDoc): Promise<boolean>;
  /** Stores a resource not held yet; false when it is held already. */
  insertIfAbsent(owner: TenantOwner, doc: CatalogCopyDoc): Promise<boolean>;
  /** Records that the tenant's copy as a whole has reached `sequence` (never lowers it). */
  raiseSequence(owner: TenantOwner, sequence: number): Promise<void>;
  /** The highest sequence applied to the tenant's copy (0 before the first). */
  findSequence(owner: TenantOwner): Promise<number>;
  /** The tenant's documents by copy id; ids not held are absent. */
  findByIds(owner: TenantOwner, ids: readonly string[]): Promise<Map<string, CatalogCopyDoc>>;
}

/**
 * Keeps ordering's copy of a catalog resource: the change replaces what is held unless the copy
 * already holds a later one (sequence), so replays and duplicates change nothing. One tenant's
 * events come in order on one partition, one at a time, so the update and the insert below never
 * race each other for the same resource.
 */
export async function applyCatalogChange(copy: CatalogCopyStore, change: CatalogChange): Promise<void> {
  const owner = { tenantId: change.tenantId };
  const doc: CatalogCopyDoc = {
    _id: catalogCopyId(owner, change.entity, change.id),
    tenantId: change.tenantId,
    entity: change.entity,
    sequence: change.sequence,
    deleted: change.deleted,
    state: { ...change.state }, // a plain record, as the copy keeps every kind
  };
  // Not replaced: either held already, with this sequence or a later one, or not held yet.
  if (!(await copy.replaceIfOlder(owner, doc))) await copy.insertIfAbsent(owner, doc);
  // The tenant's copy as a whole has reached this sequence: readers' caches older than it go.
  await copy.raiseSequence(owner, change.sequence);
}

/** What loads copied resources: a cache in front of the database (or the database itself). */
export interface CopyReader {
  /** The tenant's documents by copy id (null for those not held). */
  load(owner: TenantOwner, ids: string[]): Promise<Map<string, CatalogCopyDoc | null>>;
}

/**
 * Keeps the copied resources orders have read, per tenant, for as long as the tenant's copy
 * sequence stays the same: each order then reads one small document (the sequence) instead of
 * one per product, group and tax category. Any change of the tenant's catalog, seen by any
 * instance, moves the sequence and empties the tenant's entry, so the next order prices against
 * the change.
 */
export class CopyCache implements CopyReader {
  private readonly tenants = new Map<string, { sequence: number; docs: Map<string, CatalogCopyDoc | null> }>();

  constructor(
    private readonly copy: CatalogCopyStore,
    private readonly maxTenants = 1000,
  ) {}

  async load(owner: TenantOwner, ids: string[]): Promise<Map<string, CatalogCopyDoc | null>> {
    const tenantId = owner.tenantId;
    const sequence = await this.copy.findSequence(owner);
    let entry = this.tenants.get(tenantId);
    if (!entry || entry.sequence !== sequence) {
      entry = { sequence, docs: new Map() };
      this.tenants.delete(tenantId);
      if (this.tenants.size >= this.maxTenants) this.tenants.delete(this.tenants.keys().next().value!);
    } else {
      this.tenants.delete(tenantId); // re-inserted below: most recently used last
    }
    this.tenants.set(tenantId, entry);
    const missing = ids.filter((id) => !entry.docs.has(id));
    // One read by `_id` for all of them.
    const found = await this.copy.findByIds(owner, missing);
    for (const id of missing) entry.docs.set(id, found.get(id) ?? null);
    return new Map(ids.map((id) => [id, entry.docs.get(id) ?? null]));
  }
}

/** Loads resources of one kind by id; deleted or unknown ones are absent. */
async function load<T>(
  reader: CopyReader,
  tenantId: string,
  entity: CopiedEntity,
  ids: Iterable<string>,
): Promise<Map<string, T>> {
  const owner = { tenantId };
  const docs = await reader.load(
    owner,
    [...new Set(ids)].map((id) => catalogCopyId(owner, entity, id)),
  );
  const found = new Map<string, T>();
  for (const doc of docs.values()) if (doc && !doc.deleted) found.set(doc.state.id as string, doc.state as T);
  return found;
}

/** The database itself, uncached (for the tenant API's checks). */
export const uncached = (copy: CatalogCopyStore): CopyReader => ({
  load: async (owner, ids) => {
    const found = await copy.findByIds(owner, ids);
    return new Map(ids.map((id) => [id, found.get(id) ?? null]));
  },
});

export async function findBranch(
  reader: CopyReader,
  tenantId: string,
  branchId: string,
): Promise<CopiedBranch | undefined> {
  return (await load<CopiedBranch>(reader, tenantId, 'branch', [branchId])).get(branchId);
}

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
