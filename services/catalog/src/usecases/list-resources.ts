import type { ManagedKind, ManagedResources } from '../domain/model';
import type { CatalogContext, TenantScope } from './context';

/** The tenant's live resources of a kind (the tenant API's lists). */
export async function listResources<K extends ManagedKind>(
  ctx: CatalogContext,
  kind: K,
  tenant: TenantScope,
): Promise<ManagedResources[K][]> {
  return ctx.resources[kind].listLive(tenant);
}
