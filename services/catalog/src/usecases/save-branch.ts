import type { BranchInput } from '../domain/inputs';
import type { Branch } from '../domain/model';
import { branchFields } from '../domain/rules';
import type { CatalogContext, TenantScope } from './context';
import { saveResource } from './save-resource';

/** Creates (`id` undefined) or replaces one of the tenant's branches. */
export async function saveBranch(
  ctx: CatalogContext,
  tenant: TenantScope,
  id: string | undefined,
  input: BranchInput,
): Promise<Branch> {
  return saveResource(ctx, 'branch', tenant, id, async () => branchFields(input, tenant));
}
