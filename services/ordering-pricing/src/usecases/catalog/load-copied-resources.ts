import { catalogCopyId, type CopiedEntity } from '../../domain/catalog-copy';
import type { CopyReader } from '../ports';

/** Loads copied resources of one kind by id; deleted or unknown ones are absent. */
export async function loadCopiedResources<T>(
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
