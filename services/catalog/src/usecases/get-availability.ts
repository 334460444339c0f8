import type { AvailabilityResource } from '../domain/model';
import type { CatalogContext, TenantScope } from './context';
import { requireBranch } from './require-branch';

/** A branch's availability overrides (tenant API), or null when none was ever set. */
export async function getAvailability(
  ctx: CatalogContext,
  tenant: TenantScope,
  branchId: string,
): Promise<AvailabilityResource | null> {
  await requireBranch(ctx, tenant, branchId);
  return ctx.store.availability.findOfBranch(tenant, branchId);
}
