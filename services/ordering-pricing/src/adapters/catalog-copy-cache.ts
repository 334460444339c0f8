import type { TenantOwner } from '@marketplace/store';
import type { CatalogCopyStore, CopyReader } from '../usecases/ports';
import type { CatalogCopyDoc } from './catalog-copy-repository';

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
    return this.loadAt(owner, ids, this.copy.findSequence(owner));
  }

  /**
   * A reader for one order: the tenant's sequence is read once, by its first load, and the order's
   * other loads (products, taxes, each level of modifier groups) go by it. One read of the
   * sequence per order instead of one per load; a change that lands during the order is priced
   * by the next one, as a change landing just after it would be.
   */
  session(): CopyReader {
    const sequences = new Map<string, Promise<number>>();
    const reader: CopyReader = {
      load: (owner, ids) => {
        let sequence = sequences.get(owner.tenantId);
        if (!sequence) sequences.set(owner.tenantId, (sequence = this.copy.findSequence(owner)));
        return this.loadAt(owner, ids, sequence);
      },
      session: () => reader, // already one request's
    };
    return reader;
  }

  private async loadAt(
    owner: TenantOwner,
    ids: string[],
    sequenceRead: Promise<number>,
  ): Promise<Map<string, CatalogCopyDoc | null>> {
    const tenantId = owner.tenantId;
    const sequence = await sequenceRead;
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
    if (missing.length > 0) {
      // One read by `_id` for all of them.
      const found = await this.copy.findByIds(owner, missing);
      for (const id of missing) entry.docs.set(id, found.get(id) ?? null);
    }
    return new Map(ids.map((id) => [id, entry.docs.get(id) ?? null]));
  }
}

/** The database itself, uncached (for the tenant API's checks): a session is the reader itself. */
export const uncached = (copy: CatalogCopyStore): CopyReader => {
  const reader: CopyReader = {
    load: async (owner, ids) => {
      const found = await copy.findByIds(owner, ids);
      return new Map(ids.map((id) => [id, found.get(id) ?? null]));
    },
    session: () => reader,
  };
  return reader;
};
