import { notFound } from '@marketplace/errors';
import { resolveLanguage } from '../domain/language';
import { activeBranch } from '../domain/menu';
import { renderBody, type RenderedBody } from '../domain/rendered-body';
import type { CatalogContext, TenantScope } from './context';

/** Partner API endpoint 2: a branch's product list in the language asked for (or the default). */
export async function readProductList(
  ctx: CatalogContext,
  tenant: TenantScope,
  branchId: string,
  language: unknown,
): Promise<RenderedBody> {
  return ctx.menus.body(
    tenant,
    (menu) => `list:${branchId}:${resolveLanguage(language, menu.languages, menu.defaultLanguage)}`,
    (menu) => {
      if (!activeBranch(menu, branchId)) throw notFound();
      return renderBody(
        ctx.views.productList(menu, branchId, resolveLanguage(language, menu.languages, menu.defaultLanguage)),
      );
    },
  );
}
