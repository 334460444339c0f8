import { notFound } from '@marketplace/errors';
import { LruCache } from '../adapters/lru-cache';
import type { CatalogStore } from '../adapters/store';
import { resolveLanguage } from '../domain/language';
import { bodyWeight, renderBody, type RenderedBody } from '../domain/rendered-body';
import { activeBranch, activeBranches, buildMenu, type Menu } from '../domain/menu';
import type { Branch, Product } from '../domain/model';
import type { TenantScope } from './tenant-scope';

export interface MenuCacheSettings {
  /** Tenants whose whole menu is kept in memory. */
  menus: number;
  /** Bytes of serialized responses kept. */
  responseBytes: number;
}

/**
 * How each partner body is shaped (http/views/partner.ts; service.ts wires them in): the reads keep
 * what these return, serialized.
 */
export interface PartnerViews {
  branches(branches: Branch[]): unknown;
  productList(menu: Menu, branchId: string, language: string): unknown;
  productDetail(menu: Menu, branchId: string, product: Product, language: string): unknown;
}

/**
 * Partner reads. A tenant's menu is loaded once per catalog revision and kept; each serialized
 * response (a branch's product list in a language, a product detail) is kept too, under the same
 * revision. Every read first fetches the tenant's current revision (one indexed read), so an
 * acknowledged change is seen at once by every instance: it changed the revision. While a change is
 * being applied nothing is cached (see applyChange).
 */
export class MenuReads {
  private readonly menus: LruCache<Promise<Menu>>;
  private readonly responses: LruCache<RenderedBody>;

  constructor(
    private readonly store: CatalogStore,
    settings: MenuCacheSettings,
    private readonly views: PartnerViews,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.menus = new LruCache(settings.menus);
    this.responses = new LruCache(settings.responseBytes, bodyWeight);
  }

  /** Spec endpoint 1: the tenant's active branches. */
  async branches(tenant: TenantScope): Promise<RenderedBody> {
    return this.cached(
      tenant,
      () => 'branches',
      (menu) => renderBody(this.views.branches(activeBranches(menu))),
    );
  }

  /** Spec endpoint 2: a branch's product list. */
  async productList(tenant: TenantScope, branchId: string, language: unknown): Promise<RenderedBody> {
    return this.cached(
      tenant,
      (menu) => `list:${branchId}:${resolveLanguage(language, menu.languages, menu.defaultLanguage)}`,
      (menu) => {
        if (!activeBranch(menu, branchId)) throw notFound();
        return renderBody(
          this.views.productList(menu, branchId, resolveLanguage(language, menu.languages, menu.defaultLanguage)),
        );
      },
    );
  }

  /** Spec endpoint 3: one product with its nested modifier groups. */
  async productDetail(
    tenant: TenantScope,
    branchId: string,
    productId: string,
    language: unknown,
  ): Promise<RenderedBody> {
    return this.cached(
      tenant,
      (menu) => `detail:${branchId}:${productId}:${resolveLanguage(language, menu.languages, menu.defaultLanguage)}`,
      (menu) => {
        const product = menu.products.get(productId);
        if (!activeBranch(menu, branchId) || !product) throw notFound();
        return renderBody(
          this.views.productDetail(
            menu,
            branchId,
            product,
            resolveLanguage(language, menu.languages, menu.defaultLanguage),
          ),
        );
      },
    );
  }

  private async cached(
    tenant: TenantScope,
    keyOf: (menu: Menu) => string,
    render: (menu: Menu) => RenderedBody,
  ): Promise<RenderedBody> {
    const meta = await this.store.meta.findRevision(tenant);
    const writing = meta?.dirtyUntil != null && meta.dirtyUntil > this.now();
    if (writing) return render(await this.load(tenant)); // a change is being applied: nothing may be kept
    const revision = `${tenant.tenantId}:${meta?.revision ?? 'empty'}`;
    let menu = this.menus.get(revision);
    if (!menu) {
      menu = this.load(tenant);
      this.menus.set(revision, menu);
      menu.catch(() => this.menus.delete(revision));
    }
    const loaded = await menu;
    const key = `${revision}:${keyOf(loaded)}`;
    const hit = this.responses.get(key);
    if (hit !== undefined) return hit;
    const body = render(loaded);
    this.responses.set(key, body);
    return body;
  }

  private async load(tenant: TenantScope): Promise<Menu> {
    const [branches, categories, products, groups, taxes, availability] = await Promise.all([
      this.store.branches.listLive(tenant),
      this.store.categories.listLive(tenant),
      this.store.products.listLive(tenant),
      this.store.modifierGroups.listLive(tenant),
      this.store.taxCategories.listLive(tenant),
      this.store.availability.listLive(tenant),
    ]);
    return buildMenu(
      { branches, categories, products, groups, taxes, availability },
      tenant.decimals,
      tenant.defaultLanguage,
    );
  }
}
