import { notFound } from '@marketplace/errors';
import type { CatalogContext, TenantScope } from './context';

/** The branch must be a live one of this tenant, else 404 (availability is kept per branch). */
export async function requireBranch(ctx: CatalogContext, tenant: TenantScope, branchId: string): Promise<void> {
  if (!(await ctx.store.branches.existsLive(tenant, branchId))) throw notFound();
}
