import type { CopiedBranch } from '../../domain/catalog-copy';
import type { CopyReader } from '../ports';
import { loadCopiedResources } from './load-copied-resources';

/** The tenant's branch as the catalog copy holds it; undefined when deleted or unknown. */
export async function findBranch(
  reader: CopyReader,
  tenantId: string,
  branchId: string,
): Promise<CopiedBranch | undefined> {
  return (await loadCopiedResources<CopiedBranch>(reader, tenantId, 'branch', [branchId])).get(branchId);
}
