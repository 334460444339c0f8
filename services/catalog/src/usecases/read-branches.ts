import { activeBranches } from '../domain/menu';
import { renderBody, type RenderedBody } from '../domain/rendered-body';
import type { CatalogContext, TenantScope } from './context';

/** Partner API endpoint 1: the tenant's active branches, as kept for the menu's revision. */
export async function readBranches(ctx: CatalogContext, tenant: TenantScope): Promise<RenderedBody> {
  return ctx.menus.body(
    tenant,
    () => 'branches',
    (menu) => renderBody(ctx.views.branches(activeBranches(menu))),
  );
}
