import type { CatalogChange } from '@marketplace/contracts';
import type { CatalogCopyDoc } from '../../adapters/catalog-copy-repository';
import { catalogCopyId } from '../../domain/catalog-copy';
import type { CatalogCopyStore } from '../ports';

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
