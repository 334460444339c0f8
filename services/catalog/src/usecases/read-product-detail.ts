import { notFound } from '@marketplace/errors';
import { resolveLanguage } from '../domain/language';
import { activeBranch } from '../domain/menu';
import { renderBody, type RenderedBody } from '../domain/rendered-body';
import type { CatalogContext, TenantScope } from './context';

/** Partner API endpoint 3: one product with its nested modifier groups, at a branch. */
export async function readProductDetail(
  ctx: CatalogContext,
  tenant: TenantScope,
  branchId: string,
  productId: string,
  language: unknown,
): Promise<RenderedBody> {
  return ctx.menus.body(
    tenant,
    (menu) => `detail:${branchId}:${productId}:${resolveLanguage(language, menu.languages, menu.defaultLanguage)}`,
    (menu) => {
      const product = menu.products.get(productId);
      if (!activeBranch(menu, branchId) || !product) throw notFound();
      return renderBody(
        ctx.views.productDetail(
          menu,
          branchId,
          product,
          resolveLanguage(language, menu.languages, menu.defaultLanguage),
        ),
      );
    },
  );
}
