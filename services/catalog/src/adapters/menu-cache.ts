import { buildMenu, type Menu } from '../domain/menu';
import { bodyWeight, type RenderedBody } from '../domain/rendered-body';
import type { TenantScope } from '../domain/tenant-scope';
import type { MenuCache } from '../usecases/ports';
import { LruCache } from './lru-cache';
import type { CatalogStore } from './store';

export interface MenuCacheSettings {
  /** Tenants whose whole menu is kept in memory. */
  menus: number;
  /** Bytes of serialized responses kept. */
  responseBytes: number;
}

/**
 * What the partner reads keep. A tenant's menu is loaded once per catalog revision and kept; each
 * serialized response (a branch's product list in a language, a product detail) is kept too, under
 * the same revision. Every read first fetches the tenant's current revision (one indexed read), so
 * an acknowledged change is seen at once by every instance: it changed the revision. While a
 * change is being applied nothing is kept (see usecases/apply-change.ts).
 */
export class LruMenuCache implements MenuCache {
  private readonly menus: LruCache<Promise<Menu>>;
  private readonly responses: LruCache<RenderedBody>;

  constructor(
    private readonly store: CatalogStore,
    settings: MenuCacheSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.menus = new LruCache(settings.menus);
    this.responses = new LruCache(settings.responseBytes, bodyWeight);
  }

  async body(
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
