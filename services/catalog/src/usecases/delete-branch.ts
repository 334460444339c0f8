import type { CatalogContext, TenantScope } from './context';
import { deleteResource } from './delete-resource';

/** Deletes a branch; nothing else refers to one, so it is never refused as in use. */
export async function deleteBranch(ctx: CatalogContext, tenant: TenantScope, id: string): Promise<void> {
  return deleteResource(ctx, 'branch', tenant, id);
}
