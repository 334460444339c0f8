import { notFound } from '@marketplace/errors';
import type { ManagedKind, ManagedResources } from '../domain/model';
import type { CatalogContext, TenantScope } from './context';

/** The tenant's live resource, or 404 (another tenant's is the same 404). */
export async function findResource<K extends ManagedKind>(
  ctx: CatalogContext,
  kind: K,
  tenant: TenantScope,
  id: string,
): Promise<ManagedResources[K]> {
  const doc = await ctx.resources[kind].findLive(tenant, id);
  if (!doc) throw notFound();
  return doc;
}
